"""The answer of each command as data, declared once: the contract `--format json` prints
(D27), as TypedDicts.

Field names are those the text answer prints; every count the text may write as
`at least N` / `>=N` comes with a `capped` boolean. An answer holds exactly the fields
its schema (schema/COMMAND.schema.json) lists, in this order.

One declaration, three readers:
- `build.py` returns these types, so the type checker holds every key and value the
  builders write to them (a missing, extra or mistyped key fails `mypy`);
- `schema.py` hands them to pydantic (`TypeAdapter`): the published schemas are generated
  from them, and the MCP server validates each answer through them (D41);
- the tests hold the builders' key order to it (`tests/contract`: the stdlib's bytes
  equal pydantic's, which writes a TypedDict's keys in declaration order).

Plain typing, no pydantic: what only a schema or a check needs (a description, a lower
bound, the notice kinds) rides on `Annotated` as the small markers below, whose
`__get_pydantic_*__` hooks pydantic calls by name when it builds a schema; nothing here
runs them. `typing_extensions` for `TypedDict` and `ReadOnly` on Python 3.11 (pydantic
reads only its `TypedDict` there). build.py imports this module for the type checker
only: the `--format json` path runs none of it (tests/cli/test_imports.py).

The strings are JSON values: terms and paths arrive already `json_text`
(domain/text_safety.py).
"""

from collections.abc import Callable
from typing import Annotated, Any, Generic, Literal, NamedTuple, NotRequired, TypeVar

from typing_extensions import ReadOnly, TypedDict

from asrch.domain.modes import Mode
from asrch.domain.notices import kinds as notice_kinds
from asrch.domain.text_safety import has_surrogate

# --- the markers (pydantic's hooks, called by name; no pydantic import) ----------------

Handler = Callable[[Any], Any]


class Doc(NamedTuple):
    """A field's description in the schema."""

    text: str

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Handler) -> Any:
        schema = handler(core_schema)
        schema["description"] = self.text
        return schema


class AtLeast(NamedTuple):
    """A number's lower bound: checked, and the schema's `minimum`."""

    least: int

    def __get_pydantic_core_schema__(self, source: Any, handler: Handler) -> Any:
        schema = handler(source)
        schema["ge"] = self.least
        return schema


class Default(NamedTuple):
    """The schema's `default` of a constant (`schema_version`, `command`): every answer
    holds the field, and code generated from the schema reads the default."""

    value: str

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Handler) -> Any:
        schema = handler(core_schema)
        schema["default"] = self.value
        return schema


class OneOf(NamedTuple):
    """A string that is one of `values`, checked and listed as the schema's `enum`;
    for a list known at run time (the domain's notice kinds), where `Literal` cannot
    be written."""

    values: tuple[str, ...]

    def __get_pydantic_core_schema__(self, source: Any, handler: Handler) -> Any:
        from pydantic_core import core_schema  # noqa: PLC0415  (only where pydantic runs)

        return core_schema.literal_schema(list(self.values))


def _printed(value: str) -> str:
    # A surrogate escape is a byte the builder did not write `\\xNN`: no JSON string
    # can hold it.
    if has_surrogate(value):
        raise ValueError("a surrogate escape (an undecodable byte not made printable)")
    return value


