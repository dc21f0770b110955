"""The four tools, derived from the command table (`asrch.commands.table`).

Each tool takes D29's snake_case arguments: its input schema is generated from the
command's arguments (`arguments_model`, a pydantic model, strict: a string is never a
number), and a call's arguments are validated against the same model. Before anything
runs, every path is confined to the roots and every string refused if it holds NUL
(`checked`); then the command's use case runs with the command line's own defaults and
checks, and its report is rendered as text and as the D27 object by the caller
(`asrch.server.app`).
"""

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, Field, StrictBool, StrictInt, StrictStr, create_model

from asrch.commands.table import COMMANDS, Argument, Command, load, run
from asrch.domain.ports import Searcher
from asrch.server.roots import Roots, refuse_nul


class Answered(NamedTuple):
    """A use case's report and its text answer."""

    report: object
    text: str


Work = Callable[[Searcher], Answered]
"""One tool call once it has a searcher: check the paths, run the use case, render."""


def _annotation(argument: Argument) -> Any:
    if argument.kind == "flag":
        return StrictBool
    if argument.kind == "number":
        return StrictInt if argument.default is not None else StrictInt | None
    if argument.kind == "choice":
        return Literal[argument.choices]
    if argument.kind == "texts" or argument.many:
        return list[StrictStr] if argument.required else Sequence[StrictStr]
    return StrictStr


def _field(argument: Argument) -> tuple[Any, Any]:
    description = argument.tool_help or None
    if argument.required:
        return _annotation(argument), Field(description=description)
    default = argument.default
    if isinstance(default, tuple) and argument.many:
        default = ()  # none given: the use case's own default (survey's `.`)
    return _annotation(argument), Field(default=default, description=description)


@cache
def arguments_model(name: str) -> type[BaseModel]:
    """The tool's arguments as a model: its JSON Schema is the tool's input schema."""
    command = COMMANDS[name]
    fields = {a.tool_key: _field(a) for a in command.tool_arguments}
    model: type[BaseModel] = create_model(f"{name}Arguments", **fields)  # type: ignore[call-overload]
    return model


def input_schema(name: str) -> dict[str, Any]:
    return arguments_model(name).model_json_schema()


def checked(command: Command, roots: Roots, given: Mapping[str, Any]) -> dict[str, Any]:
    """The call's values by argument name, each path confined to the roots and each
    string free of NUL, in the table's order (the first refusal is the one reported)."""
    values: dict[str, Any] = {}
    for argument in command.tool_arguments:
        value = given.get(argument.tool_key)
        if argument.check and value is not None:
            items = [value] if isinstance(value, str) else list(value)
            if argument.check == "text":
                for item in items:
                    refuse_nul(item, argument.shown)
            else:
                # The use case gets what was checked (issue 20, item 9: `Roots.confine`).
                confined = [roots.confine(item, argument.shown) for item in items]
                value = confined[0] if isinstance(value, str) else confined
        values[argument.name] = value
    return values


def work(name: str, roots: Roots, given: Mapping[str, Any]) -> Work:
    """The call of tool `name` with its validated arguments `given`."""
    command = COMMANDS[name]

    def answer(searcher: Searcher) -> Answered:
        values = checked(command, roots, given)
        report = run(command, searcher, values)
        return Answered(report, load(command.renderer)(report))

    return answer
