"""A small answer's count and lines from one rg run (`engine.files.count_and_lines`,
issue 41, item 5), held to the two runs it replaces: `count_files` without the census
and `matching_lines` over the files counted, on rg itself and on its recorded output
replayed in 7-byte blocks; past `keep` lines it gives up (None) and rg is stopped."""

import os
from pathlib import Path

import pytest

from asrch.domain.counting import Tally
from asrch.domain.filters import Filters
from asrch.domain.lines import SourceLine
from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine import searcher as searcher_module
from asrch.engine.binary import resolve_rg
from asrch.engine.counts import count_files
from asrch.engine.files import count_and_lines, matching_lines
from asrch.engine.mock_rg import MockRg, Reply, recorded
from asrch.engine.process import Launch
from asrch.engine.searcher import RipgrepSearcher

RG = resolve_rg()
CAP = 50_000

FILES: dict[bytes, bytes] = {
    b"a.py": b"needle = 1\nx\n  needle()\n",
    b"a/b.py": b"def f():\n    return needle\n",
    b"a/c/d.md": b"needle\n",
    b"-": b"needle in a file named dash\n",
    b"caf\xe9.txt": b"\xe9 needle \xff\n",
    b"new\nline.txt": b"a needle in a name with a newline\n",
    b"crlf.txt": b"one needle\r\ntwo\r\nneedle\r\n",
    b"utf16.txt": "\ufeffneedle in UTF-16\nneedle\n".encode("utf-16-le"),
    # Matches before a NUL that rg meets only past its first buffer: the walk counts
    # nothing there (`rg --count` prints no record), its JSON lists the lines first.
    b"late_nul.txt": b"needle first\n" + b"filler line of text\n" * 20_000 + b"\0needle\n",
    b"early_nul.bin": b"needle\0\n",
    b"long.txt": b"x" * (1 << 21) + b" needle " + b"y" * 100 + b"\n",
    b"ignored.txt": b"needle ignored\n",
    b".gitignore": b"ignored.txt\n",
    b".hidden.txt": b"needle hidden\n",
    b"none.txt": b"nothing here\n",
}

QUERIES = [
    Query(term="needle"),
    Query(term="needle", options=SearchOptions(mode=Mode.WORD)),
    Query(term="NEEDLE", options=SearchOptions(ignore_case=True)),
    Query(term="needle", options=SearchOptions(mode=Mode.IDENTIFIER)),
    Query(term="absent"),
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("listed")
    for name, data in FILES.items():
        path = os.fsencode(root) + b"/" + name
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)
    return root


def _two_runs(
    query: Query, target: str, launch: Launch, keep: int
) -> tuple[Tally, dict[str, tuple[SourceLine, ...]]]:
    tally = count_files(RG, query, target, cap=CAP, launch=launch, census=False)
    files = [file.path for file in tally.files]
    return tally, matching_lines(RG, query, files, keep=keep, launch=launch)


@pytest.mark.parametrize("target", [".", "./", "a", "a/", "ABSOLUTE"])
@pytest.mark.parametrize("query", QUERIES, ids=lambda q: f"{q.mode.value}-{q.term}")
def test_one_run_answers_what_two_runs_answer(tree: Path, query: Query, target: str) -> None:
    target = str(tree) if target == "ABSOLUTE" else target
    for transport in (None, MockRg(recorded, chunk=7)):
        launch = Launch(str(tree)) if transport is None else Launch(str(tree), transport=transport)
        one = count_and_lines(RG, query, target, cap=CAP, keep=1_000, launch=launch)
        assert one == _two_runs(query, target, Launch(cwd=str(tree)), keep=1_000)


def test_the_cap_cuts_the_count_as_a_scan_stopped_there(tree: Path) -> None:
    launch = Launch(cwd=str(tree))
    one = count_and_lines(RG, Query(term="needle"), ".", cap=3, keep=1_000, launch=launch)
    assert one is not None
    expected = count_files(RG, Query(term="needle"), ".", cap=3, launch=launch, census=False)
    assert one[0] == expected
    assert expected.capped


