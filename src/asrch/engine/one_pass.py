"""The survey plan: the tree read once for every term, each line judged by rg per term.

1. One rg run over the directory prints each line that matches any of the terms,
   grouped per file (`lines_argv`), into a scratch file; asrch reads it in pieces,
   notes which file each line is from, and writes the lines alone into batches.
2. Per term, rg searches that scratch file (the matched lines only, a tenth of the
   tree or less) and prints the numbers of the lines the term matches alone.

The lines are the bytes rg matched, one a line, and every mode matches within a line,
so rg's verdict on a line there is its verdict in the file: no matcher of asrch's has
to agree with rg's (word boundaries, Unicode, invalid bytes). Per term, the files are
then put in rg's path order and cut at the cap: the Tally of that term's own
path-ordered scan stopped at the cap (D9); the tests hold it to a separate rg run per
term.

The lines go to rg in batches of `_BATCH` bytes, each judged on the thread pool (while
the next is filled) and dropped; asrch itself holds a batch's line index and a count
per (term, matching file), never the lines (they sit in unnamed scratch files).
"""

import os
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import repeat

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import lines_argv, pattern_args
from asrch.engine.counts import cut_at_cap, rg_path_order
from asrch.engine.process import kill_all, run_to_end, run_to_file, scratch_for_child

# Matched lines judged per batch: a few rg runs per term on a big tree, and bounded
# memory (a scratch file of this size, a list entry a line) on any tree.
_BATCH = 16 << 20
_READ = 1 << 20


class BlockReader:
    """rg's `--heading --null` output, fed in chunks, as (path, whole lines) pieces.

    A file is `PATH NUL`, its matched lines (each non-empty, LF-ended), and, before the
    next file, an empty line. A path may hold any byte but NUL, newlines included, so
    it is read up to its NUL; a line may not be empty, so an empty line is a separator.
    One file may come in several pieces; a piece never splits a line.
    """

    def __init__(self) -> None:
        self._rest = b""
        self._path: bytes | None = None

    def feed(self, chunk: bytes) -> Iterator[tuple[bytes, bytes]]:
        buf = self._rest + chunk if self._rest else chunk
        pos = 0
        end = len(buf)
        path = self._path
        while pos < end:
            if path is None:
                nul = buf.find(b"\0", pos)
                if nul < 0:
                    break
                path = buf[pos:nul]
                pos = nul + 1
            elif buf[pos] == 0x0A:
                path = None
                pos += 1
            elif (stop := buf.find(b"\n\n", pos)) >= 0:
                yield path, buf[pos : stop + 1]
                path = None
                pos = stop + 2
            else:
                last = buf.rfind(b"\n", pos)
                if last < 0:
                    break
                yield path, buf[pos : last + 1]
                pos = last + 1
        self._rest = buf[pos:]
        self._path = path

    def close(self) -> None:
        if self._rest:
            raise EngineError(
                "error: rg's output ended inside a record; check that ASRCH_RG points at ripgrep 14"
            )


class _Batch:
    """Matched lines in a scratch file, and the file each is from."""

    def __init__(self) -> None:
        self.file, self.path = scratch_for_child()
        # Line N of the scratch file (from 1) is from the file numbered file_of_line[N].
        self.file_of_line: list[int] = [-1]
        self.size = 0
        self._users = 0
        self._lock = threading.Lock()

    def add(self, index: int, piece: bytes) -> None:
        self.file_of_line.extend(repeat(index, piece.count(b"\n")))
        self.file.write(piece)
        self.size += len(piece)

    def judge(
        self, pool: ThreadPoolExecutor, rg: str, queries: Sequence[Query]
    ) -> list["Future[Counter[int]]"]:
        """One rg run per query over these lines, on the pool; the file goes with the last."""
        self.file.flush()
        self._users = len(queries)
        return [pool.submit(self._judge_one, rg, q) for q in queries]

    def _judge_one(self, rg: str, query: Query) -> "Counter[int]":
        try:
            return lines_per_file(rg, query, self.path, self.file_of_line)
        finally:
            with self._lock:
                self._users -= 1
                last = self._users == 0
            if last:
                self.close()

    def close(self) -> None:
        self.file.close()
        self.file_of_line = []


def lines_per_file(rg: str, query: Query, lines: str, file_of_line: list[int]) -> "Counter[int]":
    """How many of the `lines` (a file of matched lines) `query` matches, per file."""
    argv = [
        rg,
        "--no-config",
        "--case-sensitive",
        # No binary rule: these are lines rg already searched as text.
        "--text",
        "--line-number",
        "--only-matching",
        "--replace=",
        *pattern_args(query),
        "--",
        lines,
    ]
    output, _ = run_to_end(argv)
    # `N:` once per match: a set counts a line with two matches once.
    numbers = set(map(int, output.split(b":\n")[:-1]))
    return Counter(map(file_of_line.__getitem__, numbers))


def count_terms(rg: str, queries: Sequence[Query], target: str, *, cap: int) -> list[Tally]:
    """One Tally per query under the directory `target`, each its own path-ordered
    scan cut at `cap`: one rg run over the tree, then per query over its matched lines."""
    paths: dict[bytes, int] = {}
    pending: list[list[Future[Counter[int]]]] = []
    reader = BlockReader()
    batches: list[_Batch] = []
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        try:
            batch = _Batch()
            batches.append(batch)
            output, said = run_to_file(lines_argv(rg, queries, target))
            with output:
                while chunk := output.read(_READ):
                    for path, piece in reader.feed(chunk):
                        batch.add(paths.setdefault(path, len(paths)), piece)
                    if batch.size >= _BATCH:
                        pending.append(batch.judge(pool, rg, queries))
                        batch = _Batch()
                        batches.append(batch)
            reader.close()
            if batch.size:
                pending.append(batch.judge(pool, rg, queries))
            found = [Counter[int]() for _ in queries]
            for futures in pending:
                for term, future in enumerate(futures):
                    found[term].update(future.result())
        except BaseException:
            for futures in pending:
                for future in futures:
                    future.cancel()
            kill_all()
            raise
        finally:
            for each in batches:
                each.close()
    # A binary file rg met is not counted by `rg --count` even if lines before its NUL
    # matched; the line printer shows those lines (and a warning), so they go.
    for path in said.binary_paths() if said.binary else ():
        paths.pop(path, None)
    order = sorted(paths, key=rg_path_order)
    return [
        cut_at_cap(
            ((p, per_file[paths[p]]) for p in order if paths[p] in per_file),
            target,
            said,
            cap=cap,
        )
        for per_file in found
    ]
