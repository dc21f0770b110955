"""Which directories below a root saw a change since last asked: Linux inotify, through
ctypes (no library: the ones that fit, watchdog and watchfiles, deliver events from a
thread of their own, late by design, so a call could not know it has seen every change
made before it; here the caller reads the kernel's queue itself, `changes`).

inotify queues an event in the system call that makes the change (a write, a rename, a
chmod), before that call returns: so every change a program finished before `changes`
is read has its event in the queue then, and nothing is late. A change inotify does not
report (a write through a shared mapping, a write through a hard link from outside the
watched directories, another machine's write on a network file system) is not seen:
docs/index.md says so; the command line's stat check does not rely on this.

What is watched: the root, every directory below it a walk could enter (not one that
is hidden or excluded by name: rg never enters them), each `.git` directory met and its
`info` (rg reads `.git/info/exclude`), and every directory above the root (rg reads the
ignore files above its operand). What is told: the directories with an event about a
file in them, and whether the walk itself may have changed (a directory made, removed or
renamed; an ignore file or `.git` touched; the kernel's queue overflowed): then the
caller walks again.

Two readers share one watch of a served root: the index's kept walk (`index/fresh.py`,
`changes`) and a call's kept ignore rules (`engine/pins.py`, `settled`). A watch that
cannot cover its tree (the user's watch limit reached, or more than `DIRECTORIES_MAX`
directories: one server should not take the watches every other program of the user
shares) closes, and every later read of it raises `OSError`: its readers then read the
tree each call, as without a watch.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import struct
import sys
import threading
from typing import NamedTuple

from asrch.domain.exclusions import EXCLUDED_DIRS

IGNORE_FILES = frozenset((b".gitignore", b".ignore", b".rgignore", b".git"))
"""Names whose change can change which files a walk meets."""

_MODIFY, _ATTRIB, _CLOSE_WRITE = 0x2, 0x4, 0x8
_MOVED_FROM, _MOVED_TO, _CREATE, _DELETE = 0x40, 0x80, 0x100, 0x200
_DELETE_SELF, _MOVE_SELF, _OVERFLOW, _IGNORED, _ISDIR = 0x400, 0x800, 0x4000, 0x8000, 0x40000000
_ONLYDIR, _DONT_FOLLOW = 0x01000000, 0x02000000
_MASK = (
    _MODIFY
    | _ATTRIB
    | _CLOSE_WRITE
    | _MOVED_FROM
    | _MOVED_TO
    | _CREATE
    | _DELETE
    | _DELETE_SELF
    | _MOVE_SELF
    | _ONLYDIR
    | _DONT_FOLLOW
)
_NONBLOCK, _CLOEXEC = os.O_NONBLOCK, 0o2000000
_HEAD = struct.Struct("iIII")
_EXCLUDED = frozenset(os.fsencode(name) for name in EXCLUDED_DIRS)
_LISTED = _CREATE | _DELETE | _MOVED_FROM | _MOVED_TO

DIRECTORIES_MAX = 1 << 16
"""The most directories one watch covers (the user's limit here is 192,540, shared)."""


class Changes(NamedTuple):
    directories: frozenset[bytes]
    """The real paths of the directories where a file was made, written, removed or
    renamed, or its mode changed."""
    walk_again: bool
    """Which files a walk meets may have changed: walk again."""


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c") or "libc.so.6"
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    except (OSError, AttributeError):
        return None
    return libc


class Watch:
    """The inotify watch of one root (its real path). `OSError` if one cannot be set
    (not Linux, the watch limit reached, `DIRECTORIES_MAX`), or, from any read, once it
    could not cover its tree again: the caller checks freshness by walking."""

    def __init__(self, root: str) -> None:
        libc = _libc()
        if libc is None:
            raise OSError(errno.ENOSYS, "inotify is not available")
        self._libc = libc
        self.root = os.fsencode(root)
        fd = libc.inotify_init1(_NONBLOCK | _CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self._fd: int = fd
        self._dirs: dict[int, bytes] = {}
        self._git: set[int] = set()
        """The `.git` directories and their `info`: only `info` and `exclude` matter."""
        self._lock = threading.RLock()
        self._pending: set[bytes] = set()
        self._pending_again = False
        """Read from the kernel's queue, not yet handed to `changes`' caller."""
        self.structural = 0
        """How many reads of the queue found the walk may have changed (`Changes`)."""
        self.listed = 0
        """How many entries were made, removed or renamed (an event each) in the
        directories below the root (hidden names too): a count of the entries a walk
        meets is off by at most this much more than when it was counted (a rename over
        another entry removes that one with no event of its own, but is one itself). A
        file written or its mode changed is not counted."""
        self._covered = 0
        """`structural` when `cover` last began: equal, every directory is watched."""
        try:
            above = os.path.dirname(self.root)
            while True:
                self._add(above)
                self._add_git(above)
                parent = os.path.dirname(above)
                if parent == above:
                    break
                above = parent
            self.cover()
        except OSError:
            self.close()
            raise

    def _add(self, path: bytes) -> None:
        wd = self._libc.inotify_add_watch(self._fd, path, _MASK)
        if wd < 0:
            code = ctypes.get_errno()
            if code in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                return  # gone, or unreadable (a walk reports that itself)
            raise OSError(code, f"inotify_add_watch {os.fsdecode(path)}")
        self._dirs[wd] = path  # a directory moved keeps its wd: its new path here
        if os.path.basename(path) == b".git" or path.endswith(b"/.git/info"):
            self._git.add(wd)

    def _add_git(self, directory: bytes) -> None:
        git = os.path.join(directory, b".git")
        if os.path.isdir(git):
            self._add(git)
            self._add(os.path.join(git, b"info"))

    @property
    def closed(self) -> bool:
        return self._fd < 0

    def cover(self) -> None:
        """Watch every directory below the root (again after a directory was made or
        moved: before the caller walks again, so nothing made in it after that walk is
        missed). One it cannot watch closes the watch (`OSError`): a directory left
        unwatched would hide its changes from every later read."""
        with self._lock:
            self._open()
            self._covered = self.structural
            try:
                self._cover()
            except OSError:
                self.close()
                raise

    def _open(self) -> None:
        if self._fd < 0:
            raise OSError(errno.EBADF, "the watch was closed: walk instead")

    def _cover(self) -> None:
        pending = [self.root]
        met = 0
        while pending:
            here = pending.pop()
            met += 1
            if met > DIRECTORIES_MAX:
                raise OSError(errno.ENOSPC, f"more than {DIRECTORIES_MAX} directories")
            self._add(here)  # again for one watched: the same wd, its path now
            try:
                entries = list(os.scandir(here))
            except OSError:
                continue
            for entry in entries:
                name = entry.name
                try:
                    if name.startswith(b"."):
                        # Its `.git` from the listing, not a stat a directory: one made
                        # after the listing is an event of `here`, watched before it.
                        if name == b".git" and entry.is_dir():
                            self._add(entry.path)
                            self._add(os.path.join(entry.path, b"info"))
                    elif name not in _EXCLUDED and entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                except OSError:
                    continue

    def changes(self) -> Changes:
        """Every event queued since the last call, read now."""
        with self._lock:
            self._open()
            self._drain()
            changes = Changes(frozenset(self._pending), self._pending_again)
            self._pending, self._pending_again = set(), False
            return changes

    def settled(self) -> tuple[int, int]:
        """The queue read now (its events kept for `changes`), every directory watched
        (`cover` again after a structural change): (`structural`, `listed`). A caller
        that read the tree after this and finds `structural` unchanged later knows no
        directory was made, moved or removed and no ignore file touched in between; and
        `listed` moved by N, that its count of entries is off by at most N."""
        with self._lock:
            self._open()
            self._drain()
            if self._covered != self.structural:
                self.cover()
            return self.structural, self.listed

    def _drain(self) -> None:
        directories: set[bytes] = set()
        again = False
        listed = 0
        while True:
            try:
                data = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                break
            offset = 0
            while offset < len(data):
                wd, mask, _, size = _HEAD.unpack_from(data, offset)
                name = data[offset + _HEAD.size : offset + _HEAD.size + size].rstrip(b"\0")
                offset += _HEAD.size + size
                if mask & _OVERFLOW:
                    again = True
                    continue
                directory = self._dirs.get(wd)
                if mask & _IGNORED:
                    self._dirs.pop(wd, None)
                    self._git.discard(wd)
                    continue
                if directory is None:
                    continue
                if wd in self._git:
                    again = again or name in (b"info", b"exclude")
                    continue
                if name in IGNORE_FILES:
                    again = True
                    continue
                if directory != self.root and not directory.startswith(self.root + b"/"):
                    continue  # above the root: only its ignore files matter
                listed += bool(mask & _LISTED)
                if mask & (_DELETE_SELF | _MOVE_SELF):
                    again = True
                elif name.startswith(b"."):
                    continue  # hidden: no walk meets it
                elif mask & _ISDIR:
                    again = again or name not in _EXCLUDED
                else:
                    directories.add(directory)
        if again:
            self.structural += 1
            self._pending_again = True
        self.listed += listed
        self._pending |= directories

    def close(self) -> None:
        # Under the lock: a server let go while a call reads the queue must not close
        # the descriptor under that read (its number could be another file's by then).
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
