"""The command table (D40): each command declared once.

A command is its name, its arguments (with their ranges, defaults, help and the
tool's words for them), its use case, its text renderer, its JSON builder and its MCP
tool description. Everything else is derived from this table: the cyclopts app and the
help texts (`asrch.cli`), the MCP tools and their input schemas (`asrch.server`).
The arguments themselves are declared in `asrch.commands.arguments`, below both the
table and the use cases that read their ranges.

Cheap to import on every start-up: NamedTuples of strings, numbers and functions. A
command's use case and renderer are small typed functions here that import the module
doing the work when a call needs it (every use case and renderer imported at start-up
cost ≈9 ms of a scout's ≈30 ms budget, docs/performance.md). `search_options` folds
each argument's own `update` of the `SearchOptions` and knows no argument by name.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from asrch.commands.arguments import (
    CLUSTERS,
    COMMON,
    CONTEXT,
    DEF,
    FILE,
    FOLDED,
    LINE,
    MAX_FILESIZE,
    PAGE,
    QUERY,
    Argument,
    modes,
    positional,
)
from asrch.domain.limits import MAX_PATHS, MAX_TERMS, SHOW_MAX_MATCHES
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.query import SearchOptions
from asrch.domain.words import Spelling

if TYPE_CHECKING:
    from asrch.domain.sample import SampleReport
    from asrch.domain.scout import ScoutReport
    from asrch.domain.show import ShowReport
    from asrch.domain.survey import SurveyReport

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
    searcher: Searcher,
    term: str,
    path: str,
    options: SearchOptions,
    *,
    definitions: bool,
    scopes: Scopes,
) -> "ScoutReport":
    from asrch.commands.scout import run_scout

    return run_scout(searcher, term, path, options, definitions=definitions, scopes=scopes)


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
    "dominant path; per path its terms' top file, or up to 3 lines as FILE:LINE.\n"
    "Each term x path pair stops at 50000 lines (`>=N`).",
    (
        Argument(
            "term",
            "texts",
            (),
            "a term to compare; repeatable",
            "",  # the name says it (4 KB, D47)
            metavar="T",
            role="argument",
            check="text",
            tool_name="terms",
            required=True,
            most=MAX_TERMS,
        ),
        positional(
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
        MAX_FILESIZE,
        *modes(regex=False),
    ),
    (
        "asrch survey --term connect --term retry src docs",
        "asrch survey --term=-e .      (a term starting with -)",
        "asrch survey -i --term rollover --term should_rollover .",
    ),
    "Start here: compare terms across paths in one call: matching lines, files, "
    "dominant path; per path the top file, or a rare term's FILE:LINEs. Then scout a pair.",
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
        positional(
            "path",
            "PATH",
            "path",
            "a file or directory (default .)",
            "",  # the name and the default say it (4 KB, D47)
            default=".",
        ),
        DEF,
        *COMMON,
        MAX_FILESIZE,
        *modes(regex=True),
    ),
    (
        "asrch scout connect src",
        "asrch scout --identifier id .",
        "asrch scout -- --files      (a term starting with -)",
        "asrch scout --def Pool src",
    ),
    "One term under one path: matching lines, files, top 5 directories and files; up "
    "to 20 lines: the lines. Then sample a file.",
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
        *modes(regex=True),
    ),
    (
        "asrch sample connect src/net/client.py",
        "asrch sample --identifier retry src/util/retry.py --page 2",
        "asrch sample hit samples/clusters.txt --clusters 5",
    ),
    "One term's matches in one file, clustered (range, hits, first and last match), a "
    "page at a time. Then show a line.",
    _sample,
    _render_sample,
)

SHOW: "Command[ShowReport]" = Command(
    "show",
    f"up to {SHOW_MAX_MATCHES} matches, or --line N",
    f"Print FILE's matches with context; over {SHOW_MAX_MATCHES}: refused.\n"
    "--line N: the lines around N, never refused.",
    (
        QUERY._replace(required=False, unless="line"),
        FILE,
        LINE,
        Argument(
            "scope",
            "flag",
            False,
            "block at N or matches",
            "Block at line or each match.",
        ),
        CONTEXT,
        DEF,
        FOLDED,
        *COMMON,
        *modes(regex=True),
    ),
    (
        "asrch show connect src/net/client.py",
        "asrch show --word retry src/util/retry.py --context 0",
        "asrch show src/net/pool.py --line 6 --scope",
    ),
    f"One term's matching lines in one file with context, up to {SHOW_MAX_MATCHES}; with "
    "line, the lines around it. More is refused: sample first.",
    _show,
    _render_show,
    refused_status=True,
)

COMMANDS: dict[str, Command[Any]] = {c.name: c for c in (SURVEY, SCOUT, SAMPLE, SHOW)}
"""The four search commands, in the protocol's order (survey → scout → sample → show)."""
