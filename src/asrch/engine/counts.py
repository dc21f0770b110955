"""The counting plan: `rg --count --with-filename --null`, parsed and put in path order."""

import re
from collections.abc import Callable, Iterable

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import as_typed, count_argv, operand
from asrch.engine.process import HERE, Launch, run_to_end
from asrch.engine.stderr import RgSaid

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


def rg_path_order(path: bytes) -> bytes:
    """A key in rg's `--sort=path` order: Rust's `Path` comparison, component by
    component. With each `/` as NUL, the lowest byte and one no path holds, comparing
    the bytes compares the component lists."""
    return path.replace(b"/", b"\0")


def in_path_order(found: list[tuple[bytes, int]]) -> list[tuple[bytes, int]]:
    """`found` sorted by `rg_path_order` of its paths.

    The keys are made in three C calls instead of a call per path: the paths joined by
    NUL (which no path holds), each `/` made \\x01, split again. \\x01 sorts like NUL
    only when no path holds \\x01 itself; otherwise the plain key is used.
    """
    if not found:
        return []
    joined = b"\0".join([path for path, _ in found])
    if b"\x01" in joined:
        return sorted(found, key=lambda item: rg_path_order(item[0]))
    keys = joined.replace(b"/", b"\x01").split(b"\0")
    return [found[i] for i in sorted(range(len(keys)), key=keys.__getitem__)]


def count_files(rg: str, query: Query, target: str, *, cap: int, launch: Launch = HERE) -> Tally:
    """Counts in rg's path order, cut at `cap` as a path-ordered scan would stop.

    rg runs without `--sort=path` (which would make it single-threaded) and every file
    is counted; sorting the counts by path and cutting at the cap gives exactly the
    Tally of a path-ordered scan stopped at the cap (tests hold it to `tally_from_json`).
    """
    output, said = run_to_end(count_argv(rg, query, target, sort=False), launch)
    found = parse_count_records(output)
    binary = None
    if query.filters.active:
        searched = kept_by_filters(query, target)
        found = [item for item in found if searched(item[0])]
        binary = [path for path in said.binary_paths() if searched(path)]
    return cut_at_cap(in_path_order(found), target, said, cap=cap, binary=binary)


def kept_by_filters(query: Query, target: str) -> Callable[[bytes], bool]:
    """Whether a path rg printed under `target` is one the filters keep (D30). rg prints
    the path from the working directory, the form the filters match; the target's own
    components are not the walk's to exclude. A file named as the target was checked
    before the search."""
    printed = operand(target)
    keeps = query.filters.keeper(printed)

    def kept(path: bytes) -> bool:
        name = path.decode("utf-8", "surrogateescape")
        return name == printed or keeps(name)

    return kept


def cut_at_cap(
    found: Iterable[tuple[bytes, int]],
    target: str,
    said: RgSaid,
    *,
    cap: int,
    binary: list[bytes] | None = None,
) -> Tally:
    """The Tally of a scan of `found` (paths as rg printed them, with their matching
    lines, in rg's path order) stopped once `cap` lines are met; `binary`: the binary
    files rg met that count (the filters' share of them), default all."""
    files: list[FileCount] = []
    total = 0
    last: bytes | None = None
    for path, n in found:
        kept = min(n, cap - total)
        # os.fsdecode's scheme (surrogate escapes for undecodable bytes), minus its cost.
        files.append(FileCount(path.decode("utf-8", "surrogateescape"), kept))
        total += kept
        if total >= cap:
            last = rg_path_order(path)
            break
    if operand(target) != target:
        files = [FileCount(as_typed(f.path, target), f.matches) for f in files]
    return Tally(
        files=tuple(files),
        capped=last is not None,
        skipped=said.skipped,
        binary=binary_met(said, last, binary),
    )


def binary_met(said: RgSaid, last: bytes | None, paths: list[bytes] | None = None) -> int:
    """The binary files a path-ordered scan meets before it stops in the file `last`
    (a `rg_path_order` key; None: it never stops); `paths`: only these (filtered)."""
    if last is None:
        return said.binary if paths is None else len(paths)
    met = said.binary_paths() if paths is None else paths
    return sum(1 for path in met if rg_path_order(path) < last)
