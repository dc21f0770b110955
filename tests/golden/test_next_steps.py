"""Every `next:` line of the spec runs as pasted (D28): shlex-split, from the working
directory of the answer that printed it, it exits 0 and finds matches; and the JSON
answer's `next` is the same command."""

import dataclasses
import json
import re
import shlex

import pytest

from tests.golden.examples import Example
from tests.golden.runner import Trees, run_example
from tests.golden.test_spec import JAPANESE_EXAMPLES, _ids, trees  # noqa: F401 (fixture)
from tests.support.cli import Result

PREFIX = "next: "
WITH_NEXT = [ex for ex in JAPANESE_EXAMPLES if any(ln.startswith(PREFIX) for ln in ex.expected)]
_MATCHES = re.compile(r"^  matches: \"?(?:at least )?(\d+)\"?$", re.M)
_MATCH_LINE = re.compile(r"^\d+:", re.M)


def _next_line(example: Example) -> str:
    lines = [ln for ln in example.expected if ln.startswith(PREFIX)]
    assert len(lines) == 1, f"{example.location}: {len(lines)} next: lines"
    assert example.expected[-1] == lines[0], f"{example.location}: next: is not the last line"
    return lines[0].removeprefix(PREFIX)


def _matches(result: Result) -> int:
    """The header's count; `show --line`'s header has none (D42): its marked lines."""
    found = _MATCHES.findall(result.out)
    if not found and result.out.startswith("show:\n  window: "):
        return len(_MATCH_LINE.findall(result.out))
    assert found, f"no matches line in:\n{result.out}"
    return int(found[0])


def test_the_spec_shows_every_kind_of_step() -> None:
    steps = {shlex.split(_next_line(ex))[1] for ex in WITH_NEXT}
    assert steps == {"scout", "sample", "show"}
    assert any("--line" in shlex.split(_next_line(ex)) for ex in WITH_NEXT)
    assert any("--page" in shlex.split(_next_line(ex)) for ex in WITH_NEXT)


@pytest.mark.parametrize("example", WITH_NEXT, ids=_ids(WITH_NEXT))
def test_a_next_line_runs_as_pasted(example: Example, trees: Trees) -> None:  # noqa: F811
    command = _next_line(example)
    pasted = dataclasses.replace(example, command=command)
    result = run_example(pasted, trees)
    where = f"{example.location}: $ {command}"
    assert result.status == 0, f"{where}: exit {result.status}\n{result.err}"
    assert result.err == "", where
    assert _matches(result) > 0, f"{where}: no matches\n{result.out}"
    words = shlex.split(command)
    if "--line" in words:
        line = words[words.index("--line") + 1]
        assert re.search(rf"^{line}:", result.out, re.M), f"{where}: line {line} is no match"


@pytest.mark.parametrize("example", WITH_NEXT, ids=_ids(WITH_NEXT))
def test_the_json_next_is_the_text_next(example: Example, trees: Trees) -> None:  # noqa: F811
    words = shlex.split(example.command)
    as_json = shlex.join([*words[:2], "--format", "json", *words[2:]])
    result = run_example(dataclasses.replace(example, command=as_json), trees)
    assert json.loads(result.out)["next"] == shlex.split(_next_line(example))
