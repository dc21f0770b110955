"""A `Searcher` that answers from a table and records every call (cf. httpx's
`MockTransport`): the use cases (`asrch.commands`) tested without rg.

    from tests.support.fake_scopes import NO_SCOPES
    from tests.support.fake_searcher import FakeSearcher

    engine = FakeSearcher(files={"src/a.py": "needle\\nx\\nneedle\\n", "b.py": "x\\n"})
    report = run_scout(engine, "needle", "src", SearchOptions(), scopes=NO_SCOPES)
    assert report.matches == 2
    assert engine.called("count") == [("count", "needle", "src")]

- `files`: the tree, path (relative, `/`-separated) to content; a directory is any
  prefix of a file's path, and `.` is the root. Every term matches as a plain substring
  of a line (lower-cased both sides for `-i`): which lines a mode matches is rg's
  business, held against rg in tests/engine/.
- `tallies`: canned answers of `count` per (term, target), taking the place of the
  table's (a cap, a skipped or binary file: whatever a test needs rg to have said).
- `statuses`: what `inspect` answers for a path, over the table's (UNREADABLE, SPECIAL).
- `links`: a path to the path it resolves to, for `resolve` (a symlink, a second
  spelling).
- `types`: what `file_types` answers (rg's `--type-list`).
- `refused`: a term to rg's reason for refusing it, for `check_query`.
- `calls`: every call in order, as (method, term or terms, path, then the numbers).

tests/engine/test_searcher_conformance.py runs one suite on this fake and on rg over the
same files: where the use cases rely on it (path order and spelling, caps, context,
line numbers), the fake answers as rg does.

Filters (`--type`, `--glob`) are not applied to the table: the query that carries them
is recorded, and which files they keep is the engine's, tested against rg.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import InputError
from asrch.domain.lines import FileScan, FileWindow, SourceLine, Span
from asrch.domain.ports import Entry, PathStatus
from asrch.domain.query import Query

Call = tuple[object, ...]


@dataclass
class FakeSearcher:
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    tallies: Mapping[tuple[str, str], Tally] = field(default_factory=dict)
    statuses: Mapping[str, PathStatus] = field(default_factory=dict)
    links: Mapping[str, str] = field(default_factory=dict)
    types: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: {"py": ("*.py", "*.pyi"), "md": ("*.md",)}
    )
    refused: Mapping[str, str] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    census: bool = True
    """The fake counts no binary file: its answers are the same either way."""

    def called(self, method: str) -> list[Call]:
        """The recorded calls of one method, in order."""
        return [call for call in self.calls if call[0] == method]

    # --- the table -------------------------------------------------------------------

    def _name(self, path: str) -> str:
        """A path as the table names it: `./src/` and `src` are one entry."""
        return posixpath.normpath(path)

    def _lines(self, file: str) -> list[bytes]:
        content = self.files[self._name(file)]
        data = content.encode() if isinstance(content, str) else content
        return data.splitlines(keepends=True)

    def _under(self, target: str) -> list[str]:
        """The table's files under `target` in rg's path order (component by component),
        spelled as rg prints them: the target as given, then the rest."""
        name = self._name(target)
        if name in self.files:
            return [target]
        prefix = "" if name == "." else name + "/"
        inside = sorted((p for p in self.files if p.startswith(prefix)), key=lambda p: p.split("/"))
        joiner = "" if target.endswith("/") else "/"
        return [f"{target}{joiner}{p[len(prefix) :]}" for p in inside]

    @staticmethod
    def _matches(query: Query, line: bytes) -> bool:
        term = query.term.encode()
        if query.ignore_case:
            return term.lower() in line.lower()
        return term in line

    # --- Searcher --------------------------------------------------------------------

    def inspect(self, path: str) -> PathStatus:
        self.calls.append(("inspect", path))
        if path in self.statuses:
            return self.statuses[path]
        name = self._name(self.links.get(self._name(path), path))
        if name in self.files:
            return PathStatus(Entry.FILE)
        if name == "." or any(p.startswith(name + "/") for p in self.files):
            return PathStatus(Entry.DIRECTORY)
        return PathStatus(Entry.MISSING)

    def check_query(self, query: Query) -> None:
        self.calls.append(("check_query", query.term))
        reason = self.refused.get(query.term)
        if reason is not None:
            raise InputError(f"invalid --regex query {query.term}: {reason}")

    def resolve(self, path: str) -> str:
        self.calls.append(("resolve", path))
        name = self._name(path)
        return "/fake/" + self._name(self.links.get(name, name))

    def walk(self, target: str) -> list[str]:
        """The table's files under `target`, as rg prints them (the target's spelling
        first)."""
        self.calls.append(("walk", target))
        return self._under(target)

    def file_types(self) -> dict[str, tuple[str, ...]]:
        self.calls.append(("file_types",))
        return dict(self.types)

    def _count(self, query: Query, target: str, cap: int) -> Tally:
        canned = self.tallies.get((query.term, target))
        if canned is not None:
            return canned
        counted: list[FileCount] = []
        total = 0
        for path in self._under(target):
            found = sum(self._matches(query, line) for line in self._lines(path))
            if found == 0:
                continue
            if total + found >= cap:
                counted.append(FileCount(path, cap - total))
                return Tally(files=tuple(counted), capped=True)
            counted.append(FileCount(path, found))
            total += found
        return Tally(files=tuple(counted))

    def count(self, query: Query, target: str, *, cap: int, census: bool = False) -> Tally:
        self.calls.append(("count", query.term, target))
        return self._count(query, target, cap)

    def count_listed(
        self, query: Query, target: str, *, cap: int, keep: int
    ) -> tuple[Tally, dict[str, tuple[SourceLine, ...]]] | None:
        """Never one search: the use cases count, then read the lines (`matching_lines`)."""
        return None

    def count_terms(self, queries: Sequence[Query], target: str, *, cap: int) -> list[Tally]:
        self.calls.append(("count_terms", tuple(q.term for q in queries), target))
        return [self._count(q, target, cap) for q in queries]

    def count_many(self, searches: Sequence[tuple[Query, str]], *, cap: int) -> list[Tally]:
        self.calls.append(("count_many", tuple((q.term, t) for q, t in searches)))
        return [self._count(q, t, cap) for q, t in searches]

    def scan(self, query: Query, file: str, *, context: int, keep: int, cap: int) -> FileScan:
        self.calls.append(("scan", query.term, file, context, keep, cap))
        lines = self._lines(file)
        hits = [n for n, text in enumerate(lines, 1) if self._matches(query, text)]
        matches = min(len(hits), cap)
        kept = hits[:keep]
        shown = {
            n
            for hit in kept
            for n in range(max(1, hit - context), min(len(lines), hit + context) + 1)
        }
        return FileScan(
            lines=tuple(self._source_line(query, n, lines[n - 1]) for n in sorted(shown)),
            kept=len(kept),
            matches=matches,
            capped=len(hits) >= cap,
        )

    def matching_lines(
        self, query: Query, files: Sequence[str], *, keep: int
    ) -> dict[str, tuple[SourceLine, ...]]:
        self.calls.append(("matching_lines", query.term, tuple(files), keep))
        return {
            file: tuple(self._source_line(query, n, self._lines(file)[n - 1]) for n in numbers)
            for file, numbers in self._numbers(query, files, keep).items()
        }

    def line_numbers(
        self, query: Query, files: Sequence[str], *, keep: int
    ) -> dict[str, tuple[int, ...]]:
        self.calls.append(("line_numbers", query.term, tuple(files), keep))
        return self._numbers(query, files, keep)

    def _numbers(self, query: Query, files: Sequence[str], keep: int) -> dict[str, tuple[int, ...]]:
        """The numbers of the first `keep` lines of each file that `query` matches."""
        found = {}
        for file in files:
            lines = self._lines(file)
            hits = [n for n, text in enumerate(lines, 1) if self._matches(query, text)]
            found[file] = tuple(hits[:keep])
        return found

    def lines_matching(self, query: Query, texts: Mapping[str, bytes]) -> dict[str, list[int]]:
        self.calls.append(("lines_matching", query.term, tuple(texts)))
        return {
            name: [n for n, text in enumerate(data.splitlines(), 1) if self._matches(query, text)]
            for name, data in texts.items()
        }

    def window(
        self, query: Query, file: str, *, line: int, context: int, span: Span | None = None
    ) -> FileWindow:
        self.calls.append(("window", query.term, file, line, context))
        lines = self._lines(file)
        if not 1 <= line <= len(lines):
            return FileWindow(last_line=len(lines))
        first, last = span or (line - context, line + context)
        numbers = range(max(1, first), min(len(lines), last) + 1)
        return FileWindow(
            lines=tuple(self._source_line(query, n, lines[n - 1]) for n in numbers),
            last_line=len(lines),
        )

    def _source_line(self, query: Query, number: int, text: bytes) -> SourceLine:
        if not query.term or not self._matches(query, text):  # no term: none marked (D46)
            return SourceLine(number, text, is_match=False)
        haystack = text.lower() if query.ignore_case else text
        term = query.term.encode()
        start = haystack.find(term.lower() if query.ignore_case else term)
        return SourceLine(number, text, is_match=True, first_match=(start, start + len(term)))
