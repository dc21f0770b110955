"""The arguments of the command table (D40): each argument and option declared once.

An argument is its name, how its value is read, its default and range, its help line,
the tool's words for it and, for one that narrows or shapes the search, its own
`update` of the `SearchOptions` (as ripgrep's `Flag::update`). The table
(`asrch.commands.table`) lists them per command; a use case reads its own argument's
range from here (`Argument.require`), below the table that imports the use cases.
An option every search command takes is one entry of `COMMON`.
"""

import re
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from asrch.domain.errors import InputError, OutOfRangeError
from asrch.domain.limits import FILTERS_MAX, SAMPLE_CLUSTERS_DEFAULT, SHOW_CONTEXT_DEFAULT
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions
from asrch.domain.text_safety import quote
from asrch.domain.words import arg

ValueType = Literal["flag", "text", "texts", "number", "choice"]
"""How an option reads the command line: a flag takes no value; text one string; texts
one string each time it is given (a list); number ASCII digits (D25); choice one word."""

Role = Literal["argument", "keyword", "option", "search"]
"""Where a value goes in the use case's call: `argument`s in table order after the
searcher, then the `SearchOptions` (each `search` argument's `update` applied), then
`keyword`s. `option`: read by the command line itself (`--format`)."""

Update = Callable[[SearchOptions, Any], SearchOptions]
"""How a `search` argument's value reaches the call's `SearchOptions`."""

Check = Literal["", "path", "file", "text"]
"""What a server checks before the call: `path`/`file` confined to the roots (named so
in the refusal), `text` free of NUL (a JSON string may hold one, argv cannot)."""


class Argument(NamedTuple):
    """One argument or option of a command, for both the command line and the tool."""

    name: str
    """The use case's and the tool's name for it (`query`, `clusters`, `ignore_case`)."""
    value_type: ValueType = "text"
    default: Any = None
    help: str = ""
    """The command line's help line (after its spelling)."""
    tool_help: str | None = ""
    """The tool's description of it; None: not a tool argument."""
    cli: str | None = ""
    """How the command line spells it: `--NAME` (an option, the default), `QUERY` (an
    upper-case word: positional), `PATH...` (any number of positionals); None: not on
    the command line."""
    metavar: str = ""
    """The value's name in help (`N`, `GLOB`)."""
    aliases: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    allowed: str = ""
    """The range in words when it depends on more than the number (`--line`)."""
    choices: tuple[str, ...] = ()
    role: Role = "keyword"
    check: Check = ""
    tool_name: str = ""
    """The tool's name for it when it differs (`terms` for `--term`)."""
    required: bool = False
    """A tool call must give it; on the command line, a positional that must be given
    (an option that must be, `--term`, is the use case's to ask for, in its words)."""
    most: int | None = None
    """At most this many values (a list): the tool's `maxItems` (D37)."""
    update: Update | None = None
    """A `search` argument: the search options with its given value in force."""
    unless: str = ""
    """Not `required`, but needed unless this other argument is given (show's QUERY
    without `line`, D46). On the command line the positionals then fill from the right:
    one argument is the last positional (FILE)."""

    @property
    def spelling(self) -> str:
        """`--clusters`, `QUERY`, `PATH`."""
        if self.cli:
            return self.cli.removesuffix("...")
        return "--" + self.name.replace("_", "-")

    @property
    def positional(self) -> bool:
        return bool(self.cli) and not str(self.cli).startswith("-")

    @property
    def many(self) -> bool:
        return self.value_type == "texts" or str(self.cli).endswith("...")

    @property
    def tool_key(self) -> str:
        return self.tool_name or self.name

    @property
    def shown(self) -> str:
        """How a refusal names it: `query`, `path`, `--term`."""
        return self.spelling.lower() if self.positional else self.spelling

    def allowed_range(self) -> str:
        """`1-5`, `1 or more`, or the words given."""
        if self.allowed:
            return self.allowed
        if self.low is None:
            return ""
        return f"{self.low}-{self.high}" if self.high is not None else f"{self.low} or more"

    def require(self, value: int) -> None:
        """A number inside this argument's range, or the error naming both: the one check
        behind every surface (the use case's, so a direct call is held too; a tool's
        call is checked with it before it runs)."""
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise OutOfRangeError(arg(self.name), value, self.allowed_range())


def _mode_flag(mode: Mode) -> Update:
    """A mode's flag on the command line: on, that mode (the command line lets one of
    the flags be given, `asrch.cli`)."""
    return lambda options, on: options._replace(mode=mode) if on else options


def _chosen_mode(options: SearchOptions, word: str) -> SearchOptions:
    """A tool's `mode` word."""
    return options._replace(mode=Mode(word))


# One function each, so the flags of every command compare equal (the help lists them once).
_WORD = _mode_flag(Mode.WORD)
_IDENTIFIER = _mode_flag(Mode.IDENTIFIER)
_REGEX = _mode_flag(Mode.REGEX)