class Printed(NamedTuple):
    """A string no surrogate escape is left in (`json_text` made it printable)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Handler) -> Any:
        from pydantic_core import core_schema  # noqa: PLC0415  (only where pydantic runs)

        return core_schema.no_info_after_validator_function(_printed, handler(source))


Shape = TypeVar("Shape")


def closed(shape: type[Shape]) -> type[Shape]:
    """An answer's object holds its fields and no other, each of its declared type
    without coercion: pydantic reads `__pydantic_config__` (a `ConfigDict`, a plain
    dict at run time) from the class itself, not from its bases."""
    shape.__pydantic_config__ = {"extra": "forbid", "strict": True}  # type: ignore[attr-defined]
    return shape


# --- the values ----------------------------------------------------------------------

Text = Annotated[str, Printed()]
"""A string from the command line or the file system (a term, a path), `json_text`."""
Count = Annotated[int, AtLeast(0)]
LineNumber = Annotated[int, AtLeast(1)]

Case = Annotated[
    Literal["sensitive", "insensitive"],
    Doc("D30: `insensitive` with `-i`/`--ignore-case`, in any mode."),
]
Types = Annotated[
    tuple[Text, ...], Doc("D30: the `--type` names given, in order (empty: every type).")
]
Globs = Annotated[
    tuple[Text, ...], Doc("D30: the `--glob` values given, in order; `!GLOB` excludes.")
]
NextStep = Annotated[
    tuple[str, ...] | None,
    Doc(
        "D28: the protocol's next command as argument strings, `asrch` first; "
        "shell-quoted and joined with spaces it is the text answer's `next:` line, to be run "
        "from the same working directory. null where there is nothing to do."
    ),
]


@closed
class Notice(TypedDict):
    """A warning or hint (D6); never changes the exit status."""

    kind: Annotated[
        str,
        OneOf(notice_kinds()),  # every notice the domain can raise, in the order added
        Doc("What the notice is about; new kinds may be added within a schema version."),
    ]
    message: Annotated[
        str, Doc("The same words as the text answer's `note:` line, without `note: `.")
    ]


@closed
class NextCall(TypedDict):
    """D37: the `next` step as the MCP tool call that makes it."""

    # A step's command is the table's name, a `str` (domain/words.py): checked here.
    tool: Annotated[str, OneOf(("survey", "scout", "sample", "show")), Doc("The tool to call.")]
    arguments: Annotated[
        dict[str, str | int | bool | list[str]],
        Doc(
            "Its arguments by the tool's names (`query`, `file`, `line`, `mode`, "
            "`ignore_case`, `type`, `glob`, ...), as an MCP client passes them."
        ),
    ]


@closed
class PathMatches(TypedDict):
    """One row of a top-5 table."""

    path: Annotated[
        Text, Doc("Relative to the searched path; a searched file is written as typed.")
    ]
    matches: Count


@closed
class KindMatches(TypedDict):
    """One row of `kinds[kind,matches,files]` (D35)."""

    kind: Annotated[
        Literal["source", "test", "docs", "generated"],
        Doc(
            "By path convention only: a lockfile's name (generated), else a test folder "
            "or name, else a doc folder or extension, else source."
        ),
    ]
    matches: Count
    files: Count


@closed
class ScopeLine(TypedDict):
    """A definition enclosing a printed line (D31), as the text's `N=text` line."""

    line: Annotated[LineNumber, Doc("The line that names the definition.")]
    text: Annotated[
        str, Doc("That line as the text answer prints it after `N=` (see `text` of a line).")
    ]


@closed
class SnippetLine(TypedDict):
    line: LineNumber
    text: Annotated[
        str,
        Doc(
            "The line as the text answer prints it after `N:` / `N-`: line ending "
            "removed, control characters made visible, cut to the 800-byte line with "
            "`…[+N bytes]`."
        ),
    ]
    match: Annotated[bool, Doc("The line matches (`N:` in the text), or is context (`N-`).")]
    scope: Annotated[
        tuple[ScopeLine, ...],
        Doc(
            "The definitions enclosing a printed match (with `--line`, that line), "
            "outermost first, at most 3 (D31), each one even where the text does not repeat "
            "a header printed above it. Empty for other lines, at the top level, and where "
            "no parse tells it for sure."
        ),
    ]
    scope_known: Annotated[
        bool | None,
        Doc(
            "true: the parse placed the line and `scope` is all of it (empty: the top "
            "level); false: it could not (the text's `N=(unknown)`, D48); null: not asked "
            "(a context line, a file with no grammar)."
        ),
    ]


@closed
class NotParsed(TypedDict):
    """D52: matching lines `--def` could not judge, for one reason."""

    reason: Annotated[
        Literal["no_grammar", "too_large", "failed", "unreadable", "uncertain", "file_limit"],
        Doc(
            "No grammar for the file's extension; over 1 MB; the parse passed its work or "
            "time bound; unreadable, or changed since rg read it; parse errors around the "
            "line; past the first 500 files that matched (in path order), not read."
        ),
    ]
    files: Count
    lines: Count


@closed
class Definitions(TypedDict):
    """D52: what `--def` looked at."""

    matches: Annotated[
        Count, Doc("Every matching line looked at (before keeping the definition lines).")
    ]
    not_parsed: Annotated[
        tuple[NotParsed, ...],
        Doc(
            "Lines not judged, per reason (in `matches` here, not in the answer's count): the note."
        ),
    ]


DefinitionsField = Annotated[
    Definitions | None,
    Doc(
        "`--def` (D52): the answer's counts are of lines where a definition's name stands; "
        "null without it."
    ),
]


@closed
class ListedFile(TypedDict):
    """One file of a listed scout (D32)."""

    path: Annotated[
        Text,
        Doc(
            "Joined with the searched path, as the `next:` step joins it (the text "
            "prints it on its own line)."
        ),
    ]
    lines: Annotated[tuple[SnippetLine, ...], Doc("The file's matching lines, in order.")]


@closed
class Snippet(TypedDict):
    """Consecutive lines; the text answer separates snippets with `--`."""

    lines: tuple[SnippetLine, ...]


