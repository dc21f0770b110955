"""The real `Searcher`: ripgrep, resolved once per process."""

import os
import stat

from asrch.domain.counting import Tally
from asrch.domain.lines import FileScan, FileWindow
from asrch.domain.ports import PathKind
from asrch.domain.query import Query
from asrch.engine.binary import resolve_rg
from asrch.engine.counts import count_files
from asrch.engine.files import read_window, scan_file


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

    def count(self, query: Query, target: str, *, cap: int) -> Tally:
        return count_files(self.rg, query, target, cap=cap)

    def scan(self, query: Query, file: str, *, context: int, keep: int, cap: int) -> FileScan:
        return scan_file(self.rg, query, file, context=context, keep=keep, cap=cap)

    def window(self, query: Query, file: str, *, line: int, context: int) -> FileWindow:
        return read_window(self.rg, query, file, line=line, context=context)
