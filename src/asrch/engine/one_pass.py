"""The survey plan: the tree read once for every term, each line judged by rg per term,
the two at once.

1. One rg run over the directory, in path order (`lines_argv`: `--sort=path`), prints
   each line that matches any of the terms, grouped per file, into a pipe. asrch reads
   it as rg writes it (`BlockReader`).
2. One more rg per term (`_Streams`), started with the walk, reads those lines on its
   stdin as they come, in path order, and prints the numbers of the lines its term
   matches alone, stopping at the cap (`--max-count`): a term's first 50,000 lines are
   its own path-ordered scan. The judges run while rg walks, a process each: 13 rg
   runs in all, whatever the size of the tree.
3. A line too long to pass through a pipe into 12 rg buffers (`_LONG`) is replaced
   there by an empty line (no term matches one) and judged apart: such lines gather
   into a scratch file, searched per term where it lies (`--mmap`, `_Judge`).
4. Once every term has its 50,000 lines, rg is stopped: the rest of the tree cannot
   change an answer cut at the cap.

The lines are the bytes rg matched, one a line, and every mode matches within a line,
so rg's verdict on a line there is its verdict in the file: no matcher of asrch's has
to agree with rg's (word boundaries, Unicode, invalid bytes). In path order and cut at
the cap (`cut_at_cap`), each term's numbers are its own path-ordered scan stopped at the
cap (D9); the tests hold each Tally to a separate rg run per term.

Memory is bounded by the pipes and the long lines, not by the tree: asrch holds one
file's lines, a megabyte waiting for the judges, at most 2 batches of long lines being
judged and one being gathered, a record per matching file, and per term a count per
file. When the judges fall behind, asrch waits on them, and the walking rg on asrch.
"""

import os
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice, repeat
from typing import IO

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import judge_lines_argv, lines_argv
from asrch.engine.counts import count_files, kept_by_filters
from asrch.engine.process import HERE, Launch, scratch_for_child
from asrch.engine.spots import Unspotted, count_spotted, spot_patterns
from asrch.engine.stderr import RgSaid
from asrch.engine.transport import RgCall, judged, run_to_end
from asrch.engine.walk_output import BINARY_WARNING, cut_each, said_by_walk

_FLUSH = 1 << 20
"""The judges are fed a megabyte at a time: a write per judge per megabyte."""
_JOINED = 4 << 20
"""The judges' input is joined into one write up to this size, fed in its parts past it."""
_LONG = 1 << 20
"""A line longer than this (one that came in several reads) is judged apart, where it
lies: through the pipes, each of the 12 judges would hold it in its buffer."""
_MAPPED = 1 << 22
"""Lines whose file is found in an array (4 bytes a line: ≤ 16 MB), the rest by
bisection over the files' first lines (≈5× slower a line)."""
_BATCH_FIRST = 4 << 20
"""The first batch of long lines; the next is twice as big, up to `_BATCH_MAX`."""
_BATCH_MAX = 8 << 20
"""Bounds memory: 2 batches of long lines being judged and one being gathered, ≤ 24 MB
of scratch."""
_IN_FLIGHT = 2
"""Batches being judged at once; the reader waits (and rg with it) beyond that."""

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

    def capped(self, term: int) -> bool:
        return self._sure[term] >= self._cap

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


class _Streams:
    """One rg per term judging the lines on its stdin, in path order, as they come, up
    to the cap; lines are numbered from 1 across the whole stream."""

    def __init__(self, rg: str, queries: Sequence[Query], *, cap: int, launch: Launch) -> None:
        self._judges: list[RgCall] = []
        try:
            for query in queries:
                argv = judge_lines_argv(rg, query, "-", cap=cap)
                self._judges.append(
                    launch.transport.start(argv, launch, stdin=True, pipe_size=_FLUSH)
                )
        except BaseException:
            self.kill()
            raise
        self._buffer: list[bytes] = []
        self._size = 0
        self.lines = 0
        """Lines in the stream so far, those still in the buffer included."""
        self._starts: list[int] = []
        """The number of each kept file's first line."""
        self._file_of_line = array("I", [0])
        """The file number of each of the first `_MAPPED` lines (line 0: none)."""

    @property
    def full(self) -> bool:
        return self._size >= _FLUSH

    def start(self) -> None:
        """The next lines are a new file's."""
        self._starts.append(self.lines + 1)

    def add(self, lines: bytes, count: int) -> None:
        self._buffer.append(lines)
        self._size += len(lines)
        self.lines += count
        if self.lines < _MAPPED:
            self._file_of_line.extend(repeat(len(self._starts), count))

    def flush(self) -> None:
        if not self._buffer:
            return
        parts, size = self._buffer, self._size
        self._buffer = []
        self._size = 0
        # The usual megabyte in one write a judge; a file of many megabytes of matched
        # lines (its parts held until it ends) in its parts: joined, it would be held twice.
        for data in [b"".join(parts)] if len(parts) > 1 and size <= _JOINED else parts:
            for judge in self._judges:
                judge.feed(data)

    def done(self, term: int) -> bool:
        """The term's judge has stopped reading: it has its cap of lines."""
        return not self._judges[term].reading

    def finish(self) -> list["Counter[int]"]:
        """Per term, its lines per file, by file number (from 1)."""
        self.flush()
        found = []
        for judge in self._judges:
            with judge:
                output = judge.read()
                judged(judge.argv, judge.end())
            found.append(self._per_file(judged_lines(output)))
        return found

    def _per_file(self, lines: list[int]) -> "Counter[int]":
        """`lines` (ascending) counted per file."""
        mapped = bisect_left(lines, len(self._file_of_line))
        counts = Counter(map(self._file_of_line.__getitem__, islice(lines, mapped)))
        if mapped < len(lines):
            # File k (from 1) holds the lines from starts[k - 1] on, up to starts[k].
            counts.update(map(bisect_right, repeat(self._starts), islice(lines, mapped, None)))
        return counts

    def kill(self) -> None:
        for judge in self._judges:
            judge.close()


