"""The real `Searcher`: ripgrep, resolved once per process."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from asrch.domain.ports import PathKind
from asrch.engine.binary import resolve_rg

if TYPE_CHECKING:
    from collections.abc import Sequence

    from asrch.domain.counting import Tally
    from asrch.domain.lines import FileScan, FileWindow
    from asrch.domain.query import Query

# The plans are imported by the operation that runs them: `scout` never loads the JSON
# parsers or a thread pool (and its `logging`), which start-up would otherwise pay for.


class RipgrepSearcher:
    def __init__(self, rg: str | None = None) -> None:
        self._rg = rg

    @property
    def rg(self) -> str:
        if self._rg is None:
            self._rg = resolve_rg()
        return self._rg

    def inspect(self, path: str) -> PathKind:
        try:
            mode = os.stat(path).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return PathKind.MISSING
        except OSError:
            # Unreadable but present: rg will report it, and it is counted as skipped.
            return PathKind.DIRECTORY
        if stat.S_ISDIR(mode):
            return PathKind.DIRECTORY
        if stat.S_ISREG(mode):
            return PathKind.FILE
        return PathKind.SPECIAL

    def resolve(self, path: str) -> str:
        return os.path.realpath(path)

    def count_many(self, searches: Sequence[tuple[Query, str]], *, cap: int) -> list[Tally]:
        """Several counting rg children at once, one per (query, target), results in order."""
        from concurrent.futures import ThreadPoolExecutor

        from asrch.engine.counts import count_files
        from asrch.engine.process import kill_all

        rg = self.rg
        if len(searches) <= 1:
            return [count_files(rg, q, t, cap=cap) for q, t in searches]
        workers = min(len(searches), max(2, os.cpu_count() or 2))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(count_files, rg, q, t, cap=cap) for q, t in searches]
            try:
                return [f.result() for f in futures]
            except BaseException:
                for future in futures:
                    future.cancel()
                kill_all()
                raise

    def count(self, query: Query, target: str, *, cap: int) -> Tally:
        from asrch.engine.counts import count_files

        return count_files(self.rg, query, target, cap=cap)

    def scan(self, query: Query, file: str, *, context: int, keep: int, cap: int) -> FileScan:
        from asrch.engine.files import scan_file

        return scan_file(self.rg, query, file, context=context, keep=keep, cap=cap)

    def window(self, query: Query, file: str, *, line: int, context: int) -> FileWindow:
        from asrch.engine.files import read_window

        return read_window(self.rg, query, file, line=line, context=context)