@closed
class TermTotal(TypedDict):
    """One `overall` row: a term summed over every candidate path."""

    term: Text
    matches: Count
    files: Count
    capped: Annotated[bool, Doc("Some path's search stopped at the cap: the text says `>=`.")]
    dominant_path: Annotated[
        Text | None,
        Doc("The candidate path (as typed) with most matching lines; null for no match."),
    ]


@closed
class Place(TypedDict):
    """A rare term's matching line (D56)."""

    path: Annotated[Text, Doc("The file, relative to the candidate path, as top_file.")]
    line: LineNumber


@closed
class PathTerm(TypedDict):
    """One row of a `by_path` section: a term that matched in that path."""

    term: Text
    matches: Count
    files: Count
    capped: bool
    top_file: Annotated[
        Text, Doc("The file with most matching lines, relative to the candidate path.")
    ]
    places: Annotated[
        tuple[Place, ...],
        Doc(
            "D56: each matching line when the count is exact and at most 3, in path "
            "order then line order (the text writes them as `FILE:LINE` in place of "
            "top_file); empty otherwise."
        ),
    ]


@closed
class PathSection(TypedDict):
    path: Annotated[Text, Doc("A candidate path as typed; a path given twice has two sections.")]
    terms: Annotated[
        tuple[PathTerm, ...],
        Doc("Terms in command-line order; terms with no match here are left out."),
    ]


@closed
class SampleCluster(TypedDict):
    """One cluster of the page: matches at most 2 lines apart."""

    index: Annotated[
        LineNumber, Doc("Position of the cluster in the file, from 1 (`cluster I/C`).")
    ]
    start: Annotated[LineNumber, Doc("First matching line.")]
    end: Annotated[LineNumber, Doc("Last matching line.")]
    hits: Count
    snippets: Annotated[
        tuple[Snippet, ...],
        Doc("The first and the last match, each with 1 line before and after."),
    ]


@closed
class Window(TypedDict):
    start: LineNumber
    end: LineNumber


class UnitShape(TypedDict):
    """A syntactic unit `show --scope` printed (D51)."""

    kind: Annotated[
        Literal["definition", "if", "branch", "loop", "match", "try", "block", "statement"],
        Doc("What it is: a branch is one arm of an if, match or try."),
    ]
    start: LineNumber
    end: LineNumber


class FoldShape(TypedDict):
    """A docstring or comment block left out of a unit, printed as one line (D51)."""

    kind: Literal["docstring", "comment"]
    start: LineNumber
    end: LineNumber


# --- the answers ---------------------------------------------------------------------
# An answer is the head, its term(s), the search options, its command's own fields and
# the tail. A TypedDict's keys are its bases' keys in the order the bases are listed,
# then its own (a key declared again keeps its place), so each answer's class line is
# its key order. The head is generic in the command's literal, so that the builders
# spread a typed head; each answer declares `command` again for pydantic, which reads
# the bound, not the argument, of a generic base (PEP 705: a `ReadOnly` item may be
# declared again, as narrow or narrower).

Command = TypeVar("Command", bound=str)


class Head(TypedDict, Generic[Command]):
    """What every answer opens with."""

    schema_version: Annotated[Literal["1"], Default("1")]
    command: ReadOnly[Command]


class Term(TypedDict):
    """The one term scout and sample search for."""

    query: Text


class Options(TypedDict):
    """How the terms matched and which files were searched: the call's search options."""

    mode: Mode
    case: Case
    types: Types
    globs: Globs


class QueryHead(Head[Command], Term, Options, Generic[Command]):
    """What scout and sample open with."""


class Tail(TypedDict):
    """What every answer ends with."""

    notices: tuple[Notice, ...]
    next: NextStep
    next_call: Annotated[
        NextCall | None,
        Doc(
            "D37: `next` as a tool call, `{tool, arguments}`; null where `next` is null. "
            "An MCP answer's text ends with it as `next: TOOL(NAME=VALUE, ...)`."
        ),
    ]
    index: NotRequired[
        Annotated[
            Literal["used", "scanned", "ignored"],
            Doc(
                "D58: only where an index covers a searched directory (`asrch index`): "
                "`used` (rg read its candidates alone), `scanned` (every file), `ignored` "
                "(the index could not be used; stderr says why). The answer is the same."
            ),
        ]
    ]


