"""The four tools' calls, derived from the command table (`asrch.commands.table`).

Each tool takes D29's snake_case arguments, read against the table by
`asrch.server.arguments` (its input schema too). Before anything runs, every path is
confined to the roots and every string refused if it holds NUL (`checked`); then the
command's use case runs with the command line's own defaults and checks, its errors
worded with the tool's argument names (D37), and its report is rendered as text (its
`next:` line a call) and as the D27 object by the caller (`asrch.server.app`).
"""

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from asrch.commands.table import COMMANDS, Command, run
from asrch.domain.ports import Scopes, Searcher
from asrch.engine.pins import Pins
from asrch.server.roots import Roots, refuse_nul
from asrch.spelling import TOOL


class Answered(NamedTuple):
    """A use case's report and its text answer."""

    report: object
    text: str


Work = Callable[[Searcher, Scopes, "Pins | None"], Answered]
"""One tool call once it has a searcher, the scope reader (D31) and the call's pins
(`engine.pins`, the objects its paths name): check the paths, run the use case, render."""


def checked(
    command: Command[Any], roots: Roots, given: Mapping[str, Any], pins: Pins | None = None
) -> dict[str, Any]:
    """The call's values by argument name, each path confined to the roots (and pinned
    in `pins`) and each string free of NUL, in the table's order (the first refusal is
    the one reported)."""
    values: dict[str, Any] = {}
    for argument in command.tool_arguments:
        value = given.get(argument.tool_key)
        if argument.check and value is not None:
            items = [value] if isinstance(value, str) else list(value)
            if argument.check == "text":
                for item in items:
                    refuse_nul(item, argument.shown if argument.positional else argument.tool_key)
            else:
                # The use case gets what was checked (issue 20, item 9: `Roots.confine`).
                confined = [roots.confine(item, argument.shown, pins) for item in items]
                value = confined[0] if isinstance(value, str) else confined
        values[argument.name] = value
    return values


def work(name: str, roots: Roots, given: Mapping[str, Any]) -> Work:
    """The call of tool `name` with its validated arguments `given`."""
    command = COMMANDS[name]

    def answer(searcher: Searcher, scopes: Scopes, pins: Pins | None = None) -> Answered:
        values = checked(command, roots, given, pins)
        report = run(command, searcher, values, scopes=scopes)
        # Spelled as a tool's: arguments by the tool's names, the next step a call (D37).
        return Answered(report, command.render(report, TOOL))

    return answer