class _Sink:
    """Where a kept file's lines go: the stream, or, a line too long for it, a batch
    of long lines (an empty line holds its place in the stream)."""

    def __init__(self, streams: _Streams, judge: _Judge) -> None:
        self.streams = streams
        self.judge = judge
        self.long = _Batch()
        self._limit = _BATCH_FIRST

    def start(self) -> None:
        self.streams.start()

    def lines(self, index: int, parts: Piece, count: int) -> None:
        if len(parts) == 1:
            self.streams.add(parts[0], count)
        else:
            self.long.add(index, list(parts), 1)
            self.streams.add(b"\n", 1)

    def pass_on(self) -> bool:
        """Send on what is gathered, once there is enough; True if the stream was fed."""
        if self.long.size >= self._limit:
            self.judge.submit(self.long)
            self.long, self._limit = _Batch(), min(2 * self._limit, _BATCH_MAX)
        if self.streams.full:
            self.streams.flush()
            return True
        return False

    def all_capped(self, terms: int) -> bool:
        return all(self.streams.done(t) or self.judge.capped(t) for t in range(terms))

    def finish(self) -> list["Counter[int]"]:
        """Per term, its lines per file (by number), every line read so far judged."""
        self.judge.submit(self.long)
        self.judge.finish()
        found = self.streams.finish()
        for counts, per_batch in zip(found, self.judge.found, strict=True):
            for batch_counts in per_batch:
                counts.update(batch_counts)
        return found


def count_terms(
    rg: str,
    queries: Sequence[Query],
    target: str,
    *,
    cap: int,
    launch: Launch = HERE,
    census: bool = True,
) -> list[Tally]:
    """One Tally per query under the directory `target`, each its own path-ordered
    scan cut at `cap`: one rg run over the tree, its lines judged per query as they come.

    Without `census` (D45: a text answer prints the binary files only in its zero note)
    rg walks without its debug log, whose line per binary file cost the walk ≈12 % of
    its CPU on a Python installation (18,774 `.pyc`, docs/performance.md), and each
    Tally's `binary` is 0, unless no term matched here: then, and when a file looked
    binary (rg's warning after a match, which only the log can tell from a text line
    that reads the same), the walk is made again with the log."""
    plain = not census
    found_tallies = _count(rg, queries, target, cap=cap, launch=launch, log=census)
    if found_tallies is None or (plain and not any(t.files for t in found_tallies)):
        # None: a file is binary after a match, which the parallel plan would meet again.
        found_tallies = _count(
            rg, queries, target, cap=cap, launch=launch, log=True, spots=found_tallies is not None
        )
    assert found_tallies is not None
    if plain and any(t.files for t in found_tallies):
        return [t._replace(binary=0) for t in found_tallies]
    return found_tallies


def _count(
    rg: str,
    queries: Sequence[Query],
    target: str,
    *,
    cap: int,
    launch: Launch,
    log: bool,
    spots: bool = True,
) -> list[Tally] | None:
    """`count_terms` with or without rg's debug log, by the parallel plan where it fits
    and answers (`engine/spots.py`; not with `spots` false), else in path order; None:
    without the log, a file looked binary (the log is needed to tell)."""
    if spots and (patterns := spot_patterns(queries)) is not None:
        spotted = count_spotted(rg, queries, target, patterns, cap=cap, launch=launch, log=log)
        if spotted is Unspotted.BINARY and not log:
            # The path-ordered plan would meet the file too, and walk again with the log.
            return None
        if not isinstance(spotted, Unspotted):
            return spotted
    return _count_terms(rg, queries, target, cap=cap, launch=launch, log=log)