class ScoutFields(TypedDict):
    path: Annotated[Text, Doc("The searched path, as typed.")]
    matches: Annotated[Count, Doc("Matching lines (a lower bound when `capped`).")]
    files: Annotated[Count, Doc("Files with a matching line (a lower bound when `capped`).")]
    capped: Annotated[
        bool, Doc("The scan stopped at the 50,000-line cap: the text says `at least`.")
    ]
    top_directories: tuple[PathMatches, ...]
    top_files: tuple[PathMatches, ...]
    kinds: Annotated[
        tuple[KindMatches, ...],
        Doc(
            "D35: matching lines and files per kind of file that matched (source, test, "
            "docs, generated, in that order); the text prints the table from 2 kinds on."
        ),
    ]
    listed: Annotated[
        tuple[ListedFile, ...],
        Doc(
            "D32: a small answer's matching lines (an exact count of at most 10), by file "
            "in path order; empty when the text lists none."
        ),
    ]
    definitions: DefinitionsField


@closed
class ScoutAnswer(QueryHead[Literal["scout"]], ScoutFields, Tail):
    """`asrch scout --format json`: one term's distribution under one path."""

    command: ReadOnly[Annotated[Literal["scout"], Default("scout")]]


class Terms(TypedDict):
    terms: tuple[Text, ...]
    paths: tuple[Text, ...]


class SurveyFields(TypedDict):
    capped: Annotated[bool, Doc("Some term x path search stopped at the cap.")]
    overall: tuple[TermTotal, ...]
    by_path: tuple[PathSection, ...]


@closed
class SurveyAnswer(Head[Literal["survey"]], Terms, Options, SurveyFields, Tail):
    """`asrch survey --format json`: terms compared across candidate paths."""

    command: ReadOnly[Annotated[Literal["survey"], Default("survey")]]


class SampleFields(TypedDict):
    file: Text
    matches: Count
    capped: bool
    clustered: Annotated[Count, Doc("Matches kept and clustered: all of them, or the first 5,000.")]
    clusters: Count
    page: LineNumber
    pages: LineNumber
    shown: Annotated[
        tuple[SampleCluster, ...],
        Doc("The clusters of this page, in file order; empty past the last page."),
    ]


@closed
class SampleAnswer(QueryHead[Literal["sample"]], SampleFields, Tail):
    """`asrch sample --format json`: one page of the clusters of a term in one file."""

    command: ReadOnly[Annotated[Literal["sample"], Default("sample")]]


class FoldedShape(TypedDict):
    """A header comment or test region whose matches show counted but did not print (D53)."""

    kind: Literal["header", "tests"]
    what: Annotated[Text, Doc("The region as the file names it (`mod tests`).")]
    start: LineNumber
    end: LineNumber
    matches: Annotated[Count, Doc("Its matching lines left out (`folded` prints them).")]


class ShowTerm(TypedDict):
    query: Annotated[
        Text | None,
        Doc("The term; null for `show FILE --line N`, which takes none (D46)."),
    ]


class ShowFields(TypedDict):
    file: Text
    matches: Annotated[
        Count | None,
        Doc("Matching lines in the file; null with `--line` (see `window_matches`)."),
    ]
    capped: bool
    refused: Annotated[
        bool,
        Doc(
            "More than 20 matching lines (with `--scope`, 3), or the cap: no snippet, exit "
            "status 3."
        ),
    ]
    line: Annotated[LineNumber | None, Doc("`--line N`, or null.")]
    window: Annotated[Window | None, Doc("With `--line`: the range printed.")]
    definition: Annotated[
        Window | None,
        Doc(
            "With `--line` and `--scope`: the lines of the unit printed around `line` when "
            "it is a definition (D46, D51); null otherwise."
        ),
    ]
    units: Annotated[
        tuple[UnitShape, ...] | None,
        Doc(
            "With `--scope`: the units printed, in line order (D51); empty where each "
            "window was printed instead (a note says why); null without `--scope`."
        ),
    ]
    folds: Annotated[
        tuple[FoldShape, ...],
        Doc("The docstrings and comment blocks printed as one line each (D51)."),
    ]
    folded: Annotated[
        tuple[FoldedShape, ...],
        Doc("Regions whose matches are counted, not printed (D53); `folded` prints them."),
    ]
    window_matches: Annotated[
        Count | None, Doc("With `--line` and a query: matching lines in the window.")
    ]
    last_line: Annotated[Count | None, Doc("With `--line`: the file's last line number.")]
    context: Count
    snippets: tuple[Snippet, ...]
    definitions: DefinitionsField


@closed
class ShowAnswer(Head[Literal["show"]], ShowTerm, Options, ShowFields, Tail):
    """`asrch show --format json`: matches with context, or the window around `line`."""

    command: ReadOnly[Annotated[Literal["show"], Default("show")]]


Answer = ScoutAnswer | SurveyAnswer | SampleAnswer | ShowAnswer
ANSWERS: dict[str, type[Answer]] = {
    "survey": SurveyAnswer,
    "scout": ScoutAnswer,
    "sample": SampleAnswer,
    "show": ShowAnswer,
}
"""Each command's answer, in the order the schemas are written."""
