"""The survey plan: the tree read once for every term, each line judged by rg per term,
the two at once.

1. One rg run over the directory, in path order (`lines_argv`: `--sort=path`), prints
   each line that matches any of the terms, grouped per file, into a pipe. asrch reads
   it as rg writes it (`BlockReader`) and gathers whole files into batches.
2. Each batch goes into a scratch file, and per term still under the cap, rg searches
   it and prints the numbers of the lines the term matches alone, stopping at the
   lines the term still needs (`--max-count`). Batches are judged on a thread pool
   while rg walks on: on 2 cores, the walk and the judging overlap.
3. Once every term has its 50,000 lines, rg is stopped: the rest of the tree cannot
   change an answer cut at the cap.

The lines are the bytes rg matched, one a line, and every mode matches within a line,
so rg's verdict on a line there is its verdict in the file: no matcher of asrch's has
to agree with rg's (word boundaries, Unicode, invalid bytes). In path order and cut at
the cap (`cut_at_cap`), each term's numbers are its own path-ordered scan stopped at the
cap (D9); the tests hold each Tally to a separate rg run per term.

Memory is bounded by the batches, not by the tree: asrch holds at most 2 batches being
judged and one being gathered (each at most `_BATCH_MAX` bytes, plus one file's lines),
a record per matching file, and per term a count per file. rg writes into a pipe, so
when the judging falls behind, rg waits instead of the scratch growing.
"""

import os
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import repeat
from typing import IO

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import judge_lines_argv, lines_argv
from asrch.engine.counts import count_files, cut_at_cap, kept_by_filters
from asrch.engine.process import HERE, Launch, RgRun, run_to_end, scratch_for_child
from asrch.engine.stderr import RgSaid

_BATCH_FIRST = 4 << 20
"""The first batch: a tree with fewer matched lines is judged in one batch, with one rg
run per term (smaller first batches cost more runs than the overlap saved, measured on
the stdlib copies of the large bench); the next is twice as big, up to `_BATCH_MAX`."""
_BATCH_MAX = 8 << 20
"""Bounds memory: 2 batches being judged and one being gathered, ≤ 24 MB of scratch
(≈90 MB RSS + scratch with rg's children on 576 MB of one repeated line)."""
_IN_FLIGHT = 2
"""Batches being judged at once; the reader waits (and rg with it) beyond that."""

# rg's line printer, on a binary file it stopped reading at a NUL after some matching
# lines, ends the file's lines with this one (`PATH: WARNING: …`).
_BINARY_WARNING = re.compile(
    rb': WARNING: stopped searching binary file after match \(found "\\0" byte around '
    rb"offset [0-9]+\)"
)
# `--max-columns=1` (judge_lines_argv): every matching line is printed as its number and
# this, whatever its length.
_JUDGED = b":[Omitted long matching line]\n"


Piece = tuple[bytes, ...]
"""Whole lines of one file, in one or more parts (a line that came in many chunks is
never joined: its parts go to the scratch file as they are)."""


class BlockReader:
    """rg's `--heading --null` output, fed in chunks, as (path, lines, count, ends)
    pieces: whole lines of one file, how many, and whether the file's lines end there.

    A file is `PATH NUL`, its matched lines (each non-empty, LF-ended), and, before the
    next file, an empty line. A path may hold any byte but NUL, newlines included, so
    it is read up to its NUL; a line may not be empty, so an empty line is a separator.
    One file may come in several pieces, one after another; a piece never splits a line.
    A chunk that completes nothing is kept aside; a line of 200 MB costs its length,
    not its length squared, and is never copied into one string.
    """

    def __init__(self) -> None:
        self._pending: list[bytes] = []
        """Bytes after the last whole line or record read; no LF among them when a
        path is known, no NUL when not."""
        self._path: bytes | None = None

    def feed(self, chunk: bytes) -> list[tuple[bytes, Piece, int, bool]]:
        pieces: list[tuple[bytes, Piece, int, bool]] = []
        path = self._path
        if self._pending:
            if (b"\0" if path is None else b"\n") not in chunk:
                self._pending.append(chunk)
                return pieces
            if path is not None:
                # The end of a line begun in earlier chunks: those and the head of this
                # one are the piece, unjoined.
                nl = chunk.index(b"\n")
                ends = chunk[nl + 1 : nl + 2] == b"\n"
                pieces.append((path, (*self._pending, chunk[: nl + 1]), 1, ends))
                self._pending = []
                chunk = chunk[nl + 2 :] if ends else chunk[nl + 1 :]
                if ends:
                    path = None
                buf = chunk
            else:
                self._pending.append(chunk)
                buf = b"".join(self._pending)
                self._pending = []
        else:
            buf = chunk
        find = buf.find
        count = buf.count
        pos = 0
        end = len(buf)
        while pos < end:
            if path is None:
                nul = find(b"\0", pos)
                if nul < 0:
                    break
                path = buf[pos:nul]
                pos = nul + 1
            elif buf[pos] == 0x0A:
                # The separator came first in a chunk: the file ended with the piece
                # before.
                pieces.append((path, (), 0, True))
                path = None
                pos += 1
            elif (nl := find(b"\n", pos)) >= 0 and (stop := find(b"\n\n", nl)) >= 0:
                # (the LF search first: memchr-fast over a long line)
                pieces.append((path, (buf[pos : stop + 1],), count(b"\n", pos, stop + 1), True))
                path = None
                pos = stop + 2
            else:
                last = buf.rfind(b"\n", pos)
                if last >= 0:
                    piece = buf[pos : last + 1]
                    pieces.append((path, (piece,), count(b"\n", pos, last + 1), False))
                    pos = last + 1
                break
        if pos < end:
            self._pending.append(buf[pos:])
        self._path = path
        return pieces

    def close(self) -> None:
        if self._pending:
            raise EngineError(
                "rg's output ended inside a record; check that ASRCH_RG points at ripgrep 14"
            )


