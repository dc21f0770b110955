"""Errors carry their own words; `error: ` is added only where an error is printed
(`asrch.render.errors`), by the command line and the MCP server alike (D20, D40)."""

import re
from pathlib import Path

from asrch.domain.errors import InputError, OutOfRangeError
from asrch.domain.words import arg
from asrch.render.errors import error_line
from asrch.spelling import COMMAND_LINE, TOOL

SRC = Path(__file__).resolve().parents[2] / "src" / "asrch"
PREFIXED = re.compile(r"""f?["']error: """)


def test_no_message_is_written_with_the_prefix_outside_the_printer() -> None:
    written = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if path != SRC / "render" / "errors.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PREFIXED.search(line)
    ]
    assert not written, written


def test_the_printer_adds_the_prefix_once() -> None:
    assert error_line(InputError("empty query"), COMMAND_LINE) == "error: empty query"


def test_a_range_error_carries_its_data_and_words_it_once() -> None:
    error = OutOfRangeError(arg("clusters"), 6, "1-5")
    assert (error.name, error.value, error.allowed) == (arg("clusters"), 6, "1-5")
    assert error_line(error, COMMAND_LINE) == "error: --clusters 6 is out of range; allowed: 1-5"
    assert error_line(error, TOOL) == "error: clusters 6 is out of range; allowed: 1-5"
