"""Lines of one file as the engine hands them over: number, raw bytes, match or not."""

from typing import Literal, NamedTuple

Span = tuple[int, int]
"""A match's byte offsets in its line, start and end, as rg's `--json` submatches give."""


class Scope(NamedTuple):
    """A definition enclosing a line (D31): the line that names it, and that line's bytes."""

    line: int
    text: bytes
    """The header line as in the file, line ending removed."""


class Definition(NamedTuple):
    """The lines of the innermost definition around a line (D46), first to last."""

    start: int
    end: int


Unplaced = Literal["none", "no_grammar", "too_large", "unreadable", "uncertain"]
"""Why no definition is given for a line: none encloses it; the file has no grammar, is
too large to parse or could not be read; the parse cannot place the line (D31)."""


class SourceLine(NamedTuple):
    """One line of the searched file; `text` keeps the raw bytes, line ending included.

    A tuple, not a model: a sample keeps up to 5,000 matches and their context.
    """

    number: int
    text: bytes
    is_match: bool
    first_match: Span | None = None
    """Where the line's first match is; a long line is cut around it (D8). None for a
    context line, and for a match whose offsets the engine did not get."""
    scope: tuple[Scope, ...] = ()
    """The definitions enclosing a printed match (D31), outermost first, at most 3; set by
    the use case from the `Scopes` port, never by the engine's search."""
    scope_known: bool | None = None
    """The parse placed the line (`scope` is its whole chain; `()`: the top level), could
    not (False: `scope` is `()`, D48), or was not asked (None: a context line, a file with
    no grammar)."""


class FileScan(NamedTuple):
    """The first `kept` matches of one file (with context lines), and how many there are.

    `matches` counts every matching line scanned (at most the scan cap); `capped`
    says the scan cap was reached, so `matches` is a lower bound.
    """

    lines: tuple[SourceLine, ...] = ()
    kept: int = 0
    matches: int = 0
    capped: bool = False
    skipped: int = 0


class FileWindow(NamedTuple):
    """Lines `start..end` of one file, which of them match, and the file's last line."""

    lines: tuple[SourceLine, ...] = ()
    last_line: int = 0
    skipped: int = 0