def test_more_lines_than_kept_gives_up(tree: Path) -> None:
    launch = Launch(cwd=str(tree))
    needle = Query(term="needle")
    lines = _two_runs(needle, ".", launch, keep=1_000)[0].matches
    assert count_and_lines(RG, needle, ".", cap=CAP, keep=lines - 1, launch=launch) is None
    assert count_and_lines(RG, needle, ".", cap=CAP, keep=lines + 1, launch=launch)


def _record(kind: str, path: str, line: int = 1, binary: str = "null") -> bytes:
    if kind == "match":
        return (
            b'{"type":"match","data":{"path":{"text":"%s"},"lines":{"text":"needle\\n"},'
            b'"line_number":%d,"absolute_offset":0,"submatches":[{"match":{"text":"needle"},'
            b'"start":0,"end":6}]}}\n' % (path.encode(), line)
        )
    return b'{"type":"end","data":{"path":{"text":"%s"},"binary_offset":%s,"stats":{}}}\n' % (
        path.encode(),
        binary.encode(),
    )


SUMMARY = b'{"data":{"stats":{}},"type":"summary"}\n'


def test_rg_is_stopped_once_past_keep() -> None:
    out = b"".join(_record("match", "./a.py", n) for n in range(1, 4)) + SUMMARY
    rg = MockRg(lambda request: Reply(out))
    launch = Launch(transport=rg)
    assert count_and_lines("rg", Query(term="needle"), ".", cap=CAP, keep=2, launch=launch) is None
    one = count_and_lines("rg", Query(term="needle"), ".", cap=CAP, keep=3, launch=launch)
    assert one is not None and one[0].matches == 3


def test_a_file_rg_stopped_at_a_nul_is_not_counted() -> None:
    out = (
        _record("match", "./bin.txt")
        + _record("end", "./bin.txt", binary="70000")
        + _record("match", "./a.py")
        + _record("end", "./a.py")
        + SUMMARY
    )
    launch = Launch(transport=MockRg(lambda request: Reply(out)))
    one = count_and_lines("rg", Query(term="needle"), ".", cap=CAP, keep=20, launch=launch)
    assert one is not None
    tally, lines = one
    assert [(f.path, f.matches) for f in tally.files] == [("./a.py", 1)]
    assert list(lines) == ["./a.py"]


@pytest.mark.parametrize(
    "out",
    [_record("match", "./a.py"), b"this is not ripgrep output\n", b'{"type":"match",\n' + SUMMARY],
    ids=["no-summary", "junk", "garbled"],
)
def test_output_that_is_not_rgs_json_is_left_to_the_count(out: bytes) -> None:
    """The count plan reads rg as it always did and says what is wrong (exit 4), in the
    same words whichever format was asked for."""
    launch = Launch(transport=MockRg(lambda request: Reply(out)))
    assert count_and_lines("rg", Query(term="needle"), ".", cap=CAP, keep=20, launch=launch) is None


def test_the_searcher_takes_one_run_only_where_it_is_cheap(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = RipgrepSearcher(cwd=str(tree), census=False)
    assert plain.count_listed(Query(term="needle"), ".", cap=CAP, keep=1_000) is not None
    # The census (JSON answers), the filters, a file: counted apart, as before.
    census = RipgrepSearcher(cwd=str(tree), census=True)
    assert census.count_listed(Query(term="needle"), ".", cap=CAP, keep=1_000) is None
    filtered = Query(term="needle", filters=Filters(globs=("*.py",)))
    assert plain.count_listed(filtered, ".", cap=CAP, keep=1_000) is None
    assert plain.count_listed(Query(term="needle"), "a.py", cap=CAP, keep=1_000) is None
    # A tree past `SMALL_TREE` entries: a second walk would cost as much as the first.
    monkeypatch.setattr(searcher_module, "SMALL_TREE", 3)
    fresh = RipgrepSearcher(cwd=str(tree), census=False)
    assert fresh.count_listed(Query(term="needle"), ".", cap=CAP, keep=1_000) is None
    assert fresh.count_listed(Query(term="needle"), "a/c", cap=CAP, keep=1_000) is not None