def _count_terms(
    rg: str, queries: Sequence[Query], target: str, *, cap: int, launch: Launch, log: bool
) -> list[Tally] | None:
    """`count_terms` with or without rg's debug log; None: without it, a file looked
    binary (the log is needed to tell)."""
    # The filters (D30, one set for every term) drop files before anything is kept.
    launch = launch.walking(target)
    given = launch.operand(target)
    kept = kept_by_filters(queries[0], target, given) if queries[0].filters.active else None
    files = _Files(kept)
    argv = lines_argv(rg, queries, given, log_binary=log)
    with (
        ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool,
        launch.transport.start(argv, launch, stream=True, pipe_size=_PIPE) as run,
    ):
        judge = _Judge(rg, queries, cap=cap, launch=launch, pool=pool)
        streams: _Streams | None = None
        try:
            streams = _Streams(rg, queries, cap=cap, launch=launch)
            sink = _Sink(streams, judge)
            printed = _read(run, files, sink, len(queries))
            found = sink.finish()
        except BaseException:
            if streams is not None:
                streams.kill()
            # Also kills a judge that a signal cut off while it was being started.
            judge.abandon()
            raise
        ended = run.end()
    said = said_by_walk(argv, ended, printed=printed, log=log)
    if not log and files.looked_binary:
        return None
    # Read from rg's log once (4 MB on a Python installation's 18,774 `.pyc` files), put
    # in path order once: each term cut at the cap counts those before its last file.
    binary = said.binary_paths() if said.binary else []
    if not files.binary_as_logged(said, binary):
        # A line that only looks like rg's binary warning: the per-term count plan,
        # which needs no guess.
        return [count_files(rg, q, target, cap=cap, launch=launch) for q in queries]
    return cut_each(
        (files.in_order(counts) for counts in found),
        target,
        said,
        binary,
        kept=kept,
        cap=cap,
        given=given,
    )


_PIPE = 1 << 20
"""rg's pipe: a megabyte, so that rg rarely waits on a reader the load delays."""
_READ = 1 << 20


def _read(run: RgCall, files: "_Files", sink: _Sink, terms: int) -> bool:
    """Hand each file's lines to the sink; whether rg printed anything."""
    reader = BlockReader()
    printed = False
    for chunk in run.chunks(_READ):
        printed = True
        for path, parts, count, ends in reader.feed(chunk):
            # A short line that came in several reads: one part like the others.
            piece = (b"".join(parts),) if len(parts) > 1 and _short(parts) else parts
            if not ends:
                files.add(path, piece, count)
                continue
            if files.reading:
                files.add(path, piece, count)
                files.done(sink)
            else:
                # The usual case, a file's lines in one piece: no list of pieces.
                files.whole(sink, path, piece, count)
            if sink.pass_on() and sink.all_capped(terms):
                # Every term has its lines: nothing further can change an answer.
                run.stop()
                return True
    reader.close()
    files.done(sink)
    return printed


def _short(parts: Piece) -> bool:
    return sum(map(len, parts)) <= _LONG


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
    kept (numbered, for the judges), those that looked binary."""

    def __init__(self, kept: Callable[[bytes], bool] | None) -> None:
        self._kept = kept
        self.paths: list[bytes] = []
        self.looked_binary: list[bytes] = []
        self._path = b""
        self._pieces: list[tuple[Piece, int]] = []

    @property
    def reading(self) -> bool:
        """Some lines of the file being read came in an earlier piece."""
        return bool(self._pieces)

    def add(self, path: bytes, piece: Piece, lines: int) -> None:
        self._path = path
        if piece:
            self._pieces.append((piece, lines))

    def done(self, sink: _Sink) -> None:
        """The file being read has all its lines."""
        pieces, self._pieces = self._pieces, []
        if pieces:
            self._keep(sink, self._path, pieces)

    def whole(self, sink: _Sink, path: bytes, piece: Piece, lines: int) -> None:
        """A file whose lines came in one piece."""
        if piece:
            self._keep(sink, path, [(piece, lines)])

    def _keep(self, sink: _Sink, path: bytes, pieces: list[tuple[Piece, int]]) -> None:
        """To the judges, unless the filters drop the file or rg took it for binary."""
        if self._kept is not None and not self._kept(path):
            return
        # A binary file rg met is not counted by `rg --count` even if lines before its
        # NUL matched; the line printer shows those lines and ends them with a warning.
        if pieces[-1][0][-1].endswith(b")\n"):
            line = _last_line([part for piece, _ in pieces for part in piece])
            if line.startswith(path) and BINARY_WARNING.fullmatch(line, len(path)):
                self.looked_binary.append(path)
                return
        self.paths.append(path)
        index = len(self.paths)  # from 1
        sink.start()
        for piece, lines in pieces:
            sink.lines(index, piece, lines)

    def binary_as_logged(self, said: RgSaid, logged_paths: list[bytes]) -> bool:
        """The files that looked binary are those rg said were (among those kept);
        `logged_paths`: `said.binary_paths()`."""
        if not self.looked_binary and not said.binary:
            return True
        logged = set(logged_paths)
        return logged.issuperset(self.looked_binary) and logged.isdisjoint(self.paths)

    def in_order(self, counts: "Counter[int]") -> Iterator[tuple[bytes, int]]:
        """A term's (path, matching lines), in path order; `counts` by file number."""
        paths = self.paths
        for number in sorted(counts):
            yield paths[number - 1], counts[number]
