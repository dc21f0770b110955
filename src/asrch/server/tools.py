"""The four tools: their arguments, their descriptions, and the one place where tool
arguments become the use cases' arguments.

Each tool takes D29's snake_case arguments, checks every path against the roots before
anything else runs, and calls the command's use case with the command line's own
defaults and checks; its answer is the report, rendered as text and as the D27 object
by the caller (`asrch.server.app`).
"""

from collections.abc import Callable, Sequence
from typing import Annotated, Literal, NamedTuple

from pydantic import Field, StrictBool, StrictInt, StrictStr

from asrch.commands.sample import run_sample
from asrch.commands.scout import run_scout
from asrch.commands.show import run_show
from asrch.commands.survey import run_survey
from asrch.domain.limits import (
    MAX_PATHS,
    MAX_TERMS,
    SAMPLE_CLUSTERS_MAX,
    SHOW_CONTEXT_MAX,
    SHOW_MAX_MATCHES,
)
from asrch.domain.modes import Mode
from asrch.domain.ports import Searcher
from asrch.domain.query import SearchOptions
from asrch.render.sample import render_sample
from asrch.render.scout import render_scout
from asrch.render.show import render_show
from asrch.render.survey import render_survey
from asrch.server.roots import Roots, refuse_nul

DESCRIPTIONS = {
    "survey": (
        "Start here: compare up to 12 candidate terms across up to 8 paths in one call "
        "(matching lines, files and the dominant path per term; never match bodies). "
        "Take the most selective term that matches and its dominant path to scout; the "
        "answer's `next` says which."
    ),
    "scout": (
        "Count one term under one path: matching lines, files, the top 5 directories "
        "and top 5 files, paths relative to `path`. Narrow `path` to a top directory "
        "while the count is broad, then sample a top file."
    ),
    "sample": (
        "Group one term's matches in one file into clusters of nearby lines (at most 2 "
        "apart), a page at a time, each with its range, hit count and first and last "
        "match. Pick a cluster, then call show with `line` at one of its matches."
    ),
    "show": (
        f"Print the matches of one term in one file with context, up to "
        f"{SHOW_MAX_MATCHES}; with `line`, only the lines around that line (never "
        f"refused). More than {SHOW_MAX_MATCHES} matches is refused (`refused`: true, "
        "with a note): sample the file first, then show one line."
    ),
}

ModeName = Literal["fixed", "word", "identifier", "regex"]
FixedModeName = Literal["fixed", "word", "identifier"]
_FIXED_MODES = (
    "fixed: substring (the default); word: fixed string with word boundaries; "
    "identifier: fixed string not touching [A-Za-z0-9_]"
)
_MODES = (
    f"{_FIXED_MODES}; regex: ripgrep regex (an unescaped | is refused: compare "
    "alternatives with survey). Case-sensitive unless ignore_case."
)

QueryArg = Annotated[
    StrictStr, Field(description="The term to search for, as the mode reads it; not empty.")
]
PathArg = Annotated[
    StrictStr,
    Field(description="A file or directory, relative to the server's first root, or absolute."),
]
FileArg = Annotated[
    StrictStr,
    Field(description="One regular file, relative to the server's first root, or absolute."),
]
ModeArg = Annotated[ModeName, Field(description=_MODES)]
FixedModeArg = Annotated[
    FixedModeName,
    Field(
        description=f"{_FIXED_MODES}. Case-sensitive unless ignore_case. (No regex: compare "
        "alternatives as terms.)"
    ),
]
TermsArg = Annotated[
    list[StrictStr], Field(description=f"The candidate terms, 1 to {MAX_TERMS}, compared.")
]
PathsArg = Annotated[
    Sequence[StrictStr],
    Field(
        description=f"Up to {MAX_PATHS} candidate paths (files or directories), relative to "
        "the server's first root; none: the root itself."
    ),
]
ClustersArg = Annotated[
    StrictInt, Field(description=f"Clusters per page, 1-{SAMPLE_CLUSTERS_MAX}.")
]
PageArg = Annotated[
    StrictInt, Field(description="The page, 1 or more; past the last page: an empty page.")
]
LineArg = Annotated[
    StrictInt | None,
    Field(description="Show only the lines around this line (1 to the file's last line)."),
]
ContextArg = Annotated[
    StrictInt, Field(description=f"Lines of context around each match, 0-{SHOW_CONTEXT_MAX}.")
]
# D30, as the command line's -i / --ignore-case, --type and --glob (repeatable: lists).
IgnoreCaseArg = Annotated[
    StrictBool, Field(description="Letters match in either case, in every mode.")
]
TypeArg = Annotated[
    Sequence[StrictStr],
    Field(
        description="Only files of these ripgrep types (names of `rg --type-list`, e.g. py, "
        "rust, js); none: every type. An unknown name is an error listing close ones."
    ),
]
GlobArg = Annotated[
    Sequence[StrictStr],
    Field(
        description="Only files matching one of these globs (relative to the searched path, "
        "as .gitignore reads them), and none matching a `!GLOB` one. Filters only narrow: "
        "they never bring back an ignored or excluded file."
    ),
]


class Answered(NamedTuple):
    """A use case's report and its text answer."""

    report: object
    text: str


Work = Callable[[Searcher], Answered]
"""One tool call once it has a searcher: check the paths, run the use case, render."""


class Common(NamedTuple):
    """The arguments every tool takes, as the use cases want them: the one place a tool
    argument becomes a search option (the command line's `CommonOptions.options`)."""

    mode: str
    ignore_case: bool = False
    types: Sequence[str] = ()
    globs: Sequence[str] = ()

    def options(self) -> SearchOptions:
        for value in (*self.types, *self.globs):
            refuse_nul(value, "--type" if value in self.types else "--glob")
        return SearchOptions(
            mode=Mode(self.mode),
            ignore_case=self.ignore_case,
            types=tuple(self.types),
            globs=tuple(self.globs),
        )


def survey_work(roots: Roots, terms: Sequence[str], paths: Sequence[str], common: Common) -> Work:
    def work(searcher: Searcher) -> Answered:
        for term in terms:
            refuse_nul(term, "--term")
        confined = [roots.confine(path) for path in paths] or ["."]
        report = run_survey(searcher, terms, confined, common.options())
        return Answered(report, render_survey(report))

    return work


def scout_work(roots: Roots, query: str, path: str, common: Common) -> Work:
    def work(searcher: Searcher) -> Answered:
        refuse_nul(query, "query")
        report = run_scout(searcher, query, roots.confine(path), common.options())
        return Answered(report, render_scout(report))

    return work


def sample_work(
    roots: Roots, query: str, file: str, common: Common, *, clusters: int, page: int
) -> Work:
    def work(searcher: Searcher) -> Answered:
        refuse_nul(query, "query")
        confined = roots.confine(file, "file")
        options = common.options()
        report = run_sample(searcher, query, confined, options, clusters=clusters, page=page)
        return Answered(report, render_sample(report))

    return work


def show_work(
    roots: Roots, query: str, file: str, common: Common, *, line: int | None, context: int
) -> Work:
    def work(searcher: Searcher) -> Answered:
        refuse_nul(query, "query")
        confined = roots.confine(file, "file")
        options = common.options()
        report = run_show(searcher, query, confined, options, line=line, context=context)
        return Answered(report, render_show(report))

    return work
