"""The survey plan: the tree read once for every term, each line judged by rg per term.

1. One rg run over the directory (parallel) prints each line that matches any of the
   terms, grouped per file (`lines_argv`), into a scratch file. asrch reads it in
   pieces and notes where each file's lines lie; nothing else is kept.
2. The files' lines are copied, in rg's path order, into a second scratch file: the
   matched lines alone, a tenth of the tree or less.
3. Per term, rg searches that file and prints the numbers of the lines the term
   matches alone, stopping at the cap (`--max-count`: one file, so per search).

The lines are the bytes rg matched, one a line, and every mode matches within a line,
so rg's verdict on a line there is its verdict in the file: no matcher of asrch's has
to agree with rg's (word boundaries, Unicode, invalid bytes). In path order and stopped
at the cap, each term's numbers are its own path-ordered scan stopped at the cap (D9);
the tests hold each Tally to a separate rg run per term.

asrch holds a record per matching file and an entry per matched line (8 bytes), never
the lines: those sit in unnamed scratch files. A term past the cap costs its first
50,000 lines in the second stage, not all of them.
"""

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import repeat
from typing import IO

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import judge_lines_argv, lines_argv
from asrch.engine.counts import cut_at_cap, in_path_order, kept_by_filters
from asrch.engine.process import HERE, Launch, run_to_end, run_to_file, scratch_for_child

_READ = 1 << 20


class BlockReader:
    """rg's `--heading --null` output, fed in chunks, as (path, offset, length, lines)
    pieces: where in the output a run of whole lines of one file lies, and how many.

    A file is `PATH NUL`, its matched lines (each non-empty, LF-ended), and, before the
    next file, an empty line. A path may hold any byte but NUL, newlines included, so
    it is read up to its NUL; a line may not be empty, so an empty line is a separator.
    One file may come in several pieces, one after another; a piece never splits a line.
    """

    def __init__(self) -> None:
        self._rest = b""
        self._base = 0
        """Where `_rest` starts in the output."""
        self._path: bytes | None = None

    def feed(self, chunk: bytes) -> Iterator[tuple[bytes, int, int, int]]:
        buf = self._rest + chunk if self._rest else chunk
        pos = 0
        end = len(buf)
        path = self._path
        base = self._base
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
                yield path, base + pos, stop + 1 - pos, buf.count(b"\n", pos, stop + 1)
                path = None
                pos = stop + 2
            else:
                last = buf.rfind(b"\n", pos)
                if last < 0:
                    break
                yield path, base + pos, last + 1 - pos, buf.count(b"\n", pos, last + 1)
                pos = last + 1
        self._rest = buf[pos:]
        self._base = base + pos
        self._path = path

    def close(self) -> None:
        if self._rest:
            raise EngineError(
                "rg's output ended inside a record; check that ASRCH_RG points at ripgrep 14"
            )


def files_in_output(output: IO[bytes]) -> list[tuple[bytes, list[tuple[int, int, int]]]]:
    """Each file of the lines output with its pieces (offset, length, lines), in the
    order rg printed them."""
    files: list[tuple[bytes, list[tuple[int, int, int]]]] = []
    reader = BlockReader()
    while chunk := output.read(_READ):
        for path, offset, length, lines in reader.feed(chunk):
            if files and files[-1][0] == path:
                files[-1][1].append((offset, length, lines))
            else:
                files.append((path, [(offset, length, lines)]))
    reader.close()
    return files


def lines_per_file(
    rg: str, query: Query, lines: str, file_of_line: list[int], *, cap: int, launch: Launch = HERE
) -> "Counter[int]":
    """How many of the `lines` (a file of matched lines) `query` matches, per file,
    up to the first `cap` of them."""
    argv = judge_lines_argv(rg, query, lines, cap=cap)
    output, _ = run_to_end(argv, launch)
    # `N:` once per match: a set counts a line with two matches once.
    numbers = set(map(int, output.split(b":\n")[:-1]))
    return Counter(map(file_of_line.__getitem__, numbers))


def count_terms(
    rg: str, queries: Sequence[Query], target: str, *, cap: int, launch: Launch = HERE
) -> list[Tally]:
    """One Tally per query under the directory `target`, each its own path-ordered
    scan cut at `cap`: one rg run over the tree, then per query over its matched lines."""
    output, said = run_to_file(lines_argv(rg, queries, target), launch)
    with output:
        files = files_in_output(output)
        # A binary file rg met is not counted by `rg --count` even if lines before its
        # NUL matched; the line printer shows those lines (and a warning), so they go.
        binary = set(said.binary_paths()) if said.binary else set()
        # The filters (D30, one set for every term) drop files before anything is kept.
        searched = kept_by_filters(queries[0], target) if queries[0].filters.active else None
        if searched is not None:
            files = [(p, pieces) for p, pieces in files if searched(p)]
        binary_kept = None if searched is None else [p for p in binary if searched(p)]
        ordered = [path for path, _ in in_path_order([(p, 0) for p, _ in files if p not in binary])]
        pieces = dict(files)
        lines, lines_path = scratch_for_child()
        with lines:
            # Line N of `lines` (from 1) is from file ordered[file_of_line[N]].
            file_of_line = [-1]
            fd = output.fileno()
            for index, path in enumerate(ordered):
                for offset, length, count in pieces[path]:
                    lines.write(os.pread(fd, length, offset))
                    file_of_line.extend(repeat(index, count))
            lines.flush()
            del pieces, files
            found = _judge_all(rg, queries, lines_path, file_of_line, cap=cap, launch=launch)
    return [
        cut_at_cap(
            ((path, per_file[i]) for i, path in enumerate(ordered) if i in per_file),
            target,
            said,
            cap=cap,
            binary=binary_kept,
        )
        for per_file in found
    ]


def _judge_all(
    rg: str,
    queries: Sequence[Query],
    lines: str,
    file_of_line: list[int],
    *,
    cap: int,
    launch: Launch,
) -> list["Counter[int]"]:
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = [
            pool.submit(lines_per_file, rg, q, lines, file_of_line, cap=cap, launch=launch)
            for q in queries
        ]
        try:
            return [f.result() for f in futures]
        except BaseException:
            for future in futures:
                future.cancel()
            # Only this caller's children: a server's other calls go on.
            launch.stop_all()
            raise
