"""The roots whose walks this process keeps between searches (an MCP server's), and the
one inotify watch of each (`engine.watch`), indexed or not.

A server keeps its roots while it lives (`keep_fresh`, released when it is collected
or closed); a root's watch is made by the first search that asks for it (`watch_of`)
and shared by every reader of that root: the index's kept walk (`index/fresh.py`) and
the kept ignore rules of a call's walk (`engine/pins.py`). A root that cannot be
watched (not Linux, the watch limit, a tree too large, `OPEN_MAX` roots already
watched) is read on every call, as without a server: exact, only slower.

Nothing here imports the watcher (ctypes, libc) until a kept root asks for a watch: a
command line's search never does (tests/cli/test_imports.py).
"""

from __future__ import annotations

import os
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from asrch.engine.watch import Watch

OPEN_MAX = 8
"""The most roots one process watches at once: each is an inotify instance, of which a
user has 128 here (`/proc/sys/fs/inotify/max_user_instances`), shared."""

_HELD: Counter[str] = Counter()
"""How many living servers keep each root (its real path)."""
_WATCHES: dict[str, Watch | None] = {}
"""Each kept root's watch, once asked; None: it cannot be watched (read each call)."""
_LOCK = threading.Lock()
_RELEASED: deque[list[str]] = deque()
"""Roots let go, not yet taken off `_HELD`: a release may run as the garbage collector
finalizes a server, in any thread, at any allocation, even one made while `_LOCK` is
held (a deadlock, were it to take the lock): so it only appends here (a deque's append
is atomic), and the next caller holding the lock settles it (`_settle`)."""


def keep_fresh(roots: Iterable[str]) -> Callable[[], None]:
    """Keep the walks of `roots` between searches (an MCP server's roots, while it
    lives): what to call when it no longer does (each root's watch closed once no
    server keeps it, by the next search or server). Nothing is watched until a search
    asks (`watch_of`)."""
    real = sorted({os.path.realpath(root) for root in roots})
    with _LOCK:
        _settle()
        _HELD.update(real)
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            _RELEASED.append(real)

    return release


def _settle() -> None:
    """The roots let go since (`_RELEASED`), taken off; a root no server keeps now has
    its watch closed. With `_LOCK` held."""
    while _RELEASED:
        real = _RELEASED.popleft()
        _HELD.subtract(real)
        for root in real:
            if _HELD[root] <= 0:
                del _HELD[root]
                watch = _WATCHES.pop(root, None)
                if watch is not None:
                    watch.close()


def kept(real: str) -> bool:
    """Whether a living server keeps `real` (a root's real path)."""
    return _HELD[real] > 0


def watch_of(real: str) -> Watch | None:
    """The watch of the kept root `real`, made on first use; None if `real` is not kept
    or cannot be watched (then each search reads the tree)."""
    with _LOCK:
        _settle()
        if _HELD[real] <= 0:
            return None
        if real in _WATCHES:
            watch = _WATCHES[real]
            if watch is None or not watch.closed:
                return watch
            # It could not cover its tree again: so would a new one. Read each call.
            _WATCHES[real] = None
            return None
        if sum(watch is not None for watch in _WATCHES.values()) >= OPEN_MAX:
            return None  # asked again once a server lets a root go
        from asrch.engine.watch import Watch  # noqa: PLC0415 (a server's root only)

        try:
            made: Watch | None = Watch(real)
        except OSError:
            made = None
        _WATCHES[real] = made
        return made
