"""The curl task set: its resolver on a small C file, the tree check's messages, the set's
shape. The set on a checkout of curl (which CI cannot fetch) is checked where it runs:
`nox -s context` checks every answer's witness on the pinned tree before it runs the set
(`sets.check_curl`), and says how to make the tree when it is missing."""

import re
from pathlib import Path

import pytest
from bench.context import run, sets, spans, tasks_curl
from bench.context.answers import Location, UnresolvedAnswerError

C_FILE = """\
#include "x.h"
#define LIMIT 200L
#define TWO(a) \\
  ((a) * 2)

static int helper(int a);

static const char *names[] = {
  "a",
  "b"
};

static int helper(int a)
{
  return a;
}

CURLcode Curl_parse(struct Curl_easy *data,
                    const char *header)
{
  int timeout = 1000L;
  if(helper(1)) {
    return 0;
  }
  return 1;
}
"""


@pytest.fixture
def c_tree(tmp_path: Path) -> Path:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "x.c").write_text(C_FILE)
    return tmp_path


@pytest.mark.parametrize(
    ("answer", "start", "end"),
    [
        ("lib/x.c:LIMIT", 2, 2),
        ("lib/x.c:TWO", 3, 4),  # a continued #define
        ("lib/x.c:names", 8, 11),  # an initializer, to its `};`
        ("lib/x.c:helper", 13, 16),  # the prototype on line 6 is not a definition
        ("lib/x.c:Curl_parse", 18, 26),  # a signature over two lines
        ("lib/x.c@int timeout = 1000L;", 21, 21),
    ],
)
def test_spans_resolve(c_tree: Path, answer: str, start: int, end: int) -> None:
    assert spans.resolve(c_tree, answer) == Location("lib/x.c", start, end)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("lib/x.c:parse", "parse in lib/x.c is not there"),  # Curl_parse is another name
        ("lib/x.c@return", "found 3 times"),
        ("lib/y.c:helper", "lib/y.c is not a file"),
        ("lib/x.c", "is not of the form"),
    ],
)
def test_spans_refuse(c_tree: Path, answer: str, reason: str) -> None:
    with pytest.raises(UnresolvedAnswerError, match=re.escape(reason)):
        spans.resolve(c_tree, answer)


def test_a_missing_tree_is_said_with_how_to_make_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-curl"
    with pytest.raises(SystemExit) as stop:
        run.main(["--set", "curl", "--tree", str(missing), "--json", str(tmp_path / "c.json")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"the curl tree is not there: {missing}" in err
    assert tasks_curl.COMMIT in err and "--tree DIR" in err
    assert not (tmp_path / "c.json").exists()


def test_another_tree_is_refused_by_its_witnesses(c_tree: Path) -> None:
    with pytest.raises(sets.TreeMissingError, match="is not curl at " + tasks_curl.COMMIT):
        sets.check_curl(c_tree)


def test_tree_is_only_for_curl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        run.main(["--tree", str(tmp_path)])
    assert stop.value.code == 2
    assert "--tree is for the curl set" in capsys.readouterr().err


def test_task_set_follows_the_issue() -> None:
    assert len(tasks_curl.TASKS) >= 20
    assert len({t.id for t in tasks_curl.TASKS}) == len(tasks_curl.TASKS)
    assert {t.kind for t in tasks_curl.TASKS} == set(tasks_curl.KINDS)
    assert re.fullmatch(r"[0-9a-f]{40}", tasks_curl.COMMIT)
    for task in tasks_curl.TASKS:
        assert 2 <= len(task.candidates) <= 6, task.id
        name = re.split(r"[:@]", task.answer, maxsplit=1)[1]
        assert list(task.candidates) != [name], task.id
