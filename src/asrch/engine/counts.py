"""The counting plan: `rg --count --include-zero --stats`, parsed and put in path order.

Binary files are counted as rg decides them, from rg's own numbers (`census_argv`):
with `--include-zero` rg prints a record for every file it searched except those it
stopped reading at a NUL byte, and `--stats` says how many files it searched in all;
the binary files are the difference. Their names are wanted only when a scan is cut at
the cap or filtered (D30): then they are the files `rg --files` walks to that rg
neither counted nor failed to read. Every name is rg's bytes, whatever the encoding.
"""

import functools
import os
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from operator import itemgetter

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import DEFAULT_OPTIONS, Query, SearchOptions
from asrch.engine.argv import as_typed, census_argv, count_argv, files_argv, operand
from asrch.engine.process import HERE, Launch
from asrch.engine.stderr import RgSaid, failed_paths
from asrch.engine.transport import run_to_end

# One record: a path (any byte but NUL; newlines included), NUL, decimal count, LF.
_RECORD = re.compile(rb"([^\0]*)\0([0-9]+)\n")


def parse_count_records(data: bytes) -> list[tuple[bytes, int]]:
    """Every `path NUL count LF` record of rg's whole `--count --null` output.

    Parsed in one pass of the regex engine: a count scans the whole tree anyway, and
    ten thousand records cost about as much to loop over in Python as rg takes to
    find them. Anything that is not a record, anywhere, is an engine error.
    """
    records: list[tuple[bytes, bytes]] = _RECORD.findall(data)
    # The records tile the output exactly when their lengths add up to it: no garbage
    # before, between or after them (summed in C, not in a loop per record).
    paths = [path for path, _ in records]
    counts = [count for _, count in records]
    if sum(map(len, paths)) + sum(map(len, counts)) + 2 * len(records) != len(data):
        raise EngineError(
            "rg printed a count record asrch cannot read; check that ASRCH_RG points at ripgrep 14"
        )
    return list(zip(paths, map(int, counts), strict=True))


def parse_counts(data: bytes) -> list[tuple[bytes, int]]:
    """The records of a `count_argv` run's output, before rg's statistics; output
    without them (an `ASRCH_RG` that printed nothing) is an engine error."""
    end, _ = _stats_start(data)
    return parse_count_records(data[:end])


def rg_path_order(path: bytes) -> bytes:
    """A key in rg's `--sort=path` order: Rust's `Path` comparison, component by
    component. With each `/` as NUL, the lowest byte and one no path holds, comparing
    the bytes compares the component lists."""
    return path.replace(b"/", b"\0")


def in_path_order(found: list[tuple[bytes, int]]) -> list[tuple[bytes, int]]:
    """`found` sorted by `rg_path_order` of its paths."""
    return [found[i] for i in path_order([path for path, _ in found])]


def path_order(paths: Sequence[bytes]) -> list[int]:
    """The indices of `paths` in rg's path order (`rg_path_order`).

    The keys are made in three C calls instead of a call per path: the paths joined by
    NUL (which no path holds), each `/` made \\x01, split again. \\x01 sorts like NUL
    only when no path holds \\x01 itself; otherwise the plain key is used.
    """
    if not paths:
        return []
    joined = b"\0".join(paths)
    if b"\x01" in joined:
        return sorted(range(len(paths)), key=lambda i: rg_path_order(paths[i]))
    keys = joined.replace(b"/", b"\x01").split(b"\0")
    return sorted(range(len(keys)), key=keys.__getitem__)


# rg's `--stats` block, after the records: 8 lines, the first one empty.
_STATS = re.compile(
    rb"\n([0-9]+) matches\n[0-9]+ matched lines\n[0-9]+ files contained matches\n"
    rb"([0-9]+) files searched\n[0-9]+ bytes printed\n[0-9]+ bytes searched\n"
    rb"[0-9.]+ seconds spent searching\n[0-9.]+ seconds\n\Z"
)
# A census record is `PATH:COUNT LF`, `/` in PATH printed as NUL: the count is the digits
# between the line's last `:` and its LF (no path holds a LF once `parse_census` has
# checked). `:` is rare in paths, so the regex engine finds the few records with a
# match by that byte; with NUL after the path (`--null`), a byte every path holds many
# times here, it tried each: ≈20 ms a census on the stdlib's 31,869 records, now ≈4.
_MATCHED_END = re.compile(rb":([1-9][0-9]*)\n")
_ZERO_END = b":0\n"


