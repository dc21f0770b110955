"""D53 in scout: matching lines in header comments and in-file tests rank last.

Counts never change: the tables print every count as it is; when the lines in such
regions are at least `FOLD_SHARE` of the matching lines, `top_files`, `top_directories`
and the next step's file rank by the other lines (ties by all the lines, then by path).
Which files are read for their regions is bounded (`header_files`, `files_for_tests`): a
scout over thousands of matching files parses a few of them at most.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from asrch.domain.counting import FileCount, Ranked, parent_of, row_path
from asrch.domain.limits import FOLD_SHARE, HEADER_FILES_MAX, TEST_FILES_MAX
from asrch.domain.regions import Region, region_of

TEST_SUFFIXES = (".py", ".pyi", ".rs")
"""The languages whose in-file test regions `show` folds (engine/regions.py)."""


class FoldedLines(NamedTuple):
    """Matching lines in header comments (`header`) and in-file test regions (`tests`),
    and per file (its path as rg printed it) how many of its lines lie in either.
    `unread`: matching files whose header was not read (past `HEADER_FILES_MAX`)."""

    header: int
    tests: int
    per_file: Mapping[str, int]
    unread: int = 0

    @property
    def matches(self) -> int:
        return self.header + self.tests


def _most_first(files: Iterable[FileCount]) -> list[FileCount]:
    return sorted(files, key=lambda f: (-f.matches, f.path))


def header_files(files: Sequence[FileCount]) -> list[str]:
    """The files whose header comments are read: the `HEADER_FILES_MAX` with the most
    matching lines."""
    return [f.path for f in _most_first(files)[:HEADER_FILES_MAX]]


def files_for_tests(files: Sequence[FileCount], kind_of: Callable[[str], str]) -> list[str]:
    """The files looked at for test regions: the `TEST_FILES_MAX` Python and Rust files
    with the most matching lines that are not test files by their path."""
    chosen: list[str] = []
    for f in _most_first(files):
        if len(chosen) == TEST_FILES_MAX:
            break  # the rest are never looked at: no kind asked of thousands of files
        if f.path.lower().endswith(TEST_SUFFIXES) and kind_of(f.path) != "test":
            chosen.append(f.path)
    return chosen


def folded_lines(
    files: Sequence[FileCount],
    lines_of: Mapping[str, Sequence[int]],
    headers: Mapping[str, Region],
    tests: Mapping[str, Sequence[Region]],
    *,
    unread: int = 0,
) -> FoldedLines:
    """How many of each file's matching lines (`lines_of`: their numbers, as far as read)
    lie in its header comment or its test regions; never more than its count (a capped
    count's last file)."""
    header = in_tests = 0
    per_file: dict[str, int] = {}
    for f in files:
        numbers = lines_of.get(f.path, ())
        top = headers.get(f.path)
        regions = tuple(tests.get(f.path, ()))
        in_header = sum(1 for n in numbers if top is not None and top.start <= n <= top.end)
        in_region = sum(1 for n in numbers if region_of(n, regions) is not None)
        in_header = min(in_header, f.matches)
        in_region = min(in_region, f.matches - in_header)
        if in_header or in_region:
            per_file[f.path] = in_header + in_region
            header += in_header
            in_tests += in_region
    return FoldedLines(header, in_tests, per_file, unread)


def ranks(folded: FoldedLines | None, matches: int) -> bool:
    """The tables rank by the other lines: the folded ones are at least `FOLD_SHARE` of
    the matching lines, and not all of them (then nothing is reordered)."""
    if folded is None or not folded.matches:
        return False
    return folded.matches < matches and folded.matches >= FOLD_SHARE * matches


def ranked_files(
    files: Iterable[FileCount], folded: FoldedLines, target: str, limit: int
) -> tuple[Ranked, ...]:
    """`top_files` by the other lines (ties by all the lines, then by relative path),
    each row with all its lines."""
    rows = [
        (f.matches - folded.per_file.get(f.path, 0), f.matches, row_path(f.path, target))
        for f in files
    ]
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    return tuple(Ranked(path, matches) for _, matches, path in rows[:limit])


def ranked_directories(
    files: Iterable[FileCount], folded: FoldedLines, target: str, limit: int
) -> tuple[Ranked, ...]:
    """`top_directories` by the other lines of the files directly in each (ties by all
    their lines, then by path), each row with all its lines."""
    other: dict[str, int] = {}
    every: dict[str, int] = {}
    for f in files:
        directory = parent_of(row_path(f.path, target))
        other[directory] = other.get(directory, 0) + f.matches - folded.per_file.get(f.path, 0)
        every[directory] = every.get(directory, 0) + f.matches
    rows = sorted(every, key=lambda d: (-other[d], -every[d], d))
    return tuple(Ranked(d, every[d]) for d in rows[:limit])