def judged_lines(output: bytes) -> list[int]:
    """The line numbers rg printed for `judge_lines_argv`, in its order."""
    records = output.split(_JUDGED)
    if records.pop() != b"":
        raise EngineError(
            "rg printed a line record asrch cannot read; check that ASRCH_RG points at ripgrep 14"
        )
    try:
        return list(map(int, records))
    except ValueError:
        raise EngineError(
            "rg printed a line record asrch cannot read; check that ASRCH_RG points at ripgrep 14"
        ) from None


def lines_per_file(
    rg: str, query: Query, lines: str, file_of_line: list[int], *, cap: int, launch: Launch = HERE
) -> "Counter[int]":
    """How many of the `lines` (a file of matched lines) `query` matches, per file,
    up to the first `cap` of them."""
    output, _ = run_to_end(judge_lines_argv(rg, query, lines, cap=cap), launch)
    return Counter(map(file_of_line.__getitem__, judged_lines(output)))


class _Batch:
    """Whole files' lines, gathered in path order, then judged per term."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []
        self.size = 0
        self.file_of_line = [-1]
        """Line N of the batch (from 1) is from file number file_of_line[N]."""
        self.scratch: IO[bytes] | None = None
        self.judged: list[tuple[int, Future[Counter[int]]]] = []
        """(term, its counts per file) for each term judged on this batch."""

    def add(self, index: int, parts: list[bytes], lines: int) -> None:
        self.pieces += parts
        self.size += len(parts[0]) if len(parts) == 1 else sum(map(len, parts))
        self.file_of_line += repeat(index, lines)

    def write(self) -> str:
        self.scratch, path = scratch_for_child()
        self.scratch.writelines(self.pieces)
        self.scratch.flush()
        self.pieces = []
        return path

    def wait(self) -> None:
        try:
            for _, future in self.judged:
                future.result()
        finally:
            self.close()

    def close(self) -> None:
        if self.scratch is not None:
            self.scratch.close()
            self.scratch = None


class _Judge:
    """The terms' counts per file, batch after batch, each term up to its cap."""

    def __init__(
        self,
        rg: str,
        queries: Sequence[Query],
        *,
        cap: int,
        launch: Launch,
        pool: ThreadPoolExecutor,
    ) -> None:
        self._rg = rg
        self._queries = queries
        self._cap = cap
        self._launch = launch
        self._pool = pool
        self.found: list[list[Counter[int]]] = [[] for _ in queries]
        """Per term, its counts per file, one Counter per batch judged, in batch order."""
        self._sure = [0] * len(queries)
        """Per term, matching lines in the batches judged to the end, all before any
        batch still to judge: a lower bound of what precedes the next batch."""
        self._flight: list[_Batch] = []

    def all_capped(self) -> bool:
        return all(n >= self._cap for n in self._sure)

    def submit(self, batch: _Batch) -> None:
        while len(self._flight) >= _IN_FLIGHT:
            self._land(self._flight.pop(0))
        if batch.size == 0:
            return
        path = batch.write()
        for term, query in enumerate(self._queries):
            need = self._cap - self._sure[term]
            if need <= 0:
                continue
            future = self._pool.submit(
                lines_per_file,
                self._rg,
                query,
                path,
                batch.file_of_line,
                cap=need,
                launch=self._launch,
            )
            batch.judged.append((term, future))
        self._flight.append(batch)

    def _land(self, batch: _Batch) -> None:
        batch.wait()
        for term, future in batch.judged:
            counts = future.result()
            self.found[term].append(counts)
            self._sure[term] += counts.total()

    def finish(self) -> None:
        while self._flight:
            self._land(self._flight.pop(0))

    def abandon(self) -> None:
        for batch in self._flight:
            for _, future in batch.judged:
                future.cancel()
        # Only this caller's children: a server's other calls go on.
        self._launch.stop_all()
        for batch in self._flight:
            batch.close()


