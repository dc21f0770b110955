"""The answer of each command as JSON (D27), declared once, on its report: each key in
the order printed, its type and description as the schema writes them, and the report
field it publishes (`objects.py`). `build.answer` writes a report with these, the schemas
(`schema.py`) are generated from them, and the MCP server checks its answers by them.

Field names are those the text answer prints; every count the text may write as
`at least N` / `>=N` comes with a `capped` boolean. Most keys are the report's own
fields (read by name); a key read otherwise says from what. Strings a report holds as
the file system or the command line gave them are written `json_text` / `json_path`
(domain/text_safety.py); lines and notices as the text renderer words them.

An answer is the head, its term(s), the search options, its command's own fields and
the tail.
"""

from operator import itemgetter
from typing import Annotated, Any, Literal

from asrch.contract.objects import Field, Many, Maybe, Obj, Scalar, spread
from asrch.contract.values import (
    Case,
    Count,
    Default,
    Globs,
    LineNumber,
    NextStep,
    OneOf,
    Text,
    Types,
)
from asrch.domain.counting import Ranked
from asrch.domain.definitions import DefinitionCount, Unjudged
from asrch.domain.lines import Scope, SourceLine
from asrch.domain.modes import Mode
from asrch.domain.notices import kinds as notice_kinds
from asrch.domain.regions import FoldedRegion
from asrch.domain.sample import ClusterView, SampleReport, Snippet
from asrch.domain.scout import KindCount, ListedFile, ScoutReport
from asrch.domain.show import ShowReport
from asrch.domain.survey import PathRow, PathSection, Place, SurveyReport, TermTotal
from asrch.domain.text_safety import json_path, json_text
from asrch.domain.units import Fold, Unit
from asrch.render.narrowing import case_word
from asrch.render.notices import notes
from asrch.render.show import window
from asrch.render.snippets import line_text, scope_text
from asrch.spelling import COMMAND_LINE, TOOL

SCHEMA_VERSION = "1"
"""D27's version: moves only when a field changes meaning."""

TEXT = Scalar(Text, json_text)
"""A term or a name as given, made printable."""
PATH = Scalar(Text, json_path)
"""A path, made printable, one spelling per name."""


