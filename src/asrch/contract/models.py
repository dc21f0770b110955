"""The answer of each command as data: the contract `--format json` prints (D27).

Field names are those the text answer prints; every count the text may write as
`at least N` / `>=N` comes with a `capped` boolean. Frozen, and `extra="forbid"`: an
answer holds exactly the fields its schema (schema/COMMAND.schema.json) lists.

The models define the schemas and validate answers (`validated`: in the tests and at
the MCP boundary); the command line prints the builders' values (`build.py`) with the
stdlib and never imports this module (D41). They validate JSON values: terms and
paths arrive already `json_text` (domain/text_safety.py).
"""

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from asrch.contract.values import NOTICE_KINDS, SCHEMA_VERSION
from asrch.domain.modes import Mode
from asrch.domain.text_safety import has_surrogate


def _printed(value: str) -> str:
    # A surrogate escape is a byte the builder did not write `\\xNN`: no JSON string
    # can hold it.
    if has_surrogate(value):
        raise ValueError("a surrogate escape (an undecodable byte not made printable)")
    return value


Text = Annotated[str, AfterValidator(_printed)]
"""A string from the command line or the file system (a term, a path), `json_text`."""
Count = Annotated[int, Field(ge=0)]
LineNumber = Annotated[int, Field(ge=1)]


def _known_kind(kind: str) -> str:
    if kind not in NOTICE_KINDS:
        raise ValueError(f"unknown notice kind {kind!r}; known: {', '.join(NOTICE_KINDS)}")
    return kind


NoticeKind = Annotated[
    str, AfterValidator(_known_kind), Field(json_schema_extra={"enum": list(NOTICE_KINDS)})
]


Case = Annotated[
    Literal["sensitive", "insensitive"],
    Field(description="D30: `insensitive` with `-i`/`--ignore-case`, in any mode."),
]
Types = Annotated[
    tuple[Text, ...],
    Field(description="D30: the `--type` names given, in order (empty: every type)."),
]
Globs = Annotated[
    tuple[Text, ...],
    Field(description="D30: the `--glob` values given, in order; `!GLOB` excludes."),
]
NextStep = Annotated[
    tuple[str, ...] | None,
    Field(
        description="D28: the protocol's next command as argument strings, `asrch` first; "
        "shell-quoted and joined with spaces it is the text answer's `next:` line, to be run "
        "from the same working directory. null where there is nothing to do."
    ),
]


class Model(BaseModel):
    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        strict=True,
        defer_build=True,
        json_schema_serialization_defaults_required=True,
    )


class Notice(Model):
    """A warning or hint (D6); never changes the exit status."""

    kind: NoticeKind = Field(
        description="What the notice is about; new kinds may be added within a schema version."
    )
    message: str = Field(
        description="The same words as the text answer's `note:` line, without `note: `."
    )


class NextCall(Model):
    """D37: the `next` step as the MCP tool call that makes it."""

    tool: Literal["survey", "scout", "sample", "show"] = Field(description="The tool to call.")
    arguments: dict[str, str | int | bool | list[str]] = Field(
        description="Its arguments by the tool's names (`query`, `file`, `line`, `mode`, "
        "`ignore_case`, `type`, `glob`, ...), as an MCP client passes them."
    )


NextCallOrNone = Annotated[
    NextCall | None,
    Field(
        description="D37: `next` as a tool call, `{tool, arguments}`; null where `next` is "
        "null. An MCP answer's text ends with it as `next: TOOL(NAME=VALUE, ...)`."
    ),
]


class PathMatches(Model):
    """One row of a top-5 table."""

    path: Text = Field(
        description="Relative to the searched path; a searched file is written as typed."
    )
    matches: Count


class QueryAnswerHead(Model):
    """The header scout, sample and show open with (survey, with several terms and
    paths, writes its own). Each answer overrides `command` with its literal; pydantic
    keeps an overridden field where the base declared it, so the schema's properties
    and the answer's keys stay in this order."""

    schema_version: Literal["1"] = SCHEMA_VERSION
    command: str
    query: Text
    mode: Mode
    case: Case
    types: Types
    globs: Globs


class ScoutAnswer(QueryAnswerHead):
    """`asrch scout --format json`: one term's distribution under one path."""

    command: Literal["scout"] = "scout"
    path: Text = Field(description="The searched path, as typed.")
    matches: Count = Field(description="Matching lines (a lower bound when `capped`).")
    files: Count = Field(description="Files with a matching line (a lower bound when `capped`).")
    capped: bool = Field(
        description="The scan stopped at the 50,000-line cap: the text says `at least`."
    )
    top_directories: tuple[PathMatches, ...]
    top_files: tuple[PathMatches, ...]
    kinds: "tuple[KindMatches, ...]" = Field(
        description="D35: matching lines and files per kind of file that matched (source, "
        "test, docs, in that order); the text prints the table from 2 kinds on."
    )
    listed: "tuple[ListedFile, ...]" = Field(
        description="D32: a small answer's matching lines (an exact count of at most 10), "
        "by file in path order; empty when the text lists none."
    )
    notices: tuple[Notice, ...]
    next: NextStep
    next_call: NextCallOrNone


class TermTotal(Model):
    """One `overall` row: a term summed over every candidate path."""

    term: Text
    matches: Count
    files: Count
    capped: bool = Field(description="Some path's search stopped at the cap: the text says `>=`.")
    dominant_path: Text | None = Field(
        description="The candidate path (as typed) with most matching lines; null for no match."
    )


class PathTerm(Model):
    """One row of a `by_path` section: a term that matched in that path."""

    term: Text
    matches: Count
    files: Count
    capped: bool
    top_file: Text = Field(
        description="The file with most matching lines, relative to the candidate path."
    )


