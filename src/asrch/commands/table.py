"""The command table (D40): each command declared once.

A command is its name, its arguments (with their ranges, defaults, help and the
tool's words for them), its use case, its text renderer, its JSON builder and its MCP
tool description. Everything else is derived from this table: the cyclopts app and the
help texts (`asrch.cli`), the MCP tools and their input schemas (`asrch.server`).
An option every search command takes is one entry of `COMMON`.

Cheap to import on every start-up: NamedTuples of strings, numbers and functions. A
command's use case and renderer are small typed functions here that import the module
doing the work when a call needs it (every use case and renderer imported at start-up
cost ≈9 ms of a scout's ≈30 ms budget, docs/performance.md). Each argument that narrows
or shapes the search carries its own `update` of the `SearchOptions` (as ripgrep's
`Flag::update`), so `search_options` knows no argument by name.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, NamedTuple, TypeVar

from asrch.domain.errors import OutOfRangeError
from asrch.domain.limits import (
    MAX_PATHS,
    MAX_TERMS,
    SAMPLE_CLUSTERS_DEFAULT,
    SHOW_CONTEXT_DEFAULT,
    SHOW_MAX_MATCHES,
)
from asrch.domain.modes import Mode
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.query import SearchOptions
from asrch.domain.words import Spelling, arg

if TYPE_CHECKING:
    from asrch.domain.sample import SampleReport
    from asrch.domain.scout import ScoutReport
    from asrch.domain.show import ShowReport
    from asrch.domain.survey import SurveyReport

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


def _modes(*, regex: bool) -> tuple[Argument, ...]:
    """D5's modes: flags on the command line, one `mode` word for a tool."""
    # What each mode means is said once, in the server's instructions (D37: the
    # model-visible footprint); survey's says what it lacks.
    tool_help = "" if regex else "No regex: compare alternatives as terms."
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
    """A repeatable filter (D30): one string each time, free of NUL for a tool."""
    return Argument(
        name, "texts", (), help, "", metavar=metavar, role="search", check="text", update=update
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
        "only files of rg's type NAME (asrch --type-list); repeatable",
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


def _positional(
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
    "page, {range} (default {default}); past the end: empty page",
    "Past the last page: an empty page.",
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
    "Lines around each match.",
    low=0,
    high=5,
)


QUERY = _positional("query", "QUERY", "text", "the term, as the mode reads it", required=True)
FILE = _positional("file", "FILE", "file", "one regular file", required=True)


Report = TypeVar("Report")


class Command(NamedTuple, Generic[Report]):
    name: str
    summary: str
    """Its line in `asrch --help`."""
    about: str
    """What it does, for `asrch COMMAND --help`."""
    arguments: tuple[Argument, ...]
    """Its own arguments and options, then `COMMON`'s and the modes."""
    examples: tuple[str, ...]
    tool: str
    """The MCP tool's description: what it answers and the step after it."""
    use_case: Callable[..., Report]
    """Called as `run` says: the searcher, the `argument`s, the `SearchOptions`, the
    `keyword`s by name, and `scopes`."""
    render: Callable[[Report, Spelling], str]
    """Its report as the text answer, spelled for a surface (D49)."""
    refused_status: bool = False
    """Its report may be a refusal (`refused`), exit status 3 (D19)."""

    @property
    def positionals(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if a.positional)

    @property
    def options(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if a.cli is not None and not a.positional)

    @property
    def tool_arguments(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if a.tool_help is not None)


def allows_regex(command: "Command[Any]") -> bool:
    mode = next(a for a in command.arguments if a.name == "mode")
    return "regex" in mode.choices


def given(argument: Argument, values: Mapping[str, Any]) -> Any:
    """The argument's value in a call: the value given, else its default (an empty list
    of many takes its default too: survey's paths are `.`)."""
    value = values.get(argument.name)
    if value is None or (argument.many and not value):
        return argument.default
    return value


def search_options(command: "Command[Any]", values: Mapping[str, Any]) -> SearchOptions:
    """The call's `SearchOptions`: each `search` argument's given value in force, in
    table order."""
    options = SearchOptions()
    for argument in command.arguments:
        if argument.update is not None and values.get(argument.name) is not None:
            options = argument.update(options, given(argument, values))
    return options


def run(
    command: Command[Report], searcher: Searcher, values: Mapping[str, Any], *, scopes: Scopes
) -> Report:
    """The command's use case called with `values` (by argument name; a missing one takes
    its default), the `searcher` and the `scopes` (D31) of its composition root."""
    arguments = [given(a, values) for a in command.arguments if a.role == "argument"]
    keywords = {a.name: given(a, values) for a in command.arguments if a.role == "keyword"}
    options = search_options(command, values)
    return command.use_case(searcher, *arguments, options, scopes=scopes, **keywords)


# Each use case and renderer is imported by the call that needs it (start-up: the module
# docstring).


def _survey(
    searcher: Searcher,
    terms: Sequence[str],
    paths: Sequence[str],
    options: SearchOptions,
    *,
    scopes: Scopes,
) -> "SurveyReport":
    from asrch.commands.survey import run_survey

    # Counts only: survey prints no line, so it reads no scope (D31).
    del scopes

    return run_survey(searcher, terms, paths, options)


def _render_survey(report: "SurveyReport", spelling: Spelling) -> str:
    from asrch.render.survey import render_survey

    return render_survey(report, spelling)


def _scout(
    searcher: Searcher, term: str, path: str, options: SearchOptions, *, scopes: Scopes
) -> "ScoutReport":
    from asrch.commands.scout import run_scout

    return run_scout(searcher, term, path, options, scopes=scopes)


def _render_scout(report: "ScoutReport", spelling: Spelling) -> str:
    from asrch.render.scout import render_scout

    return render_scout(report, spelling)


def _sample(
    searcher: Searcher,
    term: str,
    file: str,
    options: SearchOptions,
    *,
    clusters: int,
    page: int,
    scopes: Scopes,
) -> "SampleReport":
    from asrch.commands.sample import run_sample

    return run_sample(searcher, term, file, options, clusters=clusters, page=page, scopes=scopes)


def _render_sample(report: "SampleReport", spelling: Spelling) -> str:
    from asrch.render.sample import render_sample

    return render_sample(report, spelling)


def _show(searcher: Searcher, *arguments: Any, **keywords: Any) -> "ShowReport":
    from asrch.commands.show import run_show

    return run_show(searcher, *arguments, **keywords)


def _render_show(report: "ShowReport", spelling: Spelling) -> str:
    from asrch.render.show import render_show

    return render_show(report, spelling)


SURVEY: "Command[SurveyReport]" = Command(
    "survey",
    "up to 12 terms x 8 paths: counts only",
    "Compare terms across paths (default .): per term its matching lines, files and\n"
    "dominant path; per path the terms found there and their top file. Each term x\n"
    "path pair stops at 50000 lines (`>=N`).",
    (
        Argument(
            "term",
            "texts",
            (),
            "a term to compare; repeatable",
            "Terms to compare.",
            metavar="T",
            role="argument",
            check="text",
            tool_name="terms",
            required=True,
            most=MAX_TERMS,
        ),
        _positional(
            "paths",
            "PATH...",
            "path",
            "files or directories (default .)",
            "Files or directories; none: the first root.",
            value_type="texts",
            default=(".",),
            most=MAX_PATHS,
        ),
        *COMMON,
        *_modes(regex=False),
    ),
    (
        "asrch survey --term connect --term retry src docs",
        "asrch survey --identifier --term id --term idx src",
        "asrch survey --term=-e .      (a term starting with -)",
        "asrch survey -i --term rollover --term should_rollover .",
    ),
    "Start here: compare candidate terms across paths in one call (matching lines, files "
    "and the dominant path per term; no match bodies). Then scout the most selective "
    "(term, path) pair, as next says.",
    _survey,
    _render_survey,
)

SCOUT: "Command[ScoutReport]" = Command(
    "scout",
    "one term: counts, top 5 dirs and files",
    "Count the lines matching QUERY under PATH (default .): the top 5 directories\n"
    "and files; up to 20 lines: the lines instead. Stops at 50000 (`at least`).",
    (
        QUERY,
        _positional(
            "path",
            "PATH",
            "path",
            "a file or directory (default .)",
            "A file or directory.",
            default=".",
        ),
        *COMMON,
        *_modes(regex=True),
    ),
    (
        "asrch scout connect src",
        "asrch scout --identifier id .",
        "asrch scout -- --files      (a term starting with -)",
        "asrch scout -i rollover src",
    ),
    "Count one term under one path: matching lines, files, the top 5 directories and "
    "files. Narrow path while the count is broad, then sample a top file.",
    _scout,
    _render_scout,
)

SAMPLE: "Command[SampleReport]" = Command(
    "sample",
    "clusters of matches in one file, paged",
    "Cluster FILE's first 5000 matches (at most 2 lines apart share one), a page\n"
    "at a time: each cluster's range, hits, first and last match, a line around.",
    (
        QUERY,
        FILE,
        CLUSTERS,
        PAGE,
        *COMMON,
        *_modes(regex=True),
    ),
    (
        "asrch sample connect src/net/client.py",
        "asrch sample --identifier retry src/util/retry.py --page 2",
        "asrch sample hit samples/clusters.txt --clusters 5",
        "asrch sample -i retry src/util/retry.py",
    ),
    "One term's matches in one file, grouped into clusters of nearby lines (range, hits, "
    "first and last match), a page at a time. Then show a cluster's line.",
    _sample,
    _render_sample,
)

SHOW: "Command[ShowReport]" = Command(
    "show",
    f"up to {SHOW_MAX_MATCHES} matches, or --line N; --context {CONTEXT.allowed_range()}",
    f"Print FILE's matches with context; over {SHOW_MAX_MATCHES}: refused (exit 3).\n"
    "With --line N: the lines around N, never refused.",
    (
        QUERY._replace(required=False, unless="line"),
        FILE,
        LINE,
        Argument(
            "scope",
            "flag",
            False,
            "line N's definition",
            "The definition around line.",
        ),
        CONTEXT,
        *COMMON,
        *_modes(regex=True),
    ),
    (
        "asrch show connect src/net/client.py",
        "asrch show --word retry src/util/retry.py --context 0",
        "asrch show src/net/pool.py --line 6 --scope",
        "asrch show -i RETRY src/util/retry.py",
        "asrch show --type py connect src/net/pool.py",
        "asrch show --glob '!tests/**' connect src/net/pool.py",
    ),
    f"One term's matching lines in one file with context, up to {SHOW_MAX_MATCHES}; with "
    "line, only the lines around it. More is refused: sample the file first.",
    _show,
    _render_show,
    refused_status=True,
)

COMMANDS: dict[str, Command[Any]] = {c.name: c for c in (SURVEY, SCOUT, SAMPLE, SHOW)}
"""The four search commands, in the protocol's order (survey → scout → sample → show)."""
