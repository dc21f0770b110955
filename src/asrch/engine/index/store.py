"""The index file: where it lives, its schema, and opening it for reading or writing.

One SQLite file per root, in `$XDG_CACHE_HOME/asrch/` (else `~/.cache/asrch/`), named
by a hash of the root's real path: never inside the tree. WAL mode: a search reads the
last committed state while `asrch index` writes; two writers take turns (SQLite's own
lock, waited for). Every row of `files` is one file as it was read (its stat and what
was found); a file whose stat differs now is read by rg instead, so a half-written
update can only cost time, never change an answer.

The trigram table is contentless (`content=''`, `detail=none`: positions are not
needed, rg verifies): SQLite 3.40 cannot delete a row of such a table, so a file read
again gets a new document and the old one is garbage, counted; a build rewrites the
table once the garbage outgrows the live documents.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
from typing import NamedTuple
from urllib.parse import quote

VERSION = "1"
"""The schema's version: an index of another one is ignored (and rebuilt by `asrch index`)."""

TEXT, BINARY, VERIFY = 0, 1, 2
"""A file's kind: its trigrams are indexed; it holds a NUL byte as rg reads it (rg's
walk skips it, counted as binary); a text file rg always reads (a byte-order mark, too
large to index, or changed while it was read)."""


class IndexUnusableError(Exception):
    """The index cannot be read (corrupt, locked, of another version): the reason."""


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS files(path BLOB PRIMARY KEY, size INTEGER, mtime INTEGER,"
    " ctime INTEGER, ino INTEGER, kind INTEGER, doc INTEGER)",
    "CREATE INDEX IF NOT EXISTS files_doc ON files(doc)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(body, tokenize='trigram',"
    " content='', detail='none')",
)


class Stat(NamedTuple):
    size: int
    mtime: int
    ctime: int
    ino: int

    @classmethod
    def of(cls, st: os.stat_result) -> Stat:
        return cls(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class Row(NamedTuple):
    stat: Stat
    kind: int
    doc: int | None


def open_for_reading(path: str) -> sqlite3.Connection | None:
    """The index at `path` for lookups, or None if there is none; `IndexUnusableError` if
    it cannot be used."""
    if not os.path.exists(path):
        return None
    odd = _not_regular(path)
    if odd is not None:
        raise IndexUnusableError(f"{odd} is not a regular file")
    try:
        db = sqlite3.connect(
            f"file:{_uri(path)}?mode=ro", uri=True, timeout=0.5, check_same_thread=False
        )
        version = _meta(db, "version")
    except sqlite3.Error as exc:
        raise IndexUnusableError(_why(exc)) from None
    if version != VERSION:
        db.close()
        raise IndexUnusableError(f"it is of another version ({version or 'none'})")
    return db


def build_lock(path: str) -> int:
    """The lock a build holds from before it opens the index at `path` until it has
    closed it: a file beside it (`.lock`), locked exclusively, waited for while another
    build holds it. SQLite's own lock leaves a window between a new index's first
    transaction and the build's: a second build opening the half-made file read it as
    unreadable and remade it under the first (both read every file, or one failed with
    `database disk image is malformed`). The lock file is never removed: a build waiting
    on a removed one would not exclude the next."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path + ".lock", flags, 0o600)
    except OSError as exc:
        raise sqlite3.DatabaseError(f"its lock file cannot be opened: {exc.strerror}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise sqlite3.DatabaseError("its lock file is not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_for_writing(path: str, root: str) -> sqlite3.Connection:
    """The index at `path` (made if absent, or remade if of another version or
    unreadable), its write lock taken (waited for while another build holds it)."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    try:
        if _not_regular(path) is not None:
            raise sqlite3.DatabaseError("not a regular file")
        db = _writable(path, root)
    except sqlite3.DatabaseError:
        for suffix in _FILES:
            if os.path.lexists(path + suffix):
                os.remove(path + suffix)
        db = _writable(path, root)
    return db


_FILES = {"": "its file", "-wal": "its WAL file", "-shm": "its shared-memory file"}
"""The index's files, SQLite's beside it, as a note names them."""


def _not_regular(path: str) -> str | None:
    """Which of the index's files (`_FILES`) is there and is not a regular file, or
    None. SQLite opens each one blocking and retries
    through signals: a FIFO there would hang the search, SIGTERM or not."""
    for suffix, name in _FILES.items():
        try:
            mode = os.stat(path + suffix).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            return name
    return None


def _writable(path: str, root: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=3600, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN IMMEDIATE")
    version = _meta(db, "version") if _has_meta(db) else None
    if version not in (None, VERSION):
        db.execute("ROLLBACK")
        db.close()
        raise sqlite3.DatabaseError("another version")
    for statement in _SCHEMA:
        db.execute(statement)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (VERSION,))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('root', ?)", (root,))
    db.execute("COMMIT")
    return db


def _has_meta(db: sqlite3.Connection) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
    return found is not None


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    if not _has_meta(db):
        return None
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def meta(db: sqlite3.Connection, key: str) -> str | None:
    return _meta(db, key)


def rows(db: sqlite3.Connection) -> dict[bytes, Row]:
    """Every file of the index by its path below the root."""
    return {
        bytes(path): Row(Stat(size, mtime, ctime, ino), kind, doc)
        for path, size, mtime, ctime, ino, kind, doc in db.execute("SELECT * FROM files")
    }


def _uri(path: str) -> str:
    return quote(path)


def _why(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return "it is locked"
    return f"it cannot be read ({text})"