class PathSection(Model):
    path: Text = Field(
        description="A candidate path as typed; a path given twice has two sections."
    )
    terms: tuple[PathTerm, ...] = Field(
        description="Terms in command-line order; terms with no match here are left out."
    )


class SurveyAnswer(Model):
    """`asrch survey --format json`: terms compared across candidate paths."""

    schema_version: Literal["1"] = SCHEMA_VERSION
    command: Literal["survey"] = "survey"
    terms: tuple[Text, ...]
    paths: tuple[Text, ...]
    mode: Mode
    case: Case
    types: Types
    globs: Globs
    capped: bool = Field(description="Some term x path search stopped at the cap.")
    overall: tuple[TermTotal, ...]
    by_path: tuple[PathSection, ...]
    notices: tuple[Notice, ...]
    next: NextStep
    next_call: NextCallOrNone


class ScopeLine(Model):
    """A definition enclosing a printed line (D31), as the text's `N=text` line."""

    line: LineNumber = Field(description="The line that names the definition.")
    text: str = Field(
        description="That line as the text answer prints it after `N=` (see `text` of a line)."
    )


class SnippetLine(Model):
    line: LineNumber
    text: str = Field(
        description="The line as the text answer prints it after `N:` / `N-`: line ending "
        "removed, control characters made visible, cut to the 800-byte line with `…[+N bytes]`."
    )
    match: bool = Field(description="The line matches (`N:` in the text), or is context (`N-`).")
    scope: tuple[ScopeLine, ...] = Field(
        description="The definitions enclosing a printed match (with `--line`, that line), "
        "outermost first, at most 3 (D31), each one even where the text does not repeat a "
        "header printed above it. Empty for other lines, at the top level, and where no parse "
        "tells it for sure."
    )
    scope_known: bool | None = Field(
        description="true: the parse placed the line and `scope` is all of it (empty: the top "
        "level); false: it could not (the text's `N=(unknown)`, D48); null: not asked (a "
        "context line, a file with no grammar)."
    )


class KindMatches(Model):
    """One row of `kinds[kind,matches,files]` (D35)."""

    kind: Literal["source", "test", "docs"] = Field(
        description="By path convention only: a test folder or name, else a doc folder or "
        "extension, else source."
    )
    matches: Count
    files: Count


class ListedFile(Model):
    """One file of a listed scout (D32)."""

    path: Text = Field(
        description="Joined with the searched path, as the `next:` step joins it (the text "
        "prints it on its own line)."
    )
    lines: tuple[SnippetLine, ...] = Field(description="The file's matching lines, in order.")


class Snippet(Model):
    """Consecutive lines; the text answer separates snippets with `--`."""

    lines: tuple[SnippetLine, ...]


class SampleCluster(Model):
    """One cluster of the page: matches at most 2 lines apart."""

    index: LineNumber = Field(
        description="Position of the cluster in the file, from 1 (`cluster I/C`)."
    )
    start: LineNumber = Field(description="First matching line.")
    end: LineNumber = Field(description="Last matching line.")
    hits: Count
    snippets: tuple[Snippet, ...] = Field(
        description="The first and the last match, each with 1 line before and after."
    )


class SampleAnswer(QueryAnswerHead):
    """`asrch sample --format json`: one page of the clusters of a term in one file."""

    command: Literal["sample"] = "sample"
    file: Text
    matches: Count
    capped: bool
    clustered: Count = Field(
        description="Matches kept and clustered: all of them, or the first 5,000."
    )
    clusters: Count
    page: LineNumber
    pages: LineNumber
    shown: tuple[SampleCluster, ...] = Field(
        description="The clusters of this page, in file order; empty past the last page."
    )
    notices: tuple[Notice, ...]
    next: NextStep
    next_call: NextCallOrNone


class Window(Model):
    start: LineNumber
    end: LineNumber


class ShowAnswer(QueryAnswerHead):
    """`asrch show --format json`: matches with context, or the window around `line`."""

    command: Literal["show"] = "show"
    query: Text | None = Field(  # type: ignore[assignment]
        description="The term; null for `show FILE --line N`, which takes none (D46)."
    )
    file: Text
    matches: Count | None = Field(
        description="Matching lines in the file; null with `--line` (see `window_matches`)."
    )
    capped: bool
    refused: bool = Field(
        description="More than 20 matching lines (or the cap): no snippet, exit status 3."
    )
    line: LineNumber | None = Field(description="`--line N`, or null.")
    window: Window | None = Field(description="With `--line`: the range printed.")
    definition: Window | None = Field(
        description="With `--scope`: the lines of the definition printed around `line` "
        "(D46); null without it, or when none is known (a note says why)."
    )
    window_matches: Count | None = Field(
        description="With `--line` and a query: matching lines in the window."
    )
    last_line: Count | None = Field(description="With `--line`: the file's last line number.")
    context: Count
    snippets: tuple[Snippet, ...]
    notices: tuple[Notice, ...]
    next: NextStep
    next_call: NextCallOrNone


Answer = ScoutAnswer | SurveyAnswer | SampleAnswer | ShowAnswer
ANSWERS: dict[str, type[Answer]] = {
    "survey": SurveyAnswer,
    "scout": ScoutAnswer,
    "sample": SampleAnswer,
    "show": ShowAnswer,
}


def validated(values: dict[str, Any]) -> Answer:
    """A builder's answer (`build.answer`) held to its command's model: a negative
    count, an unknown notice kind, a missing or extra field fail here."""
    return ANSWERS[values["command"]].model_validate(values)
