"""Lines of one file as the engine hands them over: number, raw bytes, match or not."""

from typing import Literal, NamedTuple

Span = tuple[int, int]
"""A match's byte offsets in its line, start and end, as rg's `--json` submatches give."""


class Scope(NamedTuple):
    """A definition enclosing a line (D31): the line that names it, and that line's bytes."""

    line: int
    text: bytes
    """The header line as in the file, line ending removed."""
    name: Span | None = None
    """Where the definition's name stands in `text` (byte offsets), when the parse names
    it on this line: a scope line cut short keeps it whole (D55)."""


class Placements(NamedTuple):
    """What the parse of one file says of some of its lines (D31, D48)."""

    scopes: dict[int, tuple[Scope, ...] | None]
    """The definitions enclosing each line (by number), outermost first, at most
    `SCOPE_DEPTH`; `()` at the top level, None where the parse cannot place the line. No
    entry: the file was not parsed (no grammar)."""
    heads: frozenset[int] = frozenset()
    """The lines among them that begin with the header of a definition around their match
    (`SourceLine.heads`)."""
    too_large: bool = False
    """The file is larger than the bound asked for (scout's `SCOUT_SCOPE_MAX_BYTES`): not
    parsed, no entry, and the answer says so."""


class Definition(NamedTuple):
    """The lines of the innermost definition around a line (D46), first to last."""

    start: int
    end: int


Unplaced = Literal["none", "no_grammar", "too_large", "unreadable", "uncertain", "binary"]
"""Why no definition is given for a line: none encloses it; the file has no grammar, is
too large to parse or could not be read; the parse cannot place the line (D31); the file
holds a NUL byte, as a binary file does (D51: not parsed)."""


class Excerpt(NamedTuple):
    """What is kept of a line too long to hold (issue 32, item 10): only what the
    800-byte rule (D8) can print, its head, the bytes around its first match and its
    tail. `ranges` are the kept byte ranges of the line, in order and disjoint, whose
    bytes joined are `SourceLine.text`; `size` is the whole line's, ending included."""

    size: int
    ranges: tuple[Span, ...]


EXCERPT_MARGIN = 2048
"""Bytes kept on each side of what can be printed: the line cap (800), the lead kept
before a match (200), a character's bytes: every read the cut makes lies inside."""


def excerpt_ranges(size: int, first_match: Span | None) -> tuple[Span, ...]:
    """The ranges an `Excerpt` of a line of `size` bytes keeps: head, around the first
    match, tail, merged where they meet."""
    wanted = [(0, EXCERPT_MARGIN), (max(0, size - EXCERPT_MARGIN), size)]
    if first_match is not None:
        wanted.append((max(0, first_match[0] - EXCERPT_MARGIN), first_match[0] + EXCERPT_MARGIN))
    merged: list[Span] = []
    for start, end in sorted((s, min(e, size)) for s, e in wanted):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


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
    excerpt: Excerpt | None = None
    """Set when `text` is only the printable parts of a line too long to hold."""
    heads: bool = False
    """The line begins, after its indentation, with the header of a definition around its
    match (`def f(`): at column 0 it says itself that it is at the top level, indented as
    the header of the definition it leaves it says it is that one's sibling (D48)."""


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