def count_terms(
    rg: str, queries: Sequence[Query], target: str, *, cap: int, launch: Launch = HERE
) -> list[Tally]:
    """One Tally per query under the directory `target`, each its own path-ordered
    scan cut at `cap`: one rg run over the tree, its lines judged per query as they come."""
    # The filters (D30, one set for every term) drop files before anything is kept.
    kept = kept_by_filters(queries[0], target) if queries[0].filters.active else None
    files = _Files(kept)
    with (
        ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool,
        RgRun(lines_argv(rg, queries, target), launch, pipe_size=_PIPE) as run,
    ):
        judge = _Judge(rg, queries, cap=cap, launch=launch, pool=pool)
        try:
            _read_and_judge(run, files, judge)
        except BaseException:
            judge.abandon()
            raise
        said = run.finish()
    if not files.binary_as_logged(said):
        # A line that only looks like rg's binary warning: the per-term count plan,
        # which needs no guess.
        return [count_files(rg, q, target, cap=cap, launch=launch) for q in queries]
    binary_kept = None if kept is None else [p for p in said.binary_paths() if kept(p)]
    return [
        cut_at_cap(files.in_order(per_batch), target, said, cap=cap, binary=binary_kept)
        for per_batch in judge.found
    ]


_PIPE = 1 << 20
"""rg's pipe: a megabyte, so that rg rarely waits on a reader the load delays."""
_READ = 1 << 20


def _read_and_judge(run: RgRun, files: "_Files", judge: _Judge) -> None:
    limit = _BATCH_FIRST
    batch = _Batch()
    reader = BlockReader()
    for chunk in run.chunks(_READ):
        for path, piece, count, ends in reader.feed(chunk):
            if not ends:
                files.add(path, piece, count)
                continue
            if files.reading:
                files.add(path, piece, count)
                files.done(batch)
            else:
                # The usual case, a file's lines in one piece: no list of pieces.
                files.whole(batch, path, piece, count)
            if batch.size >= limit:
                judge.submit(batch)
                batch, limit = _Batch(), min(2 * limit, _BATCH_MAX)
                if judge.all_capped():
                    # Every term has its lines: nothing further can change an answer.
                    run.stop()
                    judge.finish()
                    return
    reader.close()
    files.done(batch)
    judge.submit(batch)
    judge.finish()


def _last_line(parts: list[bytes]) -> bytes:
    """The last line of the parts (without its LF), which may span several of them; a
    long one (no warning) as empty."""
    tail: list[bytes] = []
    size = 0
    for part in reversed(parts):
        cut = part.rfind(b"\n", 0, len(part) - 1 if not tail else len(part))
        tail.append(part[cut + 1 :])
        size += len(tail[-1])
        if cut >= 0:
            break
        if size > 8192:
            return b""
    return b"".join(reversed(tail))[:-1]


class _Files:
    """The files rg printed lines of, in its (path) order: the one being read, those
    kept (numbered, for the batches), those that looked binary."""

    def __init__(self, kept: Callable[[bytes], bool] | None) -> None:
        self._kept = kept
        self.paths: list[bytes] = []
        self.looked_binary: list[bytes] = []
        self._path = b""
        self._pieces: list[bytes] = []
        self._lines = 0

    @property
    def reading(self) -> bool:
        """Some lines of the file being read came in an earlier piece."""
        return bool(self._pieces)

    def add(self, path: bytes, piece: Piece, lines: int) -> None:
        self._path = path
        self._pieces += piece
        self._lines += lines

    def done(self, batch: _Batch) -> None:
        """The file being read has all its lines."""
        pieces, lines = self._pieces, self._lines
        self._pieces, self._lines = [], 0
        if pieces:
            self._keep(batch, self._path, pieces, lines)

    def whole(self, batch: _Batch, path: bytes, piece: Piece, lines: int) -> None:
        """A file whose lines came in one piece."""
        if piece:
            self._keep(batch, path, list(piece), lines)

    def _keep(self, batch: _Batch, path: bytes, pieces: list[bytes], lines: int) -> None:
        """Into the batch, unless the filters drop the file or rg took it for binary."""
        if self._kept is not None and not self._kept(path):
            return
        # A binary file rg met is not counted by `rg --count` even if lines before its
        # NUL matched; the line printer shows those lines and ends them with a warning.
        if pieces[-1].endswith(b")\n"):
            line = _last_line(pieces)
            if line.startswith(path) and _BINARY_WARNING.fullmatch(line, len(path)):
                self.looked_binary.append(path)
                return
        self.paths.append(path)
        batch.add(len(self.paths) - 1, pieces, lines)

    def binary_as_logged(self, said: RgSaid) -> bool:
        """The files that looked binary are those rg said were (among those kept)."""
        if not self.looked_binary and not said.binary:
            return True
        logged = set(said.binary_paths())
        return logged.issuperset(self.looked_binary) and logged.isdisjoint(self.paths)

    def in_order(self, per_batch: list["Counter[int]"]) -> Iterator[tuple[bytes, int]]:
        """A term's (path, matching lines), in path order."""
        paths = self.paths
        for counts in per_batch:
            for index, n in counts.items():
                yield paths[index], n
