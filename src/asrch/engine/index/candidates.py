"""The index as a candidate-file source (`domain.ports.Candidates`, D58).

Asked for one query under one directory, it answers which files rg must read so that
its counts are the scan's, or None (scan). It makes no count: the searcher runs rg on
the files named. What it names, from one walk of the directory with rg's own flags
(which files a scan would meet now) and a stat of each:

- a file whose stat is the one indexed: by the index (its trigrams, or it is binary
  and only counted as met, or rg always reads it);
- any other file (added, changed, renamed, its ignore rule or permissions changed): read
  here once to tell binary from text as rg's walk does, and then read by rg;
- a file the index holds that the walk no longer meets: gone, as from the scan.

Where it cannot be sure it answers None: a query without a trigram it can prove
needed, a walk that met an unreadable entry, a changed file it cannot read, candidates
that are most of the tree (a scan costs no more then). An index it cannot use (corrupt,
locked, of another version, mostly stale) is said once in `note` and never used.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from asrch.domain.ports import CandidateFiles
from asrch.domain.query import DEFAULT_OPTIONS, Query, SearchOptions
from asrch.domain.text_safety import quote
from asrch.engine.argv import files_argv
from asrch.engine.index.location import covering
from asrch.engine.process import Launch
from asrch.engine.transport import run_to_end

if TYPE_CHECKING:
    from asrch.engine.index.fresh import Sorted, Stale
    from asrch.engine.index.opened import Place

# The rest of the index (sqlite3, the store, the walk) is imported once an index covers
# the directory searched: on a machine that has an index somewhere, every search asks
# and most find none (`tests/cli/test_imports.py`).

MOST = 0.25
"""Candidates above this share of the text files walked: a scan. The freshness walk
alone costs a good part of a scan (a `rg --files` and a stat per file), and rg reads
files it is handed by name no faster than files it walks to."""
UNION_MOST = 0.9
"""A kept walk's (the server's) candidates for several queries together above this share
of the files it meets: a scan. rg reads files named in batches of arguments a little
less evenly on its threads than files it walks to."""
STALE = 0.5
"""Changed files above this share of the walked files (and above `STALE_FILES`): the
index is stale. A few changed files cost little to read here, whatever their share."""
STALE_FILES = 1000
STALE_BYTES = 64 << 20
"""Changed files above this many bytes (read here to tell binary from text): stale."""


PROVEN_OPTIONS = frozenset(("mode", "ignore_case", "type", "glob"))
"""The search options the candidates are proven for (the property test draws them).
Any other one not at its default (`--max-filesize`: rg does not apply it to files
handed by name) is a scan until it is proven too."""


def _proven(options: SearchOptions) -> bool:
    return all(
        getattr(options, name) == getattr(DEFAULT_OPTIONS, name)
        for name in options._fields
        if name not in PROVEN_OPTIONS
    )


class IndexCandidates:
    """Candidates from the embedded index for the searcher that made it (`rg`, its
    `launch`, found from `environ`'s cache directory). One per command or tool call:
    a directory is walked once however many queries ask about it."""

    def __init__(self, rg: str, launch: Launch, environ: Mapping[str, str]) -> None:
        self._rg = rg
        self._launch = launch
        self._environ = environ
        self._places: dict[str, Place | None] = {}
        self._walks: dict[str, Sorted | None] = {}
        """Each directory as a scan would meet it now, sorted against the index."""
        self.used = False
        """Some answer of this caller was counted from the index's candidates."""
        self.present = False
        """An index covers a directory searched."""
        self.note: str | None = None
        """Why an index was ignored (the first one), said once."""

    def candidates(self, query: Query, target: str) -> CandidateFiles | None:
        return self._chosen([query], target, together=False)

    def union(self, queries: Sequence[Query], target: str) -> CandidateFiles | None:
        """The files any of `queries` may match under the directory `target` (their
        candidates together, for one rg run over them all: survey), or None (scan).
        Where the walk is kept between calls (the server) it costs nothing here, so the
        candidates need only be fewer than the files the walk meets: a scan would read
        those and the binary files too. Else they must be few, as one query's."""
        return self._chosen(queries, target, together=True)

    def _chosen(
        self, queries: Sequence[Query], target: str, *, together: bool
    ) -> CandidateFiles | None:
        try:
            place = self._place(target)
            if place is None:  # no index: nothing to read the terms' trigrams for
                return None
            docs: set[int] = set()
            for query in queries:
                found = self._found(query, place)
                if found is None:
                    return None
                docs.update(found)
            from asrch.engine.index.fresh import listing  # noqa: PLC0415 (as _walk_now)

            kept = together and listing(place.real) is not None
            # Many of the text files hold the trigrams: a scan, before any walk is paid.
            if not kept and len(docs) > MOST * place.opened.texts:
                return None
            walk = self._walk(target, place)
        except OSError:
            # The working directory is gone, a path cannot be resolved: the scan says
            # what a scan says of it.
            return None
        if walk is None:
            return None
        files = walk.pick(docs) + walk.always
        most = UNION_MOST * walk.walked if kept else MOST * (walk.walked - len(walk.binary))
        if len(files) > most:
            return None
        self.used = True
        return CandidateFiles(tuple(files), tuple(walk.binary))

    def _found(self, query: Query, place: Place) -> list[int] | None:
        """The documents the index names for `query`, or None (scan)."""
        import sqlite3  # noqa: PLC0415 (an index covers `target`: see the imports)

        from asrch.engine.index.literals import (  # noqa: PLC0415 (as sqlite3)
            match_expression,
            needed_trigrams,
        )

        grams = needed_trigrams(query)
        if grams is None or not _proven(query.options):
            return None
        try:
            with place.opened.lock:
                found = place.opened.db.execute(
                    "SELECT rowid FROM docs WHERE docs MATCH ?", (match_expression(grams),)
                ).fetchall()
        except sqlite3.Error as exc:
            self._ignored(place.root, f"it cannot be read ({exc})")
            return None
        return [doc for (doc,) in found]

    def _place(self, target: str) -> Place | None:
        """The index covering the directory `target`, opened, or None."""
        if target not in self._places:
            self._places[target] = self._place_now(target)
        return self._places[target]

    def _place_now(self, target: str) -> Place | None:
        launch = self._launch.walking(target)
        given = launch.operand(target)
        here = launch.cwd or os.getcwd()
        real = os.path.realpath(os.path.join(here, given))
        found = covering(real, self._environ)
        if found is None:
            return None
        root, path = found
        self.present = True
        from asrch.engine.index.opened import Place, kept_open  # noqa: PLC0415 (found one)
        from asrch.engine.index.store import IndexUnusableError, meta  # noqa: PLC0415 (as Place)

        try:
            opened = kept_open(path)
        except IndexUnusableError as exc:
            self._ignored(root, str(exc))
            return None
        if opened is None or meta(opened.db, "complete") != "1":
            return None
        return Place(opened, root, real, launch, given, here)

    def _walk(self, target: str, place: Place) -> Sorted | None:
        if target not in self._walks:
            self._walks[target] = self._walk_now(place)
        return self._walks[target]

    def _walk_now(self, place: Place) -> Sorted | None:
        # Only where an index covers the target (see the imports).
        from asrch.engine.index.build import kind_of  # noqa: PLC0415
        from asrch.engine.index.fresh import Sorted, Stale, listing  # noqa: PLC0415
        from asrch.engine.index.store import BINARY, TEXT, Stat  # noqa: PLC0415

        kept = listing(place.real)
        if kept is not None:
            # The MCP server: the walk kept between calls, fresh from inotify (fresh.py).
            return kept.sorted(self._rg, place, place.opened, lambda s: self._stale(s, place.root))
        opened, root, real, launch, given, here = place
        output, said = run_to_end(files_argv(self._rg, given), launch)
        if said.skipped or said.complaint is not None:
            return None
        prefix = os.fsencode(os.path.relpath(real, root)) + b"/" if real != root else b""
        head = len(os.fsencode(given))
        known = opened.rows
        texts: dict[int, str] = {}
        always: list[str] = []
        binary: list[str] = []
        changed: list[tuple[str, str, int]] = []
        printed = output.split(b"\0")[:-1]
        for raw in printed:
            name = os.fsdecode(raw)
            full = os.path.join(here, name)
            try:
                stat = Stat.of(os.stat(full))
            except OSError:
                return None
            row = known.get(prefix + raw[head:].lstrip(b"/"))
            if row is None or row.stat != stat:
                changed.append((name, full, stat.size))
            elif row.kind == TEXT and row.doc is not None:
                texts[row.doc] = name
            elif row.kind == BINARY:
                binary.append(name)
            else:
                always.append(name)
        if self._stale(Stale(len(changed), len(printed), sum(c[2] for c in changed)), root):
            return None
        for name, full, size in changed:
            try:
                kind, _ = kind_of(full, size)
            except OSError:
                return None
            (binary if kind == BINARY else always).append(name)
        return Sorted(
            lambda docs: [texts[d] for d in docs if d in texts], always, binary, len(printed)
        )

    def _stale(self, stale: Stale, root: str) -> bool:
        """Whether so many files changed that the index is stale (said once)."""
        many = stale.changed > max(STALE * stale.walked, STALE_FILES)
        if not many and stale.bytes <= STALE_BYTES:
            return False
        self._ignored(root, f"it is stale ({stale.changed} of {stale.walked} files changed)")
        return True

    def _ignored(self, root: str, why: str) -> None:
        if self.note is None:
            self.note = (
                f"the index of {quote(root)} was not used: {why}; "
                f"asrch index {quote(root)} remakes it"
            )
