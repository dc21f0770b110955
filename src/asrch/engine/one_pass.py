"""The survey plan: one rg run per directory with every term, lines attributed per term.

rg reads the tree once and prints each line that matches any term, grouped per file
(`lines_argv`); `attribution` counts each term's lines in those, exactly as rg would
alone. Per term, the files are then put in rg's path order and cut at the cap: the
Tally of that term's own path-ordered scan stopped at the cap (D9), which the tests
hold to a separate `rg --count` per term.

Memory is bounded by the files that match (a row of counts each), not by the lines:
rg's output is read in pipe-sized chunks and dropped once attributed.
"""

import bisect
import subprocess
from collections.abc import Iterator, Sequence

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import lines_argv, pattern_args
from asrch.engine.attribution import UNCERTAIN, counters
from asrch.engine.counts import cut_at_cap, rg_path_order
from asrch.engine.process import RgRun

# Word-mode pieces with non-ASCII bytes, held until this many bytes go to rg at once.
_UNCERTAIN_BATCH = 1 << 22


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


class _Uncertain:
    """Word-mode pieces only rg can judge, per term, sent to rg in batches via stdin."""

    def __init__(self, rg: str, queries: Sequence[Query]) -> None:
        self._rg = rg
        self._queries = queries
        self._held: dict[int, list[tuple[list[int], bytes]]] = {}
        self._bytes = 0

    def add(self, term: int, row: list[int], piece: bytes) -> None:
        self._held.setdefault(term, []).append((row, piece))
        self._bytes += len(piece)
        if self._bytes >= _UNCERTAIN_BATCH:
            self.flush()

    def flush(self) -> None:
        for term, pieces in self._held.items():
            judged = self._judge(self._queries[term], [piece for _, piece in pieces])
            for (row, _), n in zip(pieces, judged, strict=True):
                row[term] += n
        self._held.clear()
        self._bytes = 0

    def _judge(self, query: Query, pieces: list[bytes]) -> list[int]:
        """Matching lines of each piece, as rg counts them (line numbers of its matches)."""
        starts = [0]
        for piece in pieces:
            starts.append(starts[-1] + piece.count(b"\n"))
        argv = [
            self._rg,
            "--no-config",
            "--line-number",
            "--only-matching",
            "--replace=",
            *pattern_args(query),
            "--",
            "-",
        ]
        done = subprocess.run(argv, input=b"".join(pieces), capture_output=True, check=False)
        if done.returncode not in (0, 1):
            raise EngineError(f"error: rg failed with exit status {done.returncode}")
        lines = {int(rec.partition(b":")[0]) for rec in done.stdout.splitlines()}
        counts = [0] * len(pieces)
        for line in lines:
            counts[bisect.bisect_left(starts, line) - 1] += 1
        return counts


def count_terms(rg: str, queries: Sequence[Query], target: str, *, cap: int) -> list[Tally]:
    """One Tally per query under the directory `target`, each its own path-ordered
    scan cut at `cap`, from one rg run."""
    count = counters(queries)
    width = len(count)
    rows: dict[bytes, list[int]] = {}
    uncertain = _Uncertain(rg, queries)
    reader = BlockReader()
    argv = lines_argv(rg, queries, target)
    with RgRun(argv, pipe_size=1 << 20) as run:
        for chunk in run.chunks(1 << 20):
            for path, piece in reader.feed(chunk):
                row = rows.get(path)
                if row is None:
                    row = rows[path] = [0] * width
                for term, counter in enumerate(count):
                    n = counter(piece)
                    if n == UNCERTAIN:
                        uncertain.add(term, row, piece)
                    else:
                        row[term] += n
        said = run.finish()
    reader.close()
    uncertain.flush()
    # A binary file rg met is not counted by `rg --count` even if lines before its NUL
    # matched; the line printer shows those lines (and a warning), so they go.
    for path in said.binary_paths() if said.binary else ():
        rows.pop(path, None)
    order = sorted(rows, key=rg_path_order)
    return [
        cut_at_cap([(p, rows[p][term]) for p in order if rows[p][term]], target, said, cap=cap)
        for term in range(width)
    ]
