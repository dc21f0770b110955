"""How many filters a call takes (issue 39, item 7): at most FILTERS_MAX `--type` and
`--glob` values each, refused past it in one line before anything is parsed or
searched, and what is accepted read in time linear in the count."""

from pathlib import Path
from typing import Any

import pytest

from asrch.cli.app import read
from asrch.domain.limits import FILTERS_MAX
from tests.end_to_end.helpers import asrch, check_invariants


@pytest.mark.parametrize("option", ["--glob", "--type"])
@pytest.mark.parametrize("given", [FILTERS_MAX + 1, 2_000])
def test_too_many_filters_are_refused_naming_the_count_and_the_limit(
    tmp_path: Path, option: str, given: int
) -> None:
    (tmp_path / "a.py").write_text("needle\n")
    values = [f"{option}=g{i}.py" if option == "--glob" else f"{option}=py" for i in range(given)]
    for command in (["scout", "needle", *values, "."], ["survey", "--term=needle", *values]):
        run = asrch(*command, cwd=tmp_path)
        check_invariants(run, frozenset({2}))
        assert (
            run.err == f"error: {option} given {given} times; at most {FILTERS_MAX} are allowed\n"
        )


def test_the_limit_itself_is_searched(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("needle\n")
    globs = [f"--glob=!g{i}.txt" for i in range(FILTERS_MAX - 1)]
    run = asrch("scout", "needle", *globs, "--glob=*.py", ".", cwd=tmp_path)
    check_invariants(run, frozenset({0}))
    assert "matches: 1" in run.out


def test_repeated_values_are_converted_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Declared `list[str] | None`, each repeat had cyclopts convert the union again for
    every value after it: 5,250 conversions for 100 globs, 501,500 for 1,000 (71ae67e).
    Declared `list[str]`, asrch's own converter takes the values: none of cyclopts'."""
    import cyclopts._convert as convert

    calls = 0
    original = convert._convert

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(convert, "_convert", counted)
    command, values = read(["scout", "needle", *[f"--glob=g{i}" for i in range(100)], "."])
    assert (command, len(values["glob"])) == ("scout", 100)
    assert calls <= 2 * 100


def test_a_tool_takes_as_many_filters_as_the_command_line(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from asrch.server.app import build_server
    from tests.server.helpers import call_tool, text_of

    (tmp_path / "a.py").write_text("needle\n")
    server = build_server([str(tmp_path)])
    for key in ("glob", "type"):
        over = call_tool(server, "scout", {"query": "needle", key: ["py"] * 20_000})
        assert over.is_error, text_of(over)
        assert f"at most {FILTERS_MAX}" in text_of(over)
    held = call_tool(server, "scout", {"query": "needle", "glob": ["*.py"] * FILTERS_MAX})
    assert not held.is_error and "matches: 1" in text_of(held)
