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


class FoldedRegion(NamedTuple):
    """A region with `matches` matching lines left out of what `show` prints."""

    region: Region
    matches: int


def region_of(line: int, regions: tuple[Region, ...]) -> Region | None:
    return next((r for r in regions if r.start <= line <= r.end), None)
