"""The protocol's next step (D28) as the spec writes it (spec/next_step*.md).

Every example of that page is run as JSON: its `next` is written in the page (both
languages; in the prose, or as the text's `next:` line) and, run from the working
directory of the answer, exits 0 and finds matches. A text answer prints its step as
`next:` only after a refusal or a stopped scan (D54): every `next:` line of the whole
spec is such an answer's, is its last line, is the JSON's `next` and runs as pasted.
An input error that names the call answering it (a `--regex` alternation, the survey of
its terms) prints its `next:` on stderr after the error, the same in either format."""

import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest

from tests.golden.examples import Example, parse_examples
from tests.golden.runner import Trees, run_example
from tests.golden.test_spec import JAPANESE_EXAMPLES, _ids, trees  # noqa: F401 (fixture)
from tests.support.cli import Result

PREFIX = "next: "
SPEC = Path(__file__).parents[2] / "spec"
PAGES = (SPEC / "next_step.md", SPEC / "next_step.en.md")
STEP_EXAMPLES = parse_examples(PAGES[0])
WITH_NEXT = [ex for ex in JAPANESE_EXAMPLES if any(ln.startswith(PREFIX) for ln in ex.expected)]
_MATCHES = re.compile(r"^  matches: \"?(?:at least )?(\d+)\"?$", re.M)
_MATCH_LINE = re.compile(r"^\d+:", re.M)
_TERM = re.compile(r'^"(?:[^"\\]|\\.)*"|^[^,]*')
_STOPPED = re.compile(r"^(?:note: (?:refused: |scan stopped at )|error: )", re.M)


def _next_line(example: Example) -> str:
    lines = [ln for ln in example.expected if ln.startswith(PREFIX)]
    assert len(lines) == 1, f"{example.location}: {len(lines)} next: lines"
    assert example.expected[-1] == lines[0], f"{example.location}: next: is not the last line"
    return lines[0].removeprefix(PREFIX)


def _as_json(example: Example, trees: Trees) -> list[str] | None:  # noqa: F811
    words = shlex.split(example.command)
    as_json = shlex.join([*words[:2], "--format", "json", *words[2:]])
    result = run_example(dataclasses.replace(example, command=as_json), trees)
    step: list[str] | None = json.loads(result.out)["next"]
    return step


def _matches(result: Result) -> int:
    """The header's count; `show --line`'s header has none (D42): its marked lines;
    survey's: its terms' summed (an alternative may match nothing)."""
    if result.out.startswith("terms["):
        return sum(_survey_counts(result.out))
    found = _MATCHES.findall(result.out)
    if not found and result.out.startswith("show:\n  window: "):
        return len(_MATCH_LINE.findall(result.out))
    assert found, f"no matches line in:\n{result.out}"
    return int(found[0])


def _survey_counts(text: str) -> list[int]:
    """Each term's matching lines from survey's `terms[...]` rows: the second value of a
    row, its term written plain or double-quoted (TOON)."""
    rows = [ln[2:] for ln in text.splitlines()[1:] if ln.startswith("  ")]
    after_term = [_TERM.sub("", row) for row in rows]
    return [int(rest.split(",")[1]) for rest in after_term]


def _runs(example: Example, command: str, trees: Trees) -> None:  # noqa: F811
    result = run_example(dataclasses.replace(example, command=command), trees)
    where = f"{example.location}: $ {command}"
    assert result.status == 0, f"{where}: exit {result.status}\n{result.err}"
    assert result.err == "", where
    assert _matches(result) > 0, f"{where}: no matches\n{result.out}"
    words = shlex.split(command)
    if "--line" in words:
        line = words[words.index("--line") + 1]
        assert re.search(rf"^{line}:", result.out, re.M), f"{where}: line {line} is no match"


def _prose(page: Path) -> str:
    return " ".join(page.read_text(encoding="utf-8").split())


def test_the_page_shows_every_kind_of_step(trees: Trees) -> None:  # noqa: F811
    steps = [s for s in (_as_json(ex, trees) for ex in STEP_EXAMPLES) if s is not None]
    assert {s[1] for s in steps} == {"scout", "sample", "show"}
    assert any("--line" in s for s in steps)
    assert any("--page" in s for s in steps)
    assert any(s is None for s in (_as_json(ex, trees) for ex in STEP_EXAMPLES))


@pytest.mark.parametrize("example", STEP_EXAMPLES, ids=_ids(STEP_EXAMPLES))
def test_a_json_next_is_written_and_runs(example: Example, trees: Trees) -> None:  # noqa: F811
    step = _as_json(example, trees)
    if step is None:
        return
    command = shlex.join(step)
    for page in PAGES:
        written = (f"`{command}`", PREFIX + command)
        assert any(w in _prose(page) for w in written), f"{page.name} does not write {command}"
    _runs(example, command, trees)


@pytest.mark.parametrize("example", WITH_NEXT, ids=_ids(WITH_NEXT))
def test_a_text_next_follows_a_refusal_or_a_stop(example: Example) -> None:
    _next_line(example)
    said = "\n".join(example.expected)
    assert _STOPPED.search(said), f"{example.location}: next: without a refusal or a cap"


@pytest.mark.parametrize("example", WITH_NEXT, ids=_ids(WITH_NEXT))
def test_a_next_line_runs_as_pasted(example: Example, trees: Trees) -> None:  # noqa: F811
    _runs(example, _next_line(example), trees)


@pytest.mark.parametrize("example", WITH_NEXT, ids=_ids(WITH_NEXT))
def test_the_json_next_is_the_text_next(example: Example, trees: Trees) -> None:  # noqa: F811
    if example.on_stderr:  # an error: no answer in either format, the same two lines
        words = shlex.split(example.command)
        as_json = shlex.join([*words[:2], "--format", "json", *words[2:]])
        result = run_example(dataclasses.replace(example, command=as_json), trees)
        assert result.out == ""
        assert result.err.splitlines() == list(example.expected)
        return
    assert _as_json(example, trees) == shlex.split(_next_line(example))
