"""The README's list of each command's arguments and options is the command table's
(`asrch.cli.option_lists`): adding an option to the table is the one edit it takes."""

from pathlib import Path

import pytest

from asrch.cli.option_lists import BEGIN, END, main, option_lists, rewritten
from asrch.commands.table import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ("README.md",)
REGENERATE = "nox -s update (or: python -m asrch.cli.option_lists README.md)"


@pytest.mark.parametrize("name", GENERATED)
def test_the_committed_option_list_is_the_table_s(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, f"{name} lost its markers"
    assert rewritten(text) == text, f"{name}'s option list differs from the table; run {REGENERATE}"


def test_every_option_and_tool_argument_is_listed() -> None:
    listed = option_lists()
    for command in COMMANDS.values():
        for option in command.options:
            assert f"`{option.spelling}" in listed or f", {option.spelling}`" in listed
        for argument in command.tool_arguments:
            assert f"`{argument.tool_key}`" in listed, argument.tool_key


def test_a_stale_list_is_rewritten_and_the_rest_kept(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    stale = f"before\n{BEGIN}\n| `scout` | `QUERY` | - | `query` |\n{END}\nafter\n"
    readme.write_text(stale, encoding="utf-8")
    main([str(readme)])
    assert readme.read_text(encoding="utf-8") == f"before\n{option_lists()}\nafter\n"
    assert rewritten(readme.read_text(encoding="utf-8")) == readme.read_text(encoding="utf-8")


def test_a_file_without_the_markers_is_an_error() -> None:
    with pytest.raises(ValueError, match="substring not found"):
        rewritten("no list here\n")