def modes(*, regex: bool) -> tuple[Argument, ...]:
    """D5's modes: flags on the command line, one `mode` word for a tool."""
    # What each mode means is said once, in the server's instructions (D37: the
    # model-visible footprint); survey's says what it lacks.
    tool_help = (
        "regex refuses an unescaped |: survey compares terms."
        if regex
        else "No regex: compare alternatives as terms."
    )
    words = ("fixed", "word", "identifier", "regex") if regex else ("fixed", "word", "identifier")
    # Every command line takes the three flags: survey words its refusal of --regex.
    return (
        Argument(
            "word",
            "flag",
            False,
            "fixed string with word boundaries",
            None,
            role="search",
            update=_WORD,
        ),
        Argument(
            "identifier",
            "flag",
            False,
            "fixed string not touching [A-Za-z0-9_] on either side",
            None,
            role="search",
            update=_IDENTIFIER,
        ),
        Argument(
            "regex",
            "flag",
            False,
            "ripgrep regex; an unescaped | is refused (use survey)"
            if regex
            else "(no --regex: compare alternatives as separate terms)",
            None,
            role="search",
            update=_REGEX,
        ),
        Argument(
            "mode",
            "choice",
            "fixed",
            "",
            tool_help,
            None,
            choices=words,
            role="search",
            update=_chosen_mode,
        ),
    )


def _filter(name: str, help: str, metavar: str, update: Update) -> Argument:
    """A repeatable filter (D30): one string each time, free of NUL for a tool, at most
    `FILTERS_MAX` of them."""
    return Argument(
        name,
        "texts",
        (),
        help,
        "",
        metavar=metavar,
        role="search",
        check="text",
        update=update,
        most=FILTERS_MAX,
    )


COMMON: tuple[Argument, ...] = (
    Argument(
        "ignore_case",
        "flag",
        False,
        "either case, in any mode",
        "",
        aliases=("-i",),
        role="search",
        update=lambda options, on: options._replace(ignore_case=bool(on)),
    ),
    _filter(
        "type",
        "only files of rg's type NAME; repeatable",
        "NAME",
        lambda options, names: options._replace(type=tuple(names)),
    ),
    _filter(
        "glob",
        "only files matching GLOB, none matching !GLOB; repeatable;\n"
        "with a /, the path from here (src/**); without, a name (*.py)",
        "GLOB",
        lambda options, globs: options._replace(glob=tuple(globs)),
    ),
    Argument(
        "format",
        "choice",
        "text",
        "text (default) or json",
        None,
        metavar="F",
        choices=("text", "json"),
        role="option",
    ),
)
"""D30's narrowing and D27's format: every search command takes them."""

_SIZE = re.compile(r"(?a:[0-9]{1,15})[KMG]?")


def _max_filesize(options: SearchOptions, size: str) -> SearchOptions:
    """rg's size grammar (digits, then K, M or G: 1024, 1024², 1024³), checked here so
    that a bad one is the input's one line, not rg's complaint."""
    if not _SIZE.fullmatch(size):
        raise InputError(
            f"{arg('max_filesize')} takes a size in bytes, digits then K, M or G or "
            f"nothing (100K, 2M), got {quote(size)}"
        )
    return options._replace(max_filesize=size)


MAX_FILESIZE = Argument(
    "max_filesize",
    "text",
    None,
    "skip files over N bytes",
    "",
    metavar="N",
    role="search",
    update=_max_filesize,
)
"""rg's `--max-filesize` (survey and scout, which walk directories; like rg, a file
named as the path is searched whatever its size)."""


def positional(
    name: str, cli: str, check: Check, help: str, tool_help: str = "", **more: Any
) -> Argument:
    """An argument the command line takes by position (`QUERY`, `PATH...`)."""
    return Argument(
        name, help=help, tool_help=tool_help, cli=cli, role="argument", check=check, **more
    )


def _number(
    name: str,
    default: int | None,
    help: str,
    tool_help: str,
    *,
    low: int,
    high: int | None = None,
    **more: Any,
) -> Argument:
    """A whole-number option (`--clusters N`): ASCII digits from `low` to `high` (D25).
    Its range is declared here only: `{range}` and `{default}` in `help` are filled from
    it, the tool's schema (`asrch.server.arguments`), the command line's errors
    (`asrch.cli.errors`) and the use case's check (`Argument.require`) read it."""
    argument = Argument(name, "number", default, "", tool_help, metavar="N", low=low, high=high)
    argument = argument._replace(**more)
    return argument._replace(help=help.format(range=argument.allowed_range(), default=default))


CLUSTERS = _number(
    "clusters",
    SAMPLE_CLUSTERS_DEFAULT,
    "clusters per page, {range} (default {default})",
    "Clusters per page.",
    low=1,
    high=5,
)
PAGE = _number(
    "page",
    1,
    "page, {range} (default {default})",
    "",  # the answer says a page past the last (4 KB, D47)
    low=1,
)
LINE = _number(
    "line",
    None,
    "the window around line N",
    "",  # the tool's description says it
    low=1,
    allowed="1 to the file's last line",
)
CONTEXT = _number(
    "context",
    SHOW_CONTEXT_DEFAULT,
    "lines before and after, {range} (default {default})",
    "",  # the tool's name and range say it (MCP's 4 KB, D47)
    low=0,
    high=5,
)


QUERY = positional("query", "QUERY", "text", "the term, as the mode reads it", required=True)
FILE = positional("file", "FILE", "file", "one regular file", required=True)
DEF = Argument(
    "definitions",
    "flag",
    False,
    "only lines naming a definition",
    "",  # the server's instructions say it once for both tools
    cli="--def",
    tool_name="def",
)
"""D52: scout's and show's matches kept to the lines where a definition's name stands.
`definitions`, not `def`: the use cases' keyword (a Python keyword cannot be one)."""
FOLDED = Argument(
    "folded",
    "flag",
    False,
    "print all matches",
    "",  # the answer's fold line says it
)
"""D53: show prints the matches it folds (a leading header comment, in-file tests)."""
