"""The real `Searcher`: ripgrep, resolved once per process."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from asrch.domain.ports import PathKind, PathStatus
from asrch.engine.binary import resolve_rg

if TYPE_CHECKING:
    from collections.abc import Sequence

    from asrch.domain.counting import Tally
    from asrch.domain.lines import FileScan, FileWindow
    from asrch.domain.query import Query

# The plans are imported by the operation that runs them: `scout` never loads the JSON
# parsers or a thread pool (and its `logging`), which start-up would otherwise pay for.


def _can_read(path: str, mode: int) -> str | None:
    """Why rg could not read `path`, or None. A directory must list and be entered."""
    try:
        if stat.S_ISDIR(mode):
            os.close(os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)))
            # Entering it needs search (x) permission, which listing does not.
            os.stat(os.path.join(path, "."))
        else:
            os.close(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


class RipgrepSearcher:
    def __init__(self, rg: str | None = None) -> None:
        self._rg = rg

    @property
    def rg(self) -> str:
        if self._rg is None:
            self._rg = resolve_rg()
        return self._rg

    def inspect(self, path: str) -> PathStatus:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            return PathStatus(PathKind.MISSING)
        except OSError as exc:
            # ENOTDIR (`FILE/`), ELOOP, ENAMETOOLONG, EACCES on a parent…: say which.
            return PathStatus(PathKind.UNREADABLE, exc.strerror or str(exc))
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            return PathStatus(PathKind.SPECIAL)
        reason = _can_read(path, mode)
        if reason is not None:
            return PathStatus(PathKind.UNREADABLE, reason)
        return PathStatus(PathKind.DIRECTORY if stat.S_ISDIR(mode) else PathKind.FILE)

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
