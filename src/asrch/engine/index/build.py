"""`asrch index`: make or update the index of a root from rg's own walk.

The files are those `rg --files` walks to with asrch's flags (the walk every search
makes: exclusions, ignore rules, hidden files), so the index and a scan agree on which
files exist by construction. A file is read again only if its size, mtime, ctime or
inode changed; one modified less than 2 s before it was read is stored as already
stale (its ctime -1), so rg reads it until a later build: a write within the clock's
tick cannot hide behind an unchanged stat (git's "racily clean" files).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from typing import NamedTuple

from asrch.engine.argv import files_argv
from asrch.engine.decoding import mark_of
from asrch.engine.index.location import index_path
from asrch.engine.index.store import (
    BINARY,
    TEXT,
    VERIFY,
    Row,
    Stat,
    build_lock,
    meta,
    open_for_reading,
    open_for_writing,
    rows,
)
from asrch.engine.process import Launch
from asrch.engine.transport import run_to_end

INDEXED_MAX = 16 << 20
"""A larger file is not indexed (rg always reads it): what one read holds in memory."""
RACY_NS = 2_000_000_000
SETTLED_MAX = 10_000
"""At most this many racy files are read again after the window (`_Update._settle`)."""


class Walked(NamedTuple):
    paths: list[bytes]
    """Below the root, as rg printed them without the leading `./`."""
    complete: bool
    """rg read every directory (a failure would be a skipped entry in a scan)."""


def walk(rg: str, root: str, environ: Mapping[str, str] | None, launch: Launch | None) -> Walked:
    """The files a search of `root` walks to, rg started as `launch` starts it (its
    transport and children: the command's; None: this process's own)."""
    launch = Launch() if launch is None else launch
    output, said = run_to_end(files_argv(rg, "."), launch._replace(cwd=root, env=environ))
    paths = [p[2:] for p in output.split(b"\0")[:-1]]
    return Walked(paths, not said.skipped and said.complaint is None)


def kind_of(path: str, size: int) -> tuple[int, bytes | None]:
    """How rg's walk reads the file: (its kind, its text to index or None). OSError
    if it cannot be read."""
    with open(path, "rb") as file:
        if size > INDEXED_MAX:
            head = file.read(3)
            skip, codec = mark_of(head)
            if codec is not None:
                data = head + file.read()
                return _marked_kind(data, skip, codec), None
            chunk = head
            while chunk:
                if b"\0" in chunk:
                    return BINARY, None
                chunk = file.read(1 << 20)
            return VERIFY, None
        data = file.read()
    skip, codec = mark_of(data[:3])
    if codec is not None or skip:
        return _marked_kind(data, skip, codec), None
    if b"\0" in data:
        return BINARY, None
    return TEXT, data


def _marked_kind(data: bytes, skip: int, codec: str | None) -> int:
    """A file with a byte-order mark: binary if its text as rg decodes it holds NUL."""
    if codec is None:
        return BINARY if b"\0" in data[skip:] else VERIFY
    return BINARY if "\0" in data[skip:].decode(codec, "replace") else VERIFY


class Summary(NamedTuple):
    files: int
    bytes: int
    read: int
    removed: int
    binary: int
    complete: bool
    garbage: int
    """Documents of files read again or gone, left in the trigram table."""


Progress = Callable[[int, int, float], None]
"""Told (files done, bytes read, seconds since the start) as a build goes."""


def build(
    rg: str,
    root: str,
    environ: Mapping[str, str],
    *,
    progress: Progress | None = None,
    launch: Launch | None = None,
) -> Summary:
    """Make or update the index of the real directory `root` (rg started as `launch`
    starts it, `walk`)."""
    started = time.monotonic()
    _no_heap_growth()
    path = index_path(root, environ)
    # A second build waits for this one (`build_lock`), then finds little to read;
    # searches read the last committed index meanwhile (WAL).
    lock = build_lock(path)
    try:
        db = open_for_writing(path, root)
        try:
            db.execute("BEGIN IMMEDIATE")
            walked = walk(rg, root, environ, launch)
            summary = _Update(db, root, started, progress).run(walked)
            _commit(db, summary, walked.complete)
            if summary.read:
                db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
            return summary
        finally:
            db.close()
    finally:
        os.close(lock)


M_MMAP_THRESHOLD = -3
"""glibc's `mallopt` parameter: allocations from this size up are mapped apart."""


