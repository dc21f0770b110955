"""D53: the regions of a file that are not the code an agent looks for (a leading
licence or header comment block, an in-file test region), and the matches folded there.

Counts never change: a folded match is counted as any other; only the order and the
folding of what `show` prints do."""

from typing import Literal, NamedTuple

RegionKind = Literal["header", "tests"]


class Region(NamedTuple):
    """Lines `start`-`end` (1-based, inclusive) of a file, and what they are: `what`
    names the region as the file spells it (`#[cfg(test)] mod tests`, `class TestPool`,
    `header comment`)."""

    start: int
    end: int
    kind: RegionKind
    what: str


class Header(NamedTuple):
    """A file's header comment (`region`) and its text: lines 1 to `region.end` as rg
    reads them, each with its line end (D53 in scout: judged where it is held)."""

    region: Region
    text: bytes


class FoldedRegion(NamedTuple):
    """A region with `matches` matching lines left out of what `show` prints."""

    region: Region
    matches: int


def region_of(line: int, regions: tuple[Region, ...]) -> Region | None:
    return next((r for r in regions if r.start <= line <= r.end), None)


HEADER_MIN_LINES = 3
"""A leading comment of fewer lines is a note, not a licence or file header."""


def header_from(comments: list[tuple[int, int]], code: int | None) -> Region | None:
    """The header comment of a file from its leading comments (first and last line of
    each, in order, before any code) and the line where its code begins (None: none): the
    comments from line 1, the last run of them (comments on adjacent lines) dropped when
    it touches the code (that code's doc comment), at least `HEADER_MIN_LINES` lines.
    The parse (engine/regions.py) and the lexical reader (engine/headers.py) share it."""
    if not comments or comments[0][0] != 1:
        return None
    runs: list[tuple[int, int]] = []
    for first, last in comments:
        if runs and first <= runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], max(runs[-1][1], last))
        else:
            runs.append((first, last))
    if code is not None and code <= runs[-1][1] + 1:
        runs.pop()  # the doc comment of the first item
    if not runs or runs[-1][1] - runs[0][0] + 1 < HEADER_MIN_LINES:
        return None
    return Region(runs[0][0], runs[-1][1], "header", "header comment")