def _texts(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(map(json_text, values))


TEXTS = Scalar(tuple[Text, ...], _texts)

# --- the objects inside the answers ---------------------------------------------------

NOTICE = Obj(
    "Notice",
    "A warning or hint (D6); never changes the exit status.",
    Field(
        "kind",
        Annotated[str, OneOf(notice_kinds())],  # every notice the domain can raise, in order
        "What the notice is about; new kinds may be added within a schema version.",
        read=lambda note: note[0],
    ),
    Field(
        "message",
        str,
        "The same words as the text answer's `note:` line, without `note: `.",
        read=lambda note: note[1],
    ),
)
"""From the surface's (kind, words) of a domain notice (`render.notices.notes`)."""

NEXT_CALL = Obj(
    "NextCall",
    "D37: the `next` step as the MCP tool call that makes it.",
    # A step's command is the table's name, a `str` (domain/words.py): checked here.
    Field(
        "tool",
        Annotated[str, OneOf(("survey", "scout", "sample", "show"))],
        "The tool to call.",
        read=lambda call: call[0],
    ),
    Field(
        "arguments",
        dict[str, str | int | bool | list[str]],
        "Its arguments by the tool's names (`query`, `file`, `line`, `mode`, "
        "`ignore_case`, `type`, `glob`, ...), as an MCP client passes them.",
        read=lambda call: call[1],
    ),
)
"""From `spelling.TOOL.call`: the tool's name and its arguments."""

PATH_MATCHES = Obj(
    "PathMatches",
    "One row of a top-5 table.",
    Field("path", PATH, "Relative to the searched path; a searched file is written as typed."),
    Field("matches", Count),
    source=Ranked,
)

KIND_MATCHES = Obj(
    "KindMatches",
    "One row of `kinds[kind,matches,files]` (D35).",
    Field(
        "kind",
        Literal["source", "test", "docs", "generated"],
        "By path convention only: a lockfile's name (generated), else a test folder "
        "or name, else a doc folder or extension, else source.",
    ),
    Field("matches", Count),
    Field("files", Count),
    source=KindCount,
)

SCOPE_LINE = Obj(
    "ScopeLine",
    "A definition enclosing a printed line (D31), as the text's `N=text` line.",
    Field("line", LineNumber, "The line that names the definition."),
    Field(
        "text",
        Scalar(str, scope_text),
        "That line as the text answer prints it after `N=` (see `text` of a line).",
        read=lambda scope: scope,
    ),
    source=Scope,
)

SNIPPET_LINE = Obj(
    "SnippetLine",
    None,
    Field("line", LineNumber, read=lambda line: line.number),
    Field(
        "text",
        Scalar(str, line_text),
        "The line as the text answer prints it after `N:` / `N-`: line ending "
        "removed, control characters made visible, cut to the 800-byte line with "
        "`…[+N bytes]`.",
        read=lambda line: line,
    ),
    Field(
        "match",
        bool,
        "The line matches (`N:` in the text), or is context (`N-`).",
        read=lambda line: line.is_match,
    ),
    Field(
        "scope",
        Many(SCOPE_LINE),
        "The definitions enclosing a printed match (with `--line`, that line), "
        "outermost first, at most 3 (D31), each one even where the text does not repeat "
        "a header printed above it. Empty for other lines, at the top level, and where "
        "no parse tells it for sure.",
    ),
    Field(
        "scope_known",
        bool | None,
        "true: the parse placed the line and `scope` is all of it (empty: the top "
        "level); false: it could not (the text's `N=(unknown)`, D48); null: not asked "
        "(a context line, a file with no grammar).",
    ),
    source=SourceLine,
)
"""Its text as `render.snippets` prints it."""

NOT_PARSED = Obj(
    "NotParsed",
    "D52: matching lines `--def` could not judge, for one reason.",
    Field(
        "reason",
        Literal["no_grammar", "too_large", "failed", "unreadable", "uncertain", "file_limit"],
        "No grammar for the file's extension; over 1 MB; the parse passed its work or "
        "time bound; unreadable, or changed since rg read it; parse errors around the "
        "line; past the first 500 files that matched (in path order), not read.",
    ),
    Field("files", Count),
    Field("lines", Count),
    source=Unjudged,
)

DEFINITIONS = Field(
    "definitions",
    Maybe(
        Obj(
            "Definitions",
            "D52: what `--def` looked at.",
            Field(
                "matches",
                Count,
                "Every matching line looked at (before keeping the definition lines).",
            ),
            Field(
                "not_parsed",
                Many(NOT_PARSED),
                "Lines not judged, per reason (in `matches` here, not in the answer's "
                "count): the note.",
                read=lambda count: count.unjudged,
            ),
            source=DefinitionCount,
        )
    ),
    "`--def` (D52): the answer's counts are of lines where a definition's name stands; "
    "null without it.",
)

LISTED_FILE = Obj(
    "ListedFile",
    "One file of a listed scout (D32).",
    Field(
        "path",
        PATH,
        "Joined with the searched path, as the `next:` step joins it (the text "
        "prints it on its own line).",
    ),
    Field("lines", Many(SNIPPET_LINE), "The file's matching lines, in order."),
    source=ListedFile,
)

SNIPPET = Obj(
    "Snippet",
    "Consecutive lines; the text answer separates snippets with `--`.",
    Field("lines", Many(SNIPPET_LINE)),
    source=Snippet,
)

TERM_TOTAL = Obj(
    "TermTotal",
    "One `overall` row: a term summed over every candidate path.",
    Field("term", TEXT),
    Field("matches", Count),
    Field("files", Count),
    Field("capped", bool, "Some path's search stopped at the cap: the text says `>=`."),
    Field(
        "dominant_path",
        Maybe(PATH),
        "The candidate path (as typed) with most matching lines; null for no match.",
    ),
    source=TermTotal,
)

PLACE = Obj(
    "Place",
    "A rare term's matching line (D56).",
    Field("path", PATH, "The file, relative to the candidate path, as top_file."),
    Field("line", LineNumber),
    source=Place,
)

PATH_TERM = Obj(
    "PathTerm",
    "One row of a `by_path` section: a term that matched in that path.",
    Field("term", TEXT),
    Field("matches", Count),
    Field("files", Count),
    Field("capped", bool),
    Field("top_file", PATH, "The file with most matching lines, relative to the candidate path."),
    Field(
        "places",
        Many(PLACE),
        "D56: each matching line when the count is exact and at most 3, in path "
        "order then line order (the text writes them as `FILE:LINE` in place of "
        "top_file); empty otherwise.",
    ),
    source=PathRow,
)

PATH_SECTION = Obj(
    "PathSection",
    None,
    Field("path", PATH, "A candidate path as typed; a path given twice has two sections."),
    Field(
        "terms",
        Many(PATH_TERM),
        "Terms in command-line order; terms with no match here are left out.",
        read=lambda section: section.rows,
    ),
    source=PathSection,
)

SAMPLE_CLUSTER = Obj(
    "SampleCluster",
    "One cluster of the page: matches at most 2 lines apart.",
    Field(
        "index",
        LineNumber,
        "Position of the cluster in the file, from 1 (`cluster I/C`).",
        read=lambda view: view.number,
    ),
    Field("start", LineNumber, "First matching line.", read=lambda view: view.cluster.first),
    Field("end", LineNumber, "Last matching line.", read=lambda view: view.cluster.last),
    Field("hits", Count, read=lambda view: view.cluster.hits),
    Field(
        "snippets",
        Many(SNIPPET),
        "The first and the last match, each with 1 line before and after.",
    ),
    source=ClusterView,
)

WINDOW = Obj(
    "Window",
    None,
    Field("start", LineNumber, read=itemgetter(0)),
    Field("end", LineNumber, read=itemgetter(1)),
)
"""From a (start, end) range: `render.show.window`, or `domain.lines.Definition`."""

UNIT = Obj(
    "UnitShape",
    "A syntactic unit `show --scope` printed (D51).",
    Field(
        "kind",
        Literal["definition", "if", "branch", "loop", "match", "try", "block", "statement"],
        "What it is: a branch is one arm of an if, match or try.",
    ),
    Field("start", LineNumber),
    Field("end", LineNumber),
    closed=False,
    source=Unit,
)

FOLD = Obj(
    "FoldShape",
    "A docstring or comment block left out of a unit, printed as one line (D51).",
    Field("kind", Literal["docstring", "comment"]),
    Field("start", LineNumber),
    Field("end", LineNumber),
    closed=False,
    source=Fold,
)

FOLDED = Obj(
    "FoldedShape",
    "A header comment or test region whose matches show counted but did not print (D53).",
    Field("kind", Literal["header", "tests"], read=lambda fold: fold.region.kind),
    Field(
        "what",
        TEXT,
        "The region as the file names it (`mod tests`).",
        read=lambda fold: fold.region.what,
    ),
    Field("start", LineNumber, read=lambda fold: fold.region.start),
    Field("end", LineNumber, read=lambda fold: fold.region.end),
    Field("matches", Count, "Its matching lines left out (`folded` prints them)."),
    source=FoldedRegion,
)

# --- what every answer holds --------------------------------------------------------


def head(command: str) -> tuple[Field, ...]:
    """What every answer opens with."""
    constant = Annotated[Literal[command], Default(command)]  # type: ignore[valid-type]
    return (
        Field(
            "schema_version",
            Annotated[Literal["1"], Default(SCHEMA_VERSION)],
            read=lambda _: SCHEMA_VERSION,
        ),
        Field("command", constant, read=lambda _: command),
    )


OPTIONS = (
    Field("mode", Mode),
    Field("case", Scalar(Case, case_word), read=lambda searched: searched.ignore_case),
    Field("types", Scalar(Types, _texts), read=lambda searched: searched.filters.types),
    Field("globs", Scalar(Globs, _texts), read=lambda searched: searched.filters.globs),
)
"""How the terms matched and which files were searched: the call's search options, from
a `Query` (or a survey's report, which holds them alike)."""


def _next(step: Any) -> tuple[str, ...] | None:
    """The step as the command line's argument strings; none where its `next:` line
    would be too long."""
    return (COMMAND_LINE.argv(step) if COMMAND_LINE.step(step) else ()) or None


def _call(step: Any) -> tuple[str, dict[str, Any]] | None:
    return TOOL.call(step) if TOOL.step(step) else None


TAIL = (
    Field(
        "notices",
        Many(NOTICE),
        read=lambda report: notes(report.notices, COMMAND_LINE),
    ),
    Field("next", NextStep, read=lambda report: _next(report.next_step)),
    Field(
        "next_call",
        Maybe(NEXT_CALL),
        "D37: `next` as a tool call, `{tool, arguments}`; null where `next` is null. "
        "An MCP answer's text ends with it as `next: TOOL(NAME=VALUE, ...)`.",
        read=lambda report: _call(report.next_step),
    ),
    Field(
        "index",
        Literal["used", "scanned", "ignored"],
        "D58: only where an index covers a searched directory (`asrch index`): "
        "`used` (rg read its candidates alone), `scanned` (every file), `ignored` "
        "(the index could not be used; stderr says why). The answer is the same.",
        required=False,
    ),
)
"""What every answer ends with: its notices in the command line's words, and the next
step as its argument strings and as an MCP call (D37). `index` is the call's, not the
report's: `render.render_json` adds it where it applies."""


def query_head(command: str) -> tuple[Field, ...]:
    """What scout and sample open with: the head, the one term, the search options."""
    return (
        *head(command),
        Field("query", TEXT, read=lambda report: report.query.term),
        *spread(lambda report: report.query, *OPTIONS),
    )


# --- the answers --------------------------------------------------------------------

SCOUT = Obj(
    "ScoutAnswer",
    "`asrch scout --format json`: one term's distribution under one path.",
    *query_head("scout"),
    Field("path", PATH, "The searched path, as typed."),
    Field("matches", Count, "Matching lines (a lower bound when `capped`)."),
    Field("files", Count, "Files with a matching line (a lower bound when `capped`)."),
    Field("capped", bool, "The scan stopped at the 50,000-line cap: the text says `at least`."),
    Field("top_directories", Many(PATH_MATCHES)),
    Field("top_files", Many(PATH_MATCHES)),
    Field(
        "kinds",
        Many(KIND_MATCHES),
        "D35: matching lines and files per kind of file that matched (source, test, "
        "docs, generated, in that order); the text prints the table from 2 kinds on.",
    ),
    Field(
        "listed",
        Many(LISTED_FILE),
        "D32: a small answer's matching lines (an exact count of at most 10), by file "
        "in path order; empty when the text lists none.",
    ),
    DEFINITIONS,
    *TAIL,
    source=ScoutReport,
)

SURVEY = Obj(
    "SurveyAnswer",
    "`asrch survey --format json`: terms compared across candidate paths.",
    *head("survey"),
    Field("terms", TEXTS),
    Field("paths", TEXTS),
    *OPTIONS,
    Field(
        "capped",
        bool,
        "Some term x path search stopped at the cap.",
        read=lambda report: any(t.capped for t in report.overall),
    ),
    Field("overall", Many(TERM_TOTAL)),
    Field("by_path", Many(PATH_SECTION)),
    *TAIL,
    source=SurveyReport,
)

SAMPLE = Obj(
    "SampleAnswer",
    "`asrch sample --format json`: one page of the clusters of a term in one file.",
    *query_head("sample"),
    Field("file", PATH),
    Field("matches", Count),
    Field("capped", bool),
    Field(
        "clustered",
        Count,
        "Matches kept and clustered: all of them, or the first 5,000.",
        read=lambda report: report.kept,
    ),
    Field("clusters", Count),
    Field("page", LineNumber),
    Field("pages", LineNumber),
    Field(
        "shown",
        Many(SAMPLE_CLUSTER),
        "The clusters of this page, in file order; empty past the last page.",
    ),
    *TAIL,
    source=SampleReport,
)


def _at_line(report: ShowReport) -> bool:
    return report.line is not None


SHOW = Obj(
    "ShowAnswer",
    "`asrch show --format json`: matches with context, or the window around `line`.",
    *head("show"),
    Field(
        "query",
        Maybe(TEXT),
        "The term; null for `show FILE --line N`, which takes none (D46).",
        read=lambda report: report.query.term if report.queried else None,
    ),
    *spread(lambda report: report.query, *OPTIONS),
    Field("file", PATH),
    Field(
        "matches",
        Maybe(Scalar(Count)),
        "Matching lines in the file; null with `--line` (see `window_matches`).",
        read=lambda report: None if _at_line(report) else report.matches,
    ),
    Field("capped", bool),
    Field(
        "refused",
        bool,
        "More than 20 matching lines (with `--scope`, 3), or the cap: no snippet, exit status 3.",
    ),
    Field("line", Maybe(Scalar(LineNumber)), "`--line N`, or null."),
    Field(
        "window",
        Maybe(WINDOW),
        "With `--line`: the range printed.",
        read=lambda report: None if report.line is None else window(report, report.line),
    ),
    Field(
        "definition",
        Maybe(WINDOW),
        "With `--line` and `--scope`: the lines of the unit printed around `line` when "
        "it is a definition (D46, D51); null otherwise.",
    ),
    Field(
        "units",
        Maybe(Many(UNIT)),
        "With `--scope`: the units printed, in line order (D51); empty where each "
        "window was printed instead (a note says why); null without `--scope`.",
        read=lambda report: report.units if report.scope else None,
    ),
    Field(
        "folds",
        Many(FOLD),
        "The docstrings and comment blocks printed as one line each (D51).",
    ),
    Field(
        "folded",
        Many(FOLDED),
        "Regions whose matches are counted, not printed (D53); `folded` prints them.",
    ),
    Field(
        "window_matches",
        Maybe(Scalar(Count)),
        "With `--line` and a query: matching lines in the window.",
        read=lambda report: report.matches if _at_line(report) and report.queried else None,
    ),
    Field(
        "last_line",
        Maybe(Scalar(Count)),
        "With `--line`: the file's last line number.",
        read=lambda report: report.last_line if _at_line(report) else None,
    ),
    Field("context", Count),
    Field("snippets", Many(SNIPPET)),
    DEFINITIONS,
    *TAIL,
    source=ShowReport,
)

ANSWERS: dict[str, tuple[type, Obj]] = {
    "survey": (SurveyReport, SURVEY),
    "scout": (ScoutReport, SCOUT),
    "sample": (SampleReport, SAMPLE),
    "show": (ShowReport, SHOW),
}
"""Each command's report and answer, in the order the schemas are written."""
