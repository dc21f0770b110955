"""Help texts, derived from the command table: plain, stable, each with its examples.

`asrch --help` says once what every search command shares (the modes, the filters,
`--format`); `asrch COMMAND --help` its usage, what it does, its own options and its
examples. Together under 4 KB: an agent reads them once (issue 25).
"""

import textwrap
from typing import Any

from asrch.cli.index import HELP as INDEX_HELP
from asrch.commands.arguments import COMMON, Argument
from asrch.commands.table import COMMANDS, SCOUT, Command
from asrch.domain.exclusions import EXCLUDED_DIRS, EXCLUDED_FILES


def spelled(argument: Argument) -> str:
    names = ", ".join((*argument.aliases, argument.spelling))
    return f"{names} {argument.metavar}" if argument.metavar else names


def _option_lines(arguments: tuple[Argument, ...]) -> list[str]:
    """`  --clusters N  clusters per page, …`, help lines aligned, continuations too."""
    shown = [a for a in arguments if a.help]
    width = max(len(spelled(a)) for a in shown) + 2
    lines = []
    for argument in shown:
        first, *rest = argument.help.split("\n")
        lines.append(f"  {spelled(argument).ljust(width)}{first}")
        lines += [" " * (width + 2) + more for more in rest]
    return lines


def grammar(command: Command[Any], *, compact: bool = False) -> list[str]:
    """The words a call must or may hold besides its options: `--term T [--term T ...]`
    (compact: `--term T ...`), `QUERY`, `[PATH]`, `[PATH ...]`."""
    words = []
    for option in command.options:
        if option.required:  # survey's --term
            one = f"{option.spelling} {option.metavar}"
            if option.many:
                one = f"{one} ..." if compact else f"{one} [{one} ...]"
            words.append(one)
    for argument in command.positionals:
        if argument.many:
            words.append(f"[{argument.spelling} ...]")
        else:
            words.append(argument.spelling if argument.required else f"[{argument.spelling}]")
    return words


def _usage(command: Command[Any]) -> str:
    return "usage: " + " ".join(["asrch", command.name, "[OPTION ...]", *grammar(command)])


SHARED = frozenset((*(a.name for a in COMMON), "word", "identifier", "regex"))
"""Every search command takes these (the table's `COMMON` and the modes): `asrch --help`
lists them once."""


def command_help(command: Command[Any]) -> str:
    own = tuple(a for a in command.options if a.name not in SHARED and not a.required)
    lines = [_usage(command), "", command.about, ""]
    lines += ["options:", *_option_lines(own)] if own else []
    lines.append("  and every search option (asrch --help)")
    if command.name == "survey":
        lines.append("  (no --regex: compare alternatives as terms)")
    lines += ["", "examples:", *(f"  {e}" for e in command.examples)]
    return "\n".join(lines) + "\n"


def _not_searched() -> list[str]:
    """What a directory search skips (D13, D45): the list a zero answer points to (D43)."""
    names = " ".join((*EXCLUDED_DIRS, *EXCLUDED_FILES))
    said = (
        f"Not searched under a directory: ignored, hidden and binary files, and {names}; "
        "name one as the path to search it. No match: the note says where the term is "
        "(other path, case or mode)."
    )
    return textwrap.wrap(said, 76)


def _app_help() -> str:
    shared = tuple(a for a in SCOUT.options if a.name in SHARED)
    # Each command with its grammar: an agent that reads this help alone can call it.
    calls = [(" ".join([c.name, *grammar(c, compact=True)]), c.summary) for c in COMMANDS.values()]
    calls.append(("mcp", "the 4 as MCP tools"))
    calls.append(("index [PATH]", "faster searches"))
    width = max(len(call) for call, _ in calls) + 2
    commands = [f"  {call.ljust(width)}{summary}" for call, summary in calls]
    lines = [
        "usage: asrch COMMAND [OPTION ...]",
        "",
        "Narrowing search for coding agents, on ripgrep; counts are matching lines.",
        "survey -> scout -> sample -> show --line; a refused or capped answer ends",
        "with the narrowing as `next: asrch ...`. Lines: N:match, N-context,",
        "N=enclosing definition.",
        *_not_searched(),
        "",
        "commands:",
        *commands,
        "",
        "every search command takes (filters only narrow; one mode, default fixed):",
        *_option_lines(shared),
        "",
        "  -h, --help (or asrch COMMAND --help), --version, --type-list (rg's types)",
        "",
        "exit status: 0 an answer (0 matches too), 2 input error, 3 show refused,",
        "  4 ripgrep failed, 70 internal error, 74 output error, 130 interrupted",
    ]
    return "\n".join(lines) + "\n"


APP_HELP = _app_help()

MCP_HELP = """\
usage: asrch mcp [--root DIR ...] [--structured]

Serve survey, scout, sample and show as MCP tools over stdio, for coding agents
(Claude Code, Codex, Cursor, VS Code). Each tool answers with the text these
commands print. Only paths inside the roots are searched; relative paths start
at the first root. Needs the mcp extra (pipx install '.[mcp]' in a clone). Ends
when the client closes stdin, or on SIGTERM.

options:
  --root DIR    a directory the tools may search (repeatable; default: .)
  --structured  also the --format json object, and output schemas (programs)

examples:
  asrch mcp
  claude mcp add asrch -- asrch mcp
  asrch mcp --root ~/src/project --root ~/src/library
"""

COMMAND_HELP = {name: command_help(command) for name, command in COMMANDS.items()}
COMMAND_HELP["mcp"] = MCP_HELP
COMMAND_HELP["index"] = INDEX_HELP
