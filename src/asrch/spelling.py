"""Each surface's spelling of what the core names by argument (D49), from the table.

The core hands over next steps (`NextStep`) and messages whose arguments are references
(`asrch.domain.words`); these two spell them:

- `COMMAND_LINE`: a step is `asrch COMMAND OPTIONS… [--] ARGUMENTS…`, shell-quoted, a
  line that runs as pasted (`next: asrch sample connect src/net/pool.py`); an argument
  is its shortest spelling (`--word`, `-i`). A value that begins with `-` is written
  `--opt=value`, and positional arguments that do follow `--` (cyclopts' convention, D49).
- `TOOL`: a step is a call, `sample(query="connect", file="src/net/pool.py")`, each
  value as JSON writes it (positional arguments first, then the options, lists last);
  an argument is the tool's name for it, a mode flag the `mode` word (`mode word`).

Either offers no step whose `next:` line would pass the line cap (D8): a cut command
would not run as pasted.
"""

import shlex
from typing import Any

from asrch.commands.arguments import Argument
from asrch.commands.table import COMMANDS, Command
from asrch.domain.limits import LINE_CAP
from asrch.domain.words import NextStep, Reference, Value
from asrch.render.next_step import PREFIX


def _argument(name: str, command: str | None = None) -> Argument:
    """The table's argument `name` (of `command`, or of whichever command has it)."""
    tables = [COMMANDS[command]] if command else COMMANDS.values()
    for table in tables:
        for argument in table.arguments:
            if argument.name == name:
                return argument
    raise KeyError(name)


def _fits(line: str) -> str | None:
    return line if len((PREFIX + line).encode("utf-8")) <= LINE_CAP else None


class CommandLine:
    """The command line's spelling."""

    def option(self, argument: Argument) -> str:
        """Its shortest spelling: `-i` before `--ignore-case`."""
        return min((argument.spelling, *argument.aliases), key=len)

    def reference(self, reference: Reference) -> str:
        if reference.form == "type_list":
            return f"`asrch --type-list` lists all {reference.words[0]}"
        if reference.form == "exclusions":
            return " (see asrch --help)"
        if reference.form == "call":
            return shlex.join((reference.name, *self._words(COMMANDS[reference.name], reference)))
        argument = _argument(reference.name)
        if reference.form == "given":
            return shlex.join(self._option(argument, reference.words[0]))
        return self.option(argument)

    def _words(self, command: Command[Any], reference: Reference) -> list[str]:
        words = []
        for pair in reference.words:
            name, _, value = pair.partition("=")
            words += self._option(_argument(name, command.name), value)
        return words

    def _option(self, argument: Argument, value: Value) -> list[str]:
        """One option and its value: `--line 3`, `--glob=-x*`, a flag alone when on."""
        spelling = self.option(argument)
        if isinstance(value, bool):
            return [spelling] if value else []
        text = str(value)
        return [f"{spelling}={text}"] if text.startswith("-") else [spelling, text]

    def argv(self, step: NextStep) -> tuple[str, ...]:
        """The step as argument strings (`asrch`, the command, …); () for no step."""
        if not step:
            return ()
        command = COMMANDS[step.command]
        given = dict(step.arguments)
        options: list[str] = []
        for name, value in step.arguments:
            argument = _argument(name, command.name)
            if argument.positional:
                continue
            if argument.cli is None:  # a tool's word the command line spells as a flag
                options += self._option(_argument(str(value), command.name), True)
                continue
            for item in _items(value):
                options += self._option(argument, item)
        positionals = [
            str(item)
            for a in command.positionals
            if a.name in given
            for item in _items(given[a.name])
        ]
        dashes = ["--"] if any(p.startswith("-") for p in positionals) else []
        return ("asrch", step.command, *options, *dashes, *positionals)

    def line(self, step: NextStep) -> str:
        return shlex.join(self.argv(step))

    def step(self, step: NextStep) -> str | None:
        return _fits(self.line(step)) if step else None


class Tool:
    """An MCP tool's spelling (D37)."""

    def word(self, argument: Argument) -> str:
        return argument.tool_key

    def reference(self, reference: Reference) -> str:
        if reference.form == "exclusions":
            return ""  # a tool caller runs no --help; the server's words are all it has
        if reference.form == "type_list":
            return (
                f"type takes one of ripgrep's {reference.words[0]} type names "
                "(rg --type-list), or narrow with glob instead"
            )
        if reference.form == "call":
            values: dict[str, list[str]] = {}
            for pair in reference.words:
                name, _, value = pair.partition("=")
                values.setdefault(_argument(name, reference.name).tool_key, []).append(value)
            return _call_line(reference.name, values)
        argument = _argument(reference.name)
        if argument.tool_help is None:  # a mode flag: the tool's `mode` word
            return f"mode {argument.name}"
        key = argument.tool_key
        if reference.form == "each":
            return f"{argument.name} in {key}" if argument.many else key
        if reference.form == "given":
            value = reference.words[0]
            shown = [value] if argument.many else value
            return f"{key}: {_as_json(shown)}"
        return key

    def call(self, step: NextStep) -> tuple[str, dict[str, Any]] | None:
        """The step as a tool and its arguments by the tool's names; None for no step."""
        if not step:
            return None
        command = COMMANDS[step.command]
        given = dict(step.arguments)
        arguments: dict[str, Any] = {
            a.tool_key: given[a.name] for a in command.positionals if a.name in given
        }
        lists: dict[str, Any] = {}
        for name, value in step.arguments:
            argument = _argument(name, command.name)
            if argument.positional:
                continue
            if isinstance(value, tuple):
                lists[argument.tool_key] = list(value)
            else:
                arguments[argument.tool_key] = value
        return step.command, {**arguments, **lists}

    def step(self, step: NextStep) -> str | None:
        call = self.call(step)
        return None if call is None else _fits(_call_line(*call))


def _items(value: Value) -> tuple[Value, ...]:
    return value if isinstance(value, tuple) else (value,)


def _call_line(tool: str, arguments: dict[str, Any]) -> str:
    """`sample(query="connect", file="src/net/pool.py")`, each value as JSON writes it."""
    given = ", ".join(f"{k}={_as_json(v)}" for k, v in arguments.items())
    return f"{tool}({given})"


def _as_json(value: Any) -> str:
    """The value as JSON writes it. `json` is imported here: only the tools' spelling (the
    MCP server) writes JSON, and the command line's text path must not pay for it
    (`tests/cli/test_imports.py`)."""
    import json  # noqa: PLC0415

    return json.dumps(value, ensure_ascii=False)


COMMAND_LINE = CommandLine()
TOOL = Tool()