class Census:
    """What one `census_argv` run said: every file rg read to the end with its count
    (zero included), and how many files it searched in all (binary ones included).

    `data[:end]` holds one `PATH:COUNT LF` record a line, no path holding a LF, `/` in a
    path printed as NUL (and restored here). The records are not copied out of rg's
    output: on the stdlib they are 3.5 MB, read for the few with a match.
    """

    def __init__(
        self,
        data: bytes,
        end: int,
        files: int,
        searched: int,
        ends: "list[re.Match[bytes]]",
    ) -> None:
        self._data = data
        self._end = end
        self.files = files
        self.searched = searched
        self._ends = ends
        """Where the records with a match end (`_MATCHED_END`)."""

    @property
    def binary(self) -> int:
        """The files rg stopped reading at a NUL byte."""
        return self.searched - self.files

    def matched(self) -> list[tuple[bytes, int]]:
        """(path, matched lines) of each file with a match, in rg's order."""
        data = self._data
        return [
            (data[data.rfind(b"\n", 0, m.start()) + 1 : m.start()].replace(b"\0", b"/"), int(m[1]))
            for m in self._ends
        ]

    def read(self) -> set[bytes]:
        """Every file rg read to the end."""
        lines = self._data[: self._end].split(b"\n")[:-1]
        return {line.rpartition(b":")[0].replace(b"\0", b"/") for line in lines}


def _garbled() -> EngineError:
    return EngineError(
        "rg printed a count record asrch cannot read; check that ASRCH_RG points at ripgrep 14"
    )


def _stats_start(data: bytes) -> tuple[int, int]:
    """Where rg's `--stats` block starts in `data` (the records end there), and its
    `N files searched`."""
    tail = len(data) - 1024
    stats = _STATS.search(data, max(tail, 0))
    if stats is None:
        raise _garbled()
    return stats.start(), int(stats[2])


def parse_census(data: bytes, target: str) -> Census | None:
    """The census in `data` (NUL as the path separator), or None if a name in it holds
    a LF: then records cannot be told apart, and the caller asks rg again with `/`.

    Checked in C, without a Python step per file with no match: every LF must end a
    record (be preceded by `:` and a count) and be followed by the next record, which
    starts with the operand as rg printed it. The LFs that pass add up to all of them.
    """
    end, searched = _stats_start(data)
    files = data.count(b"\n", 0, end)
    if not files:
        return Census(data, 0, 0, searched, []) if not end else None
    head = os.fsencode(operand(target)).replace(b"/", b"\0")
    # A scan of a rare term: nearly every record is a zero, and these are counted at C
    # speed; the few with a match are found by their `:` and checked one by one.
    zeros = data.count(_ZERO_END + head, 0, end) + data.startswith(_ZERO_END, end - 3, end)
    ends = list(_MATCHED_END.finditer(data, 0, end))
    if (
        zeros + len(ends) != files
        or not data.startswith(head)
        or not all(m.end() == end or data.startswith(head, m.end()) for m in ends)
    ):
        return None
    return Census(data, end, files, searched, ends)


def parse_plain_census(data: bytes) -> Census:
    """The census of a run with `/` as the separator and NUL after each path
    (`census_argv(..., plain=True)`), its records checked as `parse_count_records` checks them."""
    end, searched = _stats_start(data)
    return _PlainCensus(parse_count_records(data[:end]), searched)


class _PlainCensus(Census):
    """A census whose paths may hold LF: kept as parsed records."""

    def __init__(self, records: list[tuple[bytes, int]], searched: int) -> None:
        super().__init__(b"", 0, len(records), searched, [])
        self._records = records

    def matched(self) -> list[tuple[bytes, int]]:
        return [(p, n) for p, n in self._records if n]

    def read(self) -> set[bytes]:
        return {p for p, _ in self._records}


def take_census(rg: str, query: Query, target: str, launch: Launch = HERE) -> tuple[Census, RgSaid]:
    """One census run; again with `/` as the separator if a name holds a LF."""
    given = launch.operand(target)
    output, said = run_to_end(census_argv(rg, query, given), launch)
    census = parse_census(output, given)
    if census is None:
        output, said = run_to_end(census_argv(rg, query, given, plain=True), launch)
        census = parse_plain_census(output)
    return census, said._replace(binary=census.binary)


def binary_names(
    rg: str,
    target: str,
    census: Census,
    said: RgSaid,
    launch: Launch = HERE,
    *,
    options: SearchOptions = DEFAULT_OPTIONS,
) -> list[bytes]:
    """The binary files of a census by name: the files `rg --files` walks to (with the
    census's `options`) that rg neither counted nor reported it could not read (as rg
    displays a name, lossily)."""
    if not census.binary:
        return []
    output, _ = run_to_end(files_argv(rg, launch.operand(target), options), launch)
    read = census.read()
    walked = [path for path in output.split(b"\0")[:-1] if path not in read]
    if len(walked) == census.binary:
        return walked
    failed = failed_paths(said.log)
    return [
        path
        for path in walked
        if not any(message.startswith(_displayed(path) + b": ") for message in failed)
    ]


def _displayed(path: bytes) -> bytes:
    return path.decode("utf-8", "replace").encode("utf-8")


def count_files(
    rg: str, query: Query, target: str, *, cap: int, launch: Launch = HERE, census: bool = True
) -> Tally:
    """Counts in rg's path order, cut at `cap` as a path-ordered scan would stop.

    rg runs without `--sort=path` (which would make it single-threaded) and every file
    is counted; sorting the counts by path and cutting at the cap gives exactly the
    Tally of a path-ordered scan stopped at the cap (tests hold it to `tally_from_json`).
    Without `census`, rg prints only the files with a match (`rg --count`) and the binary
    files are not counted (`binary` 0): where no answer says them (D45).
    """
    launch = launch.walking(target)
    if not census:
        return _matched_only(rg, query, target, cap=cap, launch=launch)
    return _census_count(rg, query, target, cap=cap, launch=launch)


