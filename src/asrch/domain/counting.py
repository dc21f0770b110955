"""Per-file matched-line counts and the rankings built from them."""

import posixpath
from collections.abc import Iterable
from operator import itemgetter
from typing import NamedTuple


class FileCount(NamedTuple):
    """Matching lines in one file; `path` is as ripgrep printed it.

    A tuple, not a model: a tree yields tens of thousands of these, and validating
    each one cost more than rg's whole scan (see bench/).
    """

    path: str
    matches: int


class Tally(NamedTuple):
    """What one counting search found, in ripgrep's path order.

    `capped` means the scan stopped at the cap: `matches` is then exactly the cap and
    the last file's count is the part scanned before the stop. `skipped` counts the
    files rg could not read, `binary` the files holding a NUL byte that rg met while
    walking (in the part scanned) and did not search.
    """

    files: tuple[FileCount, ...] = ()
    capped: bool = False
    skipped: int = 0
    binary: int = 0

    @property
    def matches(self) -> int:
        # Read several times per answer over tens of thousands of files: summed in C.
        return sum(map(itemgetter(1), self.files))


class Ranked(NamedTuple):
    """One row of a top-N table."""

    path: str
    matches: int


def relative_to(path: str, target: str) -> str:
    """`path` (as rg printed it) relative to the search target, else as printed.

    rg prints a walked entry as the target exactly as given, a `/` unless the target
    already ends in one, and the entry's components (`src//` + `net/pool.py` is
    `src//net/pool.py`), so stripping the target and the `/`s after it is exact for
    every spelling of it (D26). A file given as the target itself has no relative form
    and keeps the notation the user typed.
    """
    if path == target or not path.startswith(target):
        return path
    rest = path[len(target) :]
    if not (rest.startswith("/") or target.endswith("/")):
        return path
    # No name holds a `/`: what follows the target's own `/`s is the relative path.
    return rest.lstrip("/") or path


def row_path(path: str, target: str) -> str:
    """A table row's path: relative to the search target; a file given as the target
    itself, relative to its folder (its name, in folder `.`), not the target repeated
    (issue 32)."""
    if path == target:
        return posixpath.basename(path) or path
    return relative_to(path, target)


def parent_of(relative: str) -> str:
    """The directory part of a relative path, `.` for the target itself."""
    return posixpath.dirname(relative) or "."


def rank(rows: Iterable[tuple[str, int]], limit: int) -> tuple[Ranked, ...]:
    """Most matches first; ties in ascending path order (the seed's rule)."""
    ordered = sorted(rows, key=lambda row: (-row[1], row[0]))
    return tuple(Ranked(path=path, matches=matches) for path, matches in ordered[:limit])


def top_files(files: Iterable[FileCount], target: str, limit: int) -> tuple[Ranked, ...]:
    """The `limit` files with most matches; ties in ascending relative path order.

    Only files that can still place (a count at least the `limit`-th largest) are made
    relative: a tree yields thousands of files and the table shows five.
    """
    files = list(files)
    if len(files) > limit:
        floor = sorted((f.matches for f in files), reverse=True)[limit - 1]
        files = [f for f in files if f.matches >= floor]
    return rank(((row_path(f.path, target), f.matches) for f in files), limit)


def top_directories(files: Iterable[FileCount], target: str, limit: int) -> tuple[Ranked, ...]:
    """Each directory's count is the sum over the matching files directly in it."""
    # Summed by the directory part as rg printed it, made relative once per directory:
    # files that share that part share their relative parent (a prefix strip).
    raw_sums: dict[str, int] = {}
    first_file: dict[str, str] = {}
    for f in files:
        head = f.path.rpartition("/")[0]
        if head not in raw_sums:
            raw_sums[head] = 0
            first_file[head] = f.path
        raw_sums[head] += f.matches
    sums: dict[str, int] = {}
    for head, matches in raw_sums.items():
        directory = parent_of(row_path(first_file[head], target))
        sums[directory] = sums.get(directory, 0) + matches
    return rank(sums.items(), limit)
