"""The MCP server's freshness check (D58): the walk of a root kept between calls and
brought up to date from inotify (`engine/watch.py`) instead of made again on every call.

What a call needs is what the command line's walk gives it (candidates.py): which files
a walk of the root meets now, each with its stat, sorted against the index (fresh text,
binary, always read). Here that is kept, and each call first reads every inotify event
queued since the last one:

- none: the kept walk is the walk now (every change to a file, its mode or its name
  makes an event before the change returns);
- files made, written, removed or renamed in directories the walk enters: rg lists
  those directories again (`rg --files --max-depth 1 DIR...`, the same flags: its own
  ignore rules decide, as in the whole walk), each file listed is stat'ed, and only
  those files are sorted again;
- anything else (a directory made, removed or renamed; an ignore file or `.git`
  touched; an event in a directory no walked file is in, whose own ignore rule rg alone
  knows; the kernel's queue overflowed): the whole walk again, as the command line.

So a call after no edit stats nothing, and one after an edit stats the files of the
directories edited. The property test runs its edits through a server's calls too.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from asrch.engine import watched
from asrch.engine.argv import BASE_FLAGS
from asrch.engine.index.build import kind_of
from asrch.engine.index.opened import Opened, Place
from asrch.engine.index.store import BINARY, TEXT, Stat
from asrch.engine.transport import run_to_end

if TYPE_CHECKING:  # ctypes and libc are loaded only where a server keeps a root
    from asrch.engine.watch import Watch


class Sorted(NamedTuple):
    """A walk sorted against the index, as a call uses it."""

    pick: Callable[[Iterable[int]], list[str]]
    """The files (as the walk printed them) of the documents the index found, that are
    still the file indexed."""
    always: list[str]
    binary: list[str]
    walked: int


class Stale(NamedTuple):
    changed: int
    walked: int
    bytes: int
    """Of the files changed: read to tell binary from text (once, here)."""


class Listing:
    """One root's walk, kept and kept fresh: see the module's docstring."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self.lock = threading.Lock()
        self._given: str | None = None
        self._files: dict[bytes, tuple[str, Stat]] = {}
        """Each file walked, by its path below the root: as rg printed it, its stat."""
        self._entered: set[bytes] = {b""}
        """The directories (below the root) a walked file is in: rg enters them."""
        self._for: object = None
        """The index `_sorted` is sorted against."""
        self._kinds: dict[bytes, int] = {}
        """Every walked file's kind as a search reads it: TEXT (by the index), BINARY,
        or -1: read by rg whatever the query (changed, new, or never indexed)."""
        self._changed: dict[bytes, tuple[Stat, int]] = {}
        """The files not as indexed, their stat and kind as read here."""
        self._lists: tuple[list[str], list[str]] | None = None
        """The files read whatever the query, and the binary ones, while none changed."""

    def sorted(
        self, rg: str, place: Place, opened: Opened, stale: Callable[[Stale], bool]
    ) -> Sorted | None:
        """The walk now, sorted against `opened`; None: a scan (a walk met an unreadable
        entry, a changed file cannot be read, or `stale` says so)."""
        with self.lock:
            try:
                if not self._update(rg, place):
                    self._given = None
                    return None
                return self._sort(place, opened, stale)
            except OSError:
                self._given = None
                return None

    def _update(self, rg: str, place: Place) -> bool:
        changes = self.watch.changes()
        if self._given != place.given or changes.walk_again:
            if changes.walk_again:
                self.watch.cover()
            return self._walk_all(rg, place)
        root = self.watch.root
        dirs = sorted(os.path.relpath(d, root) if d != root else b"" for d in changes.directories)
        if not dirs:
            return True
        if any(d not in self._entered for d in dirs):
            return self._walk_all(rg, place)
        listed = _list(rg, place, [_operand(place.given, d) for d in dirs], depth=True)
        if listed is None:
            return self._walk_all(rg, place)
        gone = set(dirs)
        for rel in [r for r in self._files if _parent(r) in gone]:
            del self._files[rel]
            self._forget(rel)
        for rel, name in listed:
            self._files[rel] = (name, Stat.of(os.stat(os.path.join(place.here, name))))
            self._forget(rel)
        return True

    def _walk_all(self, rg: str, place: Place) -> bool:
        self._given = None
        self._for = None
        listed = _list(rg, place, [place.given], depth=False)
        if listed is None:
            return False
        files: dict[bytes, tuple[str, Stat]] = {}
        for rel, name in listed:
            files[rel] = (name, Stat.of(os.stat(os.path.join(place.here, name))))
        self._files = files
        self._entered = {b""} | {_parent(rel) for rel in files}
        self._given = place.given
        return True

    def _forget(self, rel: bytes) -> None:
        """`rel` is sorted again at the next call."""
        self._kinds.pop(rel, None)
        self._lists = None

    def _sort(self, place: Place, opened: Opened, stale: Callable[[Stale], bool]) -> Sorted | None:
        if self._for is not opened:
            self._kinds = {}
            self._lists = None
            self._for = opened
        rows = opened.rows
        prefix = _prefix(place)
        files, kinds, changed = self._files, self._kinds, self._changed
        sorted_again = False
        for rel in [r for r in changed if r not in files]:
            del changed[rel]
        for rel, (name, stat) in files.items():
            if rel in kinds:
                continue
            sorted_again = True
            row = rows.get(prefix + rel)
            if row is not None and row.stat == stat:
                changed.pop(rel, None)
                kinds[rel] = (
                    TEXT
                    if row.kind == TEXT and row.doc is not None
                    else (BINARY if row.kind == BINARY else -1)
                )
                continue
            known = changed.get(rel)
            if known is None or known[0] != stat:
                read, _ = kind_of(os.path.join(place.here, name), stat.size)
                known = (stat, read)
                changed[rel] = known
            kinds[rel] = BINARY if known[1] == BINARY else -1
        if stale(Stale(len(changed), len(files), sum(files[r][1].size for r in changed))):
            return None
        if sorted_again or self._lists is None or len(kinds) != len(files):
            always = [files[rel][0] for rel, kind in kinds.items() if kind == -1]
            binary = [files[rel][0] for rel, kind in kinds.items() if kind == BINARY]
            self._lists = (always, binary)
        always, binary = self._lists
        by_doc = opened.by_doc

        def pick(docs: Iterable[int]) -> list[str]:
            chosen = []
            for doc in docs:
                key = by_doc.get(doc)
                if key is None or not key.startswith(prefix):
                    continue
                rel = key[len(prefix) :]
                if kinds.get(rel) == TEXT:
                    chosen.append(files[rel][0])
            return chosen

        return Sorted(pick, always, binary, len(files))


