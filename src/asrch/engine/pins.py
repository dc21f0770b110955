"""What an MCP call may read, pinned: each path opened from a root without following a
symlink, and rg and asrch's own readers handed what was opened (issue 32, item 1).

`Roots.confine` checks where a path resolves; a path is a name, and a name can be
swapped for a symlink (a file, or any directory on the way) between that check and the
moment rg or a reader opens it. So a call never hands a name to rg or `open`: every path
it reads is opened here, component by component from a root's descriptor with
`O_NOFOLLOW` (`O_PATH`: no read permission needed, a FIFO is not opened), and what rg
and the readers get is `/proc/PID/fd/N`, that open object, whatever the name means by
then. rg prints its paths under that operand; `as_typed` spells them back from the path
as given. A path is opened once a call (the first use pins it: `confine` itself), so
every rg run and every read of the call see the same object.

Whatever is opened this way lies under a root: a relative path is opened from the first
root's descriptor, an absolute one from the root it names, a path under a pinned path
from that path's descriptor, and no symlink is followed on the way. `confine` hands on
paths with no symlink and no `..` left in them, so a component that will not open
without following one has been swapped: the path then reads as missing or unreadable
(`failure`), never as what it now points at.

A walk of a pinned directory (`walk`) hands rg the ignore rules this process read from
the root down (`engine.ignore_files.pinned_rules`), rebased to the paths rg prints: of
the root, rg prints them from the pinned root it starts in; below it, rg starts in a
private directory of this process holding the path from the root to the searched
directory, its last component a link to the pinned object, so that rg prints `sub/x/a`
for a search of `sub/x` and a root's rule `sub/x/a` means what it says. The rules rg
gets apply exactly as rg would apply the root's ignore files to a walk of the root.

The MCP server keeps a walk's rules and entry count between calls, for every root it
serves, indexed or not, where the root's inotify watch (`engine.watch`, one a root,
`engine.watched`) sees every change that could change them (`_Kept`). Why that is exact:
the rules are read from the ignore files of the directories a walk may enter (and of
those from the root down to it); which ignore files those are, and what they hold, can
change only by an ignore file (or `.git`, `info/exclude`) made, written, removed,
renamed or its mode changed, or a directory made, removed, renamed or its mode changed,
and each of these queues an event in the call that makes it, before the call returns,
in the watch of the directory it happens in: a structural change (`Watch.settled`). The
watch is read (and, after a structural change, set on every directory again) before
the rules are read, and the rules kept with the count it gave: a change during the read
is counted after it, so the next call reads again. A call that finds the count
unchanged has met no such change since the read: the rules read then are the rules now.
What the watch cannot vouch for is never kept (`WalkRules.watched`: an ignore file read
through a link or of several links, which a write elsewhere changes; a hidden directory
a rule re-includes, which the watch does not enter; a directory whose name no rule can
spell), nor a walk below a hidden or excluded directory. The entry count (how large
the walk is, `PinnedWalk.entries`) is kept too, with how far it may be off by now: the
entries made, removed or renamed since it was counted (`Watch.listed`), counted again
past an eighth of it; a file's content written changes neither. Where the
watch cannot be had (not Linux, the user's watch limit, the queue overflowed: a
structural change), the call reads the rules itself, as it always did.

Not pinned: what rg itself opens while walking a pinned directory (it never follows a
symlink it meets there, D21; a directory swapped for one while rg is between its
`readdir` and its `opendir` is rg's own window, docs/reliability.md).
"""

import contextlib
import errno
import os
import stat
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from asrch.domain.errors import InputError
from asrch.domain.text_safety import PATH_ECHO_MAX, quote_cut

if TYPE_CHECKING:
    from asrch.engine.ignore_files import Above
    from asrch.engine.watch import Watch

_BASE = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC if hasattr(os, "O_PATH") else 0

SUPPORTED = bool(_BASE) and os.path.isdir(f"/proc/{os.getpid()}/fd")
"""Linux with /proc: elsewhere a call reads paths by name, as the command line does."""


def _proc(fd: int) -> str:
    # The parent's table, not `self`: rg opens the object asrch holds, no fd passing.
    return f"/proc/{os.getpid()}/fd/{fd}"


_ABSENT = f"/proc/{os.getpid()}/fd/-1"
"""A path that cannot exist: handed on for a path that could not be pinned."""


class PinnedWalk(NamedTuple):
    """How rg walks a pinned directory: where it starts, what it is handed, and the
    ignore rules it gets (`engine.ignore_files.pinned_rules`)."""

    cwd: str
    operand: str
    rules: tuple[bytes, ...]
    """Ignore files for rg, in their order (`engine.ignore_files.WalkRules`)."""
    entries: int = 0
    """Entries met in the directories the walk may reach: how large it is, at most."""
    off_by: int = 0
    """How far `entries` may be from the entries there now: 0, counted this call; kept
    between calls, the entries made, removed or renamed since (`Watch.listed`)."""


class _Kept(NamedTuple):
    """A walk's ignore rules and entries as read after its root's watch was read at
    `structural` and `listed` (`Watch.settled`)."""

    watch: object
    structural: int
    listed: int
    rules: tuple[bytes, ...]
    entries: int


