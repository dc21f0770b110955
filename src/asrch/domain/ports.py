"""The seam between the pure core and the search engine (cf. httpx's transports).

Commands are written against `Searcher`; the real one runs ripgrep, tests may swap in
another that returns plain values.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    # Annotations only: a command that never scans need not build the scan models.
    from collections.abc import Mapping, Sequence

    from asrch.domain.counting import Tally
    from asrch.domain.definitions import NameLines, NotParsed
    from asrch.domain.lines import (
        Definition,
        FileScan,
        FileWindow,
        Placements,
        SourceLine,
        Span,
        Unplaced,
    )
    from asrch.domain.query import Query
    from asrch.domain.regions import Header, Region
    from asrch.domain.units import Around


class Entry(Enum):
    """What a path names in the filesystem, as far as a search cares."""

    MISSING = "missing"
    DIRECTORY = "directory"
    FILE = "file"
    """A regular file (or a link to one)."""
    SPECIAL = "special"
    """A FIFO, socket or device: never opened, since reading one may block forever."""
    UNREADABLE = "unreadable"
    """Named but not usable: not readable, a symlink loop, a name too long, `FILE/`…"""


class PathStatus(NamedTuple):
    entry: Entry
    reason: str = ""
    """Why an UNREADABLE path cannot be read, in the system's words."""


class Files(Protocol):
    """The filesystem as rg sees it: what a path is, where it is, what a walk reaches."""

    def inspect(self, path: str) -> PathStatus:
        """What `path` is, and whether it can be read; a FIFO or device is never opened."""
        ...

    def resolve(self, path: str) -> str:
        """The real location of an existing `path`: absolute, symlinks resolved."""
        ...

    def check_query(self, query: Query) -> None:
        """Raise the query's input error if rg refuses the query alone (a regex that does
        not parse). Asked only once a path is refused too: the query, given first, is
        named first (issue 32)."""
        ...

    def walk(self, target: str) -> list[str]:
        """The files a search of the directory `target` walks to, spelled as rg prints
        them (`target` as given, `.` as `./`), in no particular order (D38: which
        filters did nothing)."""
        ...


class Types(Protocol):
    """rg's file types, which `--type` names."""

    def file_types(self) -> dict[str, tuple[str, ...]]:
        """rg's file types (`--type` names) and the file-name globs of each."""
        ...


class Counts(Protocol):
    """Matching lines per file: survey's and scout's numbers."""

    def count(self, query: Query, target: str, *, cap: int, census: bool = False) -> Tally:
        """Matching lines per file under `target`, in path order, stopped at `cap`.
        `census`: count the binary files met too (D45: the answer prints them); a
        searcher may count them anyway (`binary` is otherwise 0)."""
        ...

    def count_listed(
        self, query: Query, target: str, *, cap: int, keep: int
    ) -> tuple[Tally, dict[str, tuple[SourceLine, ...]]] | None:
        """`count` (without the census) and, when it is at most `keep` lines, the
        matching lines of each file counted (as `matching_lines`), from one search; None
        where the searcher does not (a large tree: two searches cost less than a second
        walk) or the count passed `keep`: count and read the lines apart."""
        ...

    def count_terms(self, queries: Sequence[Query], target: str, *, cap: int) -> list[Tally]:
        """`count` of each query under one `target`, each with its own cap, in order."""
        ...

    def count_many(self, searches: Sequence[tuple[Query, str]], *, cap: int) -> list[Tally]:
        """`count` of each (query, target), each with its own cap, in order."""
        ...


class Lines(Protocol):
    """The text of matching lines and their context in named files."""

    def scan(self, query: Query, file: str, *, context: int, keep: int, cap: int) -> FileScan:
        """The first `keep` matches of one file with `context` lines, and the total.

        Past `keep` matches the total is counted without text, stopped at `cap`; which
        lines follow the `keep`-th match is not specified.
        """
        ...

    def matching_lines(
        self, query: Query, files: Sequence[str], *, keep: int
    ) -> dict[str, tuple[SourceLine, ...]]:
        """The first `keep` matching lines of each of `files` (no context), by file as
        given; one search for all of them (D32's listed lines)."""
        ...

    def line_numbers(
        self, query: Query, files: Sequence[str], *, keep: int
    ) -> dict[str, tuple[int, ...]]:
        """The numbers of the first `keep` matching lines of each of `files`, by file as
        given, none of their text (survey's places, D56: a line of 200 MB is not read
        out); one search for all of them."""
        ...

    def lines_matching(self, query: Query, texts: Mapping[str, bytes]) -> dict[str, list[int]]:
        """For each of `texts` (lines asrch read from a file as rg reads it, each with its
        line end; D53's header comments), the numbers of the lines `query` matches, from
        1: one search for all of them, no file read again."""
        ...

    def window(
        self, query: Query, file: str, *, line: int, context: int, span: Span | None = None
    ) -> FileWindow:
        """Lines `line - context .. line + context` (or `span`, first to last) of one
        file, matches marked (none when the query's term is empty: `show FILE --line N`,
        D46), and the file's last line number (an out-of-range `line` gets no lines)."""
        ...