def _prefix(place: Place) -> bytes:
    if place.real == place.root:
        return b""
    return os.fsencode(os.path.relpath(place.real, place.root)) + b"/"


def _parent(rel: bytes) -> bytes:
    return rel.rpartition(b"/")[0]


def _operand(given: str, directory: bytes) -> str:
    if not directory:
        return given
    return os.path.join(given, os.fsdecode(directory))


def _list(
    rg: str, place: Place, operands: Sequence[str], *, depth: bool
) -> list[tuple[bytes, str]] | None:
    """The files rg's walk of `operands` meets (with `depth`: only those directly in
    them), as (path below the root, as printed); None if it met an unreadable entry."""
    argv = [rg, *BASE_FLAGS, *(["--max-depth=1"] if depth else []), "--files", "--null"]
    output, said = run_to_end([*argv, "--", *operands], place.launch)
    if said.skipped or said.complaint is not None:
        return None
    head = len(os.fsencode(place.given))
    return [(raw[head:].lstrip(b"/"), os.fsdecode(raw)) for raw in output.split(b"\0")[:-1]]


_LISTINGS: dict[str, Listing] = {}
_LISTINGS_LOCK = threading.Lock()


def listing(real: str) -> Listing | None:
    """The kept walk of `real`, made on first use; None if `real` is not kept or cannot
    be watched (then each call walks). One per watch (`engine.watched`): a root watched
    anew is walked anew."""
    if not watched.kept(real):
        return None
    watch = watched.watch_of(real)
    with _LISTINGS_LOCK:
        for gone in [root for root, kept in _LISTINGS.items() if kept.watch.closed]:
            del _LISTINGS[gone]
        if watch is None:
            return None
        kept = _LISTINGS.get(real)
        if kept is None or kept.watch is not watch:
            kept = _LISTINGS[real] = Listing(watch)
        return kept