def _count_again(entries: int, off_by: int) -> bool:
    """Whether a kept count of `entries`, off by at most `off_by`, is counted again:
    past an eighth of it (at least 64), so a count kept over many edits stays close."""
    return off_by > max(64, entries // 8)


_KEPT: dict[tuple[tuple[str, ...], str], _Kept] = {}
_KEPT_LOCK = threading.Lock()
KEPT_MAX = 256
"""The most walks kept (by the roots and the path searched): each holds its rules."""


def _watch_of(root: str, parts: Sequence[str]) -> "Watch | None":
    """The watch that sees every directory of a walk of `parts` below `root`, if the
    root is kept (an MCP server's): none below a hidden or excluded directory, which it
    does not watch."""
    from asrch.domain.exclusions import EXCLUDED_DIRS  # noqa: PLC0415
    from asrch.engine import watched  # noqa: PLC0415

    if not watched.kept(root) or any(p.startswith(".") or p in EXCLUDED_DIRS for p in parts):
        return None
    return watched.watch_of(root)


class Pins:
    """The objects one call has opened, by the path as the call spells it; `close()`
    when the call ends."""

    def __init__(self, roots: Sequence[str]) -> None:
        """`roots`: each root's real path (the first is where a relative path starts),
        opened now; a root that cannot be opened pins nothing under it."""
        self._roots: list[tuple[str, int]] = []
        self._first = roots[0] if roots else ""
        self._held: dict[str, int] = {}
        try:
            for real in roots:
                with contextlib.suppress(OSError):
                    self._roots.append((real, os.open(real, _BASE | os.O_DIRECTORY)))
        except BaseException:
            self.close()
            raise
        self._failed: dict[str, OSError] = {}
        self._lock = threading.Lock()
        self._walks: dict[str, PinnedWalk | None] = {}
        self._farms: list[tuple[str, list[str]]] = []
        self._walk_lock = threading.Lock()

    def here(self, path: str) -> str:
        """What to open (or hand rg) for `path`: its pinned object's /proc path."""
        with self._lock:
            fd = self._held.get(path)
            if fd is None and path not in self._failed:
                try:
                    fd = self._open(path)
                except OSError as exc:
                    self._failed[path] = exc
                else:
                    self._held[path] = fd
        if fd is None:
            return _ABSENT
        return _proc(fd) + "/" * (len(path) - len(path.rstrip("/")))

    def failure(self, path: str) -> OSError | None:
        """Why `path` could not be pinned (None: it was, or has not been asked)."""
        self.here(path)
        return self._failed.get(path)

    def inside(self, real: str) -> bool:
        """Whether the real path `real` lies under one of the roots."""
        return any(
            real == root or real.startswith(root.rstrip("/") + "/") for root, _ in self._roots
        )

    def walk(self, path: str) -> PinnedWalk | None:
        """How rg walks the directory `path` (None: it is no pinned directory), its
        ignore files checked and read once a call (`InputError` names one that may not
        be read)."""
        with self._walk_lock:
            if path in self._walks:
                return self._walks[path]
            pinned = self.here(path)
            walk = self._walk(path, pinned) if os.path.isdir(pinned) else None
            self._walks[path] = walk
            return walk

    def _walk(self, path: str, pinned: str) -> PinnedWalk | None:
        from asrch.engine.ignore_files import (  # noqa: PLC0415 (a call's walk only)
            Above,
            glob_name,
        )

        rooted = self._rooted(path)
        if rooted is None:
            return None
        root, parts = rooted
        relative = not path.startswith("/")
        above: list[Above] = []
        for depth in range(len(parts)):
            spelled = "/".join(parts[:depth])
            if not relative:
                spelled = root.rstrip("/") + ("/" + spelled if spelled else "")
            prefix = "/".join(glob_name(part) for part in parts[:depth])
            above.append(Above(self.here(spelled or "."), spelled or ".", prefix))
        prefix = "/".join(glob_name(part) for part in parts)
        rules, entries, off_by = self._rules(
            root=root, parts=parts, above=above, pinned=pinned, path=path, prefix=prefix
        )
        slashes = "/" * (len(path) - len(path.rstrip("/")))
        if not parts:
            return PinnedWalk(pinned.rstrip("/") or "/", "." + slashes, rules, entries, off_by)
        import tempfile  # noqa: PLC0415 (only for a call's walk below its root)

        farm = tempfile.mkdtemp(prefix="asrch-walk-")
        self._farms.append((farm, parts))
        directory = farm
        try:
            for part in parts[:-1]:
                directory = os.path.join(directory, part)
                os.mkdir(directory, 0o700)
            os.symlink(pinned.rstrip("/"), os.path.join(directory, parts[-1]))
        except OSError as exc:  # a path rg could not be handed either (ENAMETOOLONG)
            raise InputError(
                f"cannot read {quote_cut(path, PATH_ECHO_MAX)}: {exc.strerror or exc}"
            ) from None
        return PinnedWalk(farm, "/".join(parts) + slashes, rules, entries, off_by)

    def _rules(
        self,
        *,
        root: str,
        parts: list[str],
        above: list["Above"],
        pinned: str,
        path: str,
        prefix: str,
    ) -> tuple[tuple[bytes, ...], int, int]:
        """The walk's rules, entries and how far those may be off: read
        (`pinned_rules`), or kept from an earlier call when the root's watch saw nothing
        that could change them (`_Kept`)."""
        from asrch.engine.ignore_files import entries_met, pinned_rules  # noqa: PLC0415

        watch = _watch_of(root, parts)
        settled = None
        if watch is not None:
            with contextlib.suppress(OSError):  # it could not cover the tree: read
                settled = watch.settled()  # before the read: a later change is seen
        key = (tuple(real for real, _ in self._roots), path)
        if watch is None or settled is None:
            read = pinned_rules(above, pinned, path, prefix, self.inside)
            return read.rules, read.entries, 0
        structural, listed = settled
        with _KEPT_LOCK:
            kept = _KEPT.get(key)
        if kept is not None and kept.watch is watch and kept.structural == structural:
            rules, entries, off_by = kept.rules, kept.entries, listed - kept.listed
            if _count_again(entries, off_by):
                entries, off_by = entries_met(pinned, path), 0
            else:
                listed = kept.listed  # off by what was listed since it was counted
        else:
            read = pinned_rules(above, pinned, path, prefix, self.inside)
            if not read.watched:
                with _KEPT_LOCK:
                    _KEPT.pop(key, None)
                return read.rules, read.entries, 0
            rules, entries, off_by = read.rules, read.entries, 0
        with _KEPT_LOCK:
            for stale in [k for k, v in _KEPT.items() if getattr(v.watch, "closed", True)]:
                del _KEPT[stale]  # a root no server keeps now
            _KEPT.pop(key, None)
            _KEPT[key] = _Kept(watch, structural, listed, rules, entries)
            while len(_KEPT) > KEPT_MAX:  # the walk kept longest ago goes first
                del _KEPT[next(iter(_KEPT))]
        return rules, entries, off_by

    def _rooted(self, path: str) -> tuple[str, list[str]] | None:
        """The root `path` lies under (real path) and its components below it."""
        if not path.startswith("/"):
            if not self._roots or self._roots[0][0] != self._first:
                return None
            root, rest = self._first, path
        else:
            found = next(
                (
                    real
                    for real, _ in self._roots
                    if path == real or path.startswith(real.rstrip("/") + "/")
                ),
                None,
            )
            if found is None:
                return None
            root, rest = found, path[len(found) :]
        return root, [part for part in rest.split("/") if part not in ("", ".")]

    def close(self) -> None:
        with self._lock:
            held = [*self._held.values(), *(fd for _, fd in self._roots)]
            self._held.clear()
            self._roots.clear()
        for fd in held:
            os.close(fd)
        with self._walk_lock:
            farms, self._farms = self._farms, []
        for farm, parts in farms:
            _remove_farm(farm, parts)

    def _open(self, path: str) -> int:
        """Open `path` from the nearest pinned path above it, or from its root."""
        base, rest = self._base(path)
        parts = [part for part in rest.split("/") if part not in ("", ".")]
        if ".." in parts:
            raise OSError(errno.EACCES, "a path with .. is not read here", path)
        fd = os.dup(base) if not parts else _open_at(base, parts)
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISLNK(mode):
                raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)
            if path.endswith("/") and not stat.S_ISDIR(mode):
                raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _base(self, path: str) -> tuple[int, str]:
        """The descriptor a path starts from, and the rest of the path below it."""
        best, base = "", -1
        for held, fd in self._held.items():
            key = held.rstrip("/")
            if key and len(key) > len(best) and path.startswith(key + "/"):
                best, base = key, fd
        if best:
            return base, path[len(best) :]
        if not path.startswith("/") and self._roots and self._roots[0][0] == self._first:
            return self._roots[0][1], path
        for real, fd in self._roots:
            if path == real or path.startswith(real.rstrip("/") + "/"):
                return fd, path[len(real) :]
        raise OSError(errno.EACCES, "outside the roots", path)


def _open_at(base: int, parts: list[str]) -> int:
    """Open `parts` below the directory `base`, each a directory but the last, none a
    symlink."""
    fd = base
    try:
        for part in parts[:-1]:
            opened = os.open(part, _BASE | os.O_DIRECTORY, dir_fd=fd)
            if fd != base:
                os.close(fd)
            fd = opened
        last = os.open(parts[-1], _BASE, dir_fd=fd)
    finally:
        if fd != base:
            os.close(fd)
    return last


def _remove_farm(farm: str, parts: list[str]) -> None:
    """Remove what `Pins._walk` made: the link, the directories above it, the farm."""
    path = os.path.join(farm, *parts)
    with contextlib.suppress(OSError):
        os.unlink(path)
    for depth in range(len(parts) - 1, -1, -1):
        with contextlib.suppress(OSError):
            os.rmdir(os.path.join(farm, *parts[:depth]))
