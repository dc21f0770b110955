"""The README's list of each command's arguments and options, from the command table.

    python -m asrch.cli.option_lists [FILE ...]   rewrite the list in each FILE (README.md)

The list stands between the `BEGIN` and `END` comments; `nox -s update` rewrites it and
tests/docs/test_option_lists.py fails when it and the table differ, so adding an option
to the table is the one edit it takes.
"""

import sys
from pathlib import Path
from typing import Any

from asrch.cli.help import SHARED, grammar, spelled
from asrch.commands.arguments import Argument
from asrch.commands.table import COMMANDS, SCOUT, Command

BEGIN = "<!-- BEGIN option lists: generated from src/asrch/commands/table.py -->"
END = "<!-- END option lists -->"


def _help(argument: Argument) -> str:
    # One line, and no `|` a table would read as a cell's end.
    return argument.help.replace("\n", " ").replace("|", "\\|")


def _tool_words(arguments: tuple[Argument, ...]) -> str:
    return ", ".join(f"`{a.tool_key}`" for a in arguments) or "-"


def _row(command: Command[Any]) -> str:
    own = [a for a in command.options if a.name not in SHARED and not a.required]
    options = "; ".join(f"`{spelled(a)}`: {_help(a)}" for a in own) or "-"
    takes = " ".join(grammar(command))
    arguments = tuple(a for a in command.tool_arguments if a.name not in SHARED)
    return f"| `{command.name}` | `{takes}` | {options} | {_tool_words(arguments)} |"


def _shared_line(argument: Argument) -> str:
    if argument.tool_help is not None:
        tool = f"`{argument.tool_key}`" + (", a list" if argument.many else "")
    elif argument.role == "search":  # a mode flag: one `mode` word for a tool
        tool = f"`mode`: `{argument.name}`"
    else:
        tool = "the command line only"
    without = [c.name for c in COMMANDS.values() if argument not in c.arguments]
    absent = f"; not on {', '.join(without)}" if without else ""
    return f"- `{spelled(argument)}` ({tool}{absent}): {_help(argument)}"


def option_lists() -> str:
    """The generated list, markers included."""
    shared = [a for a in SCOUT.options if a.name in SHARED]
    lines = [
        BEGIN,
        "| command | arguments | its own options | the MCP tool's arguments |",
        "| --- | --- | --- | --- |",
        *(_row(c) for c in COMMANDS.values()),
        "",
        "Every command also takes (the MCP tool's name for it in parentheses):",
        "",
        *(_shared_line(a) for a in shared),
        END,
    ]
    return "\n".join(lines)


def rewritten(text: str) -> str:
    """`text` with its generated list made current; an error if it has none."""
    start = text.index(BEGIN)
    end = text.index(END, start) + len(END)
    return text[:start] + option_lists() + text[end:]


def main(argv: list[str]) -> None:
    for name in argv or ["README.md"]:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        new = rewritten(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
