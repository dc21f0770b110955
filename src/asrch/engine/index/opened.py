"""An index kept open (D58): the SQLite file of a root opened for lookups, its rows read
once, kept by this process between searches while the file is unchanged (the MCP
server); and where a search target lies under it. Shared by the candidate source
(`candidates.py`) and the server's kept walk (`fresh.py`)."""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import NamedTuple

from asrch.engine.index.store import IndexUnusableError, Row, meta, open_for_reading, rows
from asrch.engine.process import Launch


class Opened:
    """An index open for lookups; its rows (a stat per file) read once, when a walk
    needs them: a query the lookup alone sends to a scan never loads them."""

    def __init__(self, db: sqlite3.Connection, texts: int) -> None:
        self.db = db
        self.texts = texts
        """The files indexed that are not binary: what a scan reads."""
        self.lock = threading.Lock()
        self._rows: dict[bytes, Row] | None = None
        self._by_doc: dict[int, bytes] | None = None

    @property
    def rows(self) -> dict[bytes, Row]:
        with self.lock:
            if self._rows is None:
                self._rows = rows(self.db)
            return self._rows

    @property
    def by_doc(self) -> dict[int, bytes]:
        """Each text file's path by its document (the server's kept walk asks)."""
        known = self.rows
        with self.lock:
            if self._by_doc is None:
                self._by_doc = {row.doc: path for path, row in known.items() if row.doc is not None}
            return self._by_doc


_OPEN: dict[str, tuple[tuple[int, int], Opened]] = {}
"""Indexes kept open by this process (the MCP server), by file, with the stamp
(mtime, size of the file and its WAL) they were read at."""
_OPEN_LOCK = threading.Lock()


def _stamp(path: str) -> tuple[int, int]:
    stamps = []
    for suffix in ("", "-wal"):
        try:
            st = os.stat(path + suffix)
            stamps.append(st.st_mtime_ns ^ st.st_size)
        except OSError:
            stamps.append(0)
    return stamps[0], stamps[1]


def kept_open(path: str) -> Opened | None:
    """The index at `path` and its rows, read again only if the file changed."""
    stamp = _stamp(path)
    with _OPEN_LOCK:
        kept = _OPEN.get(path)
        if kept is not None and kept[0] == stamp:
            return kept[1]
    db = open_for_reading(path)
    if db is None:
        return None
    try:
        if meta(db, "complete") is None:
            raise IndexUnusableError("it was never finished")
        opened = Opened(db, int(meta(db, "texts") or meta(db, "files") or 0))
    except sqlite3.Error as exc:
        db.close()
        raise IndexUnusableError(f"it cannot be read ({exc})") from None
    with _OPEN_LOCK:
        old = _OPEN.pop(path, None)
        _OPEN[path] = (stamp, opened)
    if old is not None:
        old[1].db.close()
    return opened


class Place(NamedTuple):
    """Where a search target lies: the index covering it and how rg is handed it."""

    opened: Opened
    root: str
    real: str
    launch: Launch
    given: str
    here: str