class CandidateFiles(NamedTuple):
    """The files under a directory that a search must read to count as a scan of it
    would (D58), spelled as the walk prints them, and the binary files the walk meets
    (counted, never read)."""

    files: tuple[str, ...]
    binary: tuple[str, ...]


class Candidates(Protocol):
    """A candidate-file source: an index that narrows which files rg reads, never what
    it counts (the embedded one: `engine.index.candidates`; one for zoekt would be
    another adapter, docs/index.md)."""

    used: bool
    """Some count of this caller read only candidates."""
    present: bool
    """An index covers a directory this caller searched."""
    note: str | None
    """Why an index there was not used (corrupt, locked, another version, stale), once."""

    def candidates(self, query: Query, target: str) -> CandidateFiles | None:
        """The files under the directory `target` that can hold a match of `query` (a
        superset), with every file changed since the index; None: scan them all."""
        ...

    def union(self, queries: Sequence[Query], target: str) -> CandidateFiles | None:
        """`candidates` of all `queries` together (one read of them all); None: scan."""
        ...


class Searcher(Files, Types, Counts, Lines, Protocol):
    """The four concerns the use cases ask of a search engine, which one adapter may
    serve whole (rg: `engine.searcher.RipgrepSearcher`). Where a line sits in its file's
    definitions is no search: `Scopes`, injected apart."""


class Definitions(Protocol):
    """Which matching lines name a definition (D52, `--def`): the same parse as `Scopes`."""

    def names(self, file: str, lines: Sequence[SourceLine]) -> NameLines | NotParsed:
        """Which of `lines` (matching lines of `file`, as rg read them) are a line where a
        definition's name stands, and which the parse could not read (an error there, or
        the line is no longer the line given); or why the file was not parsed. No lines:
        only whether it would be parsed (nothing is)."""
        ...


class Scopes(Definitions, Protocol):
    """Where a line sits in its file's definitions (D31): a parse, beside the engine.
    The composition roots build it to read files where their searcher searches, and the
    use cases that print lines (scout's listed lines, sample, show) take it as their
    own parameter; so do the use cases that keep definition lines (`Definitions`)."""

    def of(self, file: str, lines: Sequence[SourceLine], largest: int | None = None) -> Placements:
        """The definitions enclosing each of `lines` (by number) at its first match (else
        its first byte that is not blank), outermost first, at most `SCOPE_DEPTH` (the
        innermost kept); `()` at the top level. None where the parse cannot place the line
        for sure, or the file's line is no longer the line given: never a guessed scope.
        No entry at all: the file has no grammar, nothing was parsed, or (`too_large`) it
        is larger than `largest` bytes (scout's listing, issue 39; None: the scope
        reader's own bound). And which of the lines begin with their own definition's
        header (D48)."""
        ...

    def around(self, file: str, line: int) -> Definition | Unplaced:
        """The innermost definition enclosing `line` (D46), or why none is given, by the
        same rules as `of`: never a guessed one."""
        ...

    def units(self, file: str, lines: Sequence[int]) -> dict[int, Around | Unplaced] | Unplaced:
        """For each of `lines`, the syntactic units that hold it and the docstrings and
        comment blocks near it (D51, `show --scope`), or why none is given, for the line or
        the whole file: by the same rules as `of`, never guessed."""
        ...

    def regions(self, file: str) -> tuple[Region, ...]:
        """The regions of `file` whose matches fold in `show` (D53): its leading header
        comment, its in-file test regions; none when it has no grammar or the parse
        fails or passes its bounds (nothing folds then)."""
        ...

    def headers(self, files: Sequence[str]) -> dict[str, Header]:
        """D53 in scout: the header comment of each of `files` that has one, as `regions`
        finds it, and its text, read without a parse from each file's first bytes (a
        header that runs past them is not known)."""
        ...

    def tests(self, file: str) -> tuple[Region, ...]:
        """D53 in scout: `file`'s in-file test regions, as `regions` finds them, parsed
        only when its text holds a test marker."""
        ...