def _matched_only(rg: str, query: Query, target: str, *, cap: int, launch: Launch) -> Tally:
    given = launch.operand(target)
    output, said = run_to_end(count_argv(rg, query, given, sort=False), launch)
    found = parse_counts(output)
    if query.filters.active:
        searched = kept_by_filters(query, target, given)
        found = [item for item in found if searched(item[0])]
    said = said._replace(binary=0)
    return cut_at_cap(in_path_order(found), target, said, cap=cap, binary=[], given=given)


def _census_count(rg: str, query: Query, target: str, *, cap: int, launch: Launch) -> Tally:
    census, said = take_census(rg, query, target, launch)
    found = census.matched()
    binary: list[bytes] | None = None
    given = launch.operand(target)
    if query.filters.active:
        searched = kept_by_filters(query, target, given)
        found = [item for item in found if searched(item[0])]
        named = binary_names(rg, target, census, said, launch, options=query.options)
        binary = [path for path in named if searched(path)]
    ordered = in_path_order(found)
    tally = cut_at_cap(ordered, target, said, cap=cap, binary=binary or [], given=given)
    if binary is None:
        if not tally.capped:
            return tally._replace(binary=census.binary)
        binary = binary_names(rg, target, census, said, launch, options=query.options)
    if not tally.capped:
        return tally._replace(binary=len(binary))
    # The binary files a path-ordered scan meets before it stops in its last file.
    last = rg_path_order(ordered[len(tally.files) - 1][0])
    return tally._replace(binary=sum(1 for path in binary if rg_path_order(path) < last))


def kept_by_filters(query: Query, target: str, given: str | None = None) -> Callable[[bytes], bool]:
    """Whether a path rg printed under `target` (handed to rg as `given`, default
    itself) is one the filters keep (D30). rg prints the path from the working
    directory, the form the filters match; the target's own components are not the
    walk's to exclude. A file named as the target was checked before the search."""
    printed = operand(target)
    keeps = query.filters.keeper(printed)
    handed = operand(target if given is None else given)

    def kept(path: bytes) -> bool:
        name = path.decode("utf-8", "surrogateescape")
        if handed != printed:
            name = as_typed(name, target, handed)
        return name == printed or keeps(name)

    return kept


def cut_at_cap(
    found: Iterable[tuple[bytes, int]],
    target: str,
    said: RgSaid,
    *,
    cap: int,
    binary: list[bytes] | None = None,
    binary_order: list[bytes] | None = None,
    given: str | None = None,
) -> Tally:
    """The Tally of a scan of `found` (paths as rg printed them, with their matching
    lines, in rg's path order) stopped once `cap` lines are met; `binary`: the binary
    files rg met that count (the filters' share of them), default all; `binary_order`:
    their `rg_path_order` keys, sorted (a caller cutting many scans makes them once)."""
    scanned = found if isinstance(found, list) else list(found)
    counts = list(map(itemgetter(1), scanned))
    # The scan stops in the first file where the running total reaches the cap, with
    # that file's share of it (the counts are never negative: the totals only grow).
    end = bisect_left(list(accumulate(counts)), cap)
    last: bytes | None = None
    if end < len(scanned):
        counts = counts[: end + 1]
        counts[end] = cap - sum(counts[:end])
        last = rg_path_order(scanned[end][0])
        scanned = scanned[: end + 1]
    names = _decoded(list(map(itemgetter(0), scanned)))
    files = list(map(_file_count, zip(names, counts, strict=True)))
    if operand(target if given is None else given) != target:
        files = [FileCount(as_typed(f.path, target, given), f.matches) for f in files]
    return Tally(
        files=tuple(files),
        capped=last is not None,
        skipped=said.skipped,
        binary=(
            bisect_left(binary_order, last)
            if binary_order is not None and last is not None
            else binary_met(said, last, binary)
        ),
    )


_file_count = functools.partial(tuple.__new__, FileCount)
"""`FileCount` of a (path, matches) pair made in C, as its own `__new__` makes it
(`tuple.__new__`), without that Python call: tens of thousands a survey."""


def _decoded(paths: list[bytes]) -> list[str]:
    """Each path as `os.fsdecode` makes it (surrogate escapes for undecodable bytes),
    minus its cost: one decode of all joined by NUL, a byte no path holds and which
    ends any undecodable sequence before it, as the end of a path does."""
    names = b"\0".join(paths).decode("utf-8", "surrogateescape").split("\0")
    return names if paths else []


def binary_met(said: RgSaid, last: bytes | None, paths: list[bytes] | None = None) -> int:
    """The binary files a path-ordered scan meets before it stops in the file `last`
    (a `rg_path_order` key; None: it never stops); `paths`: only these (filtered)."""
    if last is None:
        return said.binary if paths is None else len(paths)
    met = said.binary_paths() if paths is None else paths
    return sum(1 for path in met if rg_path_order(path) < last)