def _no_heap_growth() -> None:
    """Keep each file's text (read, decoded, freed: up to `INDEXED_MAX` bytes, one file
    after another) out of the heap SQLite allocates from. glibc raises its mapping
    threshold to the size of the first large block freed, after which every file's text
    lands in the heap between SQLite's blocks and the heap only grows: a build of
    2,000 files of 1 MB peaked at 200 MB; with the threshold fixed at 64 KB, 25 MB for
    the same first 60 files. A C library without `mallopt` keeps its own ways."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes  # noqa: PLC0415 (only for a build)

        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, 64 << 10)


class _Update:
    """One build's pass over the walked files, in its transaction."""

    def __init__(
        self, db: sqlite3.Connection, root: str, started: float, progress: Progress | None
    ) -> None:
        self.db = db
        self.root = root
        self.started = started
        self.progress = progress
        self.known = rows(db)
        self.racy: list[tuple[bytes, str, int, int | None]] = []
        """Files read within `RACY_NS` of their last write (stored as stale)."""
        self.garbage = int(_value(db, "garbage") or 0)
        live = sum(1 for row in self.known.values() if row.doc is not None)
        if self.garbage > max(live, 1000):
            # Remake the trigram table: every text file is read again.
            db.execute("DELETE FROM files")
            db.execute("INSERT INTO docs(docs) VALUES ('delete-all')")
            self.known, self.garbage = {}, 0

    def run(self, walked: Walked) -> Summary:
        total = read = binary = done = 0
        for rel in walked.paths:
            full = os.path.join(self.root, os.fsdecode(rel))
            try:
                stat = Stat.of(os.stat(full))
            except OSError:
                continue
            total += stat.size
            done += 1
            row = self.known.get(rel)
            if row is not None and row.stat == stat:
                binary += row.kind == BINARY
                continue
            kind = self._read(rel, full, stat, row)
            if kind is None:
                continue
            read += 1
            binary += kind == BINARY
            if self.progress is not None:
                self.progress(done, total, time.monotonic() - self.started)
        self._settle()
        present = set(walked.paths)
        gone = [(rel, row) for rel, row in self.known.items() if rel not in present]
        for rel, row in gone:
            self._forget(rel, row)
        return Summary(done, total, read, len(gone), binary, walked.complete, self.garbage)

    def _read(self, rel: bytes, full: str, stat: Stat, row: Row | None) -> int | None:
        """Read one file into the index: its kind, or None if it cannot be read (then
        it is not in the index: a search has rg read it, and say so)."""
        try:
            kind, text = kind_of(full, stat.size)
        except OSError:
            if row is not None:
                self._forget(rel, row)
            return None
        doc = None
        if text is not None:
            body = text.decode("utf-8", "replace")
            doc = self.db.execute("INSERT INTO docs(body) VALUES (?)", (body,)).lastrowid
        if time.time_ns() - stat.mtime < RACY_NS:
            stat = stat._replace(ctime=-1)
            self.racy.append((rel, full, kind, doc))
        self.db.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", (rel, *stat, kind, doc)
        )
        self.garbage += row is not None and row.doc is not None
        return kind

    def _settle(self) -> None:
        """Read again, once their 2 s are past, the files written just before they were
        read (a tree cloned and indexed at once): otherwise every search reads them until
        the next build. Waits 2 s at most, and only for such files."""
        racy, self.racy = self.racy, []
        if not racy or len(racy) > SETTLED_MAX:
            return
        time.sleep(RACY_NS / 1e9)
        for rel, full, kind, doc in racy:
            with contextlib.suppress(OSError):
                stat = Stat.of(os.stat(full))
                self._read(rel, full, stat, Row(stat, kind, doc))

    def _forget(self, rel: bytes, row: Row) -> None:
        self.db.execute("DELETE FROM files WHERE path = ?", (rel,))
        self.garbage += row.doc is not None


def _value(db: sqlite3.Connection, key: str) -> str | None:
    found = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if found is None else str(found[0])


def _commit(db: sqlite3.Connection, summary: Summary, complete: bool) -> None:
    values = {
        "built": time.time(),
        "files": summary.files,
        "texts": db.execute("SELECT count(*) FROM files WHERE kind != ?", (BINARY,)).fetchone()[0],
        "bytes": summary.bytes,
        "garbage": summary.garbage,
        "complete": int(complete),
    }
    db.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
    )
    db.execute("COMMIT")


class Status(NamedTuple):
    built: float
    """When the last build ended (seconds since the epoch)."""
    files: int
    bytes: int
    stale: int
    """Files a search would read although the index holds them, or has them not:
    added, changed or gone since, or changed while they were read."""
    complete: bool


def status(
    rg: str, root: str, environ: Mapping[str, str], launch: Launch | None = None
) -> Status | None:
    """The index of the real directory `root` against the tree now; None: none."""
    db = open_for_reading(index_path(root, environ))
    if db is None:
        return None
    try:
        known = rows(db)
        built = float(meta(db, "built") or 0)
        complete = meta(db, "complete") == "1"
    finally:
        db.close()
    walked = walk(rg, root, environ, launch)
    stale = 0
    size = 0
    for rel in walked.paths:
        try:
            stat = Stat.of(os.stat(os.path.join(root, os.fsdecode(rel))))
        except OSError:
            stale += 1
            continue
        size += stat.size
        row = known.pop(rel, None)
        stale += row is None or row.stat != stat
    stale += len(known)
    return Status(built, len(walked.paths), size, stale, complete and walked.complete)


def drop(root: str, environ: Mapping[str, str]) -> bool:
    """Remove the index of `root`; whether there was one."""
    path = index_path(root, environ)
    existed = os.path.exists(path)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path + suffix)
    return existed
