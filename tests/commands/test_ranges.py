"""A number's range is declared once, on its argument in the command table (issue 33):
the command line's refusal, the tool's schema and refusal, the help line and the use
case called directly all say that range, for each number argument the table holds.

A surface that wrote a range of its own (a literal maximum, a `1-5` in a help string)
would disagree with the table as soon as the table's changed; here every number
argument is walked from the table and each surface asked at both ends of its range.
"""

from pathlib import Path
from typing import Any

import pytest

from asrch.commands.arguments import Argument
from asrch.commands.table import COMMANDS, run
from asrch.domain.errors import OutOfRangeError
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from asrch.server.arguments import input_schema, read_arguments
from tests.support.cli import run_asrch

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
FILE = "src/net/pool.py"

NUMBERS = [
    (command.name, argument)
    for command in COMMANDS.values()
    for argument in command.arguments
    if argument.value_type == "number"
]
IDS = [f"{c} {a.name}" for c, a in NUMBERS]


def _outside(argument: Argument) -> list[int]:
    """One value past each end the argument declares."""
    assert argument.low is not None, argument.name  # every number has a floor (D25)
    return [argument.low - 1, *([] if argument.high is None else [argument.high + 1])]


def _call(command: str, argument: Argument, value: int) -> dict[str, Any]:
    return {"query": "connect", "file": FILE, argument.name: value}


@pytest.mark.parametrize(("command", "argument"), NUMBERS, ids=IDS)
def test_the_schema_and_the_help_say_the_declared_range(command: str, argument: Argument) -> None:
    schema = input_schema(command)["properties"][argument.tool_key]
    assert schema.get("minimum") == argument.low
    assert schema.get("maximum") == argument.high
    if not argument.allowed:  # a range in words (`line`) is the use case's to complete
        assert argument.allowed_range() in argument.help


@pytest.mark.parametrize(("command", "argument"), NUMBERS, ids=IDS)
def test_every_surface_refuses_just_outside_the_declared_range(
    command: str, argument: Argument
) -> None:
    searcher = RipgrepSearcher(cwd=str(CORPUS))
    scopes = ScopeReader(cwd=str(CORPUS))
    for value in _outside(argument):
        # The use case, called as both surfaces call it.
        with pytest.raises(OutOfRangeError) as direct:
            run(COMMANDS[command], searcher, _call(command, argument, value), scopes=scopes)
        # The tool, before the call.
        with pytest.raises(OutOfRangeError) as tool:
            read_arguments(command, _call(command, argument, value))
        assert tool.value.allowed == argument.allowed_range()
        # The command line (a value below 0 is not digits: D25's other refusal).
        if value >= 0:
            ran = run_asrch(
                [command, "connect", FILE, f"--{argument.name}", str(value)], cwd=CORPUS
            )
            assert ran.status == 2, ran
            said = ran.stderr.decode()
            assert said.startswith(f"error: --{argument.name} {value} is out of range; "), said
            if not argument.allowed:
                assert said.endswith(f"allowed: {argument.allowed_range()}\n"), said
                assert direct.value.allowed == argument.allowed_range()


@pytest.mark.parametrize(("command", "argument"), NUMBERS, ids=IDS)
def test_the_ends_of_the_declared_range_are_taken(command: str, argument: Argument) -> None:
    searcher = RipgrepSearcher(cwd=str(CORPUS))
    scopes = ScopeReader(cwd=str(CORPUS))
    ends = [argument.low, argument.high] if argument.high is not None else [argument.low]
    for value in ends:
        assert value is not None
        assert read_arguments(command, _call(command, argument, value))[argument.tool_key] == value
        run(COMMANDS[command], searcher, _call(command, argument, value), scopes=scopes)
