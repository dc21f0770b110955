"""The real `Searcher`: ripgrep, resolved once per process."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING, TypeVar

from asrch.domain.errors import EngineError, InputError
from asrch.domain.modes import Mode
from asrch.domain.ports import Entry, PathStatus
from asrch.domain.text_safety import quote_cut
from asrch.domain.words import arg
from asrch.engine.binary import resolve_rg
from asrch.engine.process import HERE, PROCESSES, Children, Launch
from asrch.engine.stderr import RgRefusedError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from asrch.domain.counting import Tally
    from asrch.domain.lines import FileScan, FileWindow, SourceLine, Span
    from asrch.domain.ports import CandidateFiles, Candidates
    from asrch.domain.query import Query
    from asrch.engine.pins import Pins
    from asrch.engine.transport import Transport

# The plans are imported by the operation that runs them: `scout` never loads the JSON
# parsers or a thread pool (and its `logging`), which start-up would otherwise pay for.

T = TypeVar("T")

SMALL_TREE = 2_000
"""Entries (files and directories, as the ignore files' check met them) up to which a
small answer's count and lines come from one rg run (`count_listed`): in a tree this
small a walk is cheap whether or not the answer turns out small (a count past the
listing's lines stops that run and counts again: at most one small walk more)."""


def _can_read(path: str, mode: int) -> str | None:
    """Why rg could not read `path`, or None. A directory must list and be entered."""
    try:
        if stat.S_ISDIR(mode):
            os.close(os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)))
            # Entering it needs search (x) permission, which listing does not.
            os.stat(os.path.join(path, "."))
        else:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            try:
                if os.fstat(fd).st_size == 0 and _waits(fd):
                    return "reading it would wait for data that may never come (not a file on disk)"
            finally:
                os.close(fd)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


_PSEUDO_READ_MAX = 1 << 20


def _waits(fd: int) -> bool:
    """Whether a file of size 0 (empty, or made as it is read: /proc, /sys) would make
    its reader wait before its end (/proc/kmsg: rg held forever, issue 39, item 10):
    read without blocking to its end, at most `_PSEUDO_READ_MAX` bytes. A file on disk
    never waits."""
    read = 0
    try:
        while read < _PSEUDO_READ_MAX:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return False
            read += len(chunk)
    except BlockingIOError:
        return True
    return False


class RipgrepSearcher:
    """Searches paths as rg sees them from `cwd` (None: this process's working directory);
    with `children`, every rg it starts belongs to that set, which can stop them all;
    with `environ`, rg is found (ASRCH_RG, PATH) and runs in that environment instead of
    this process's; with `transport`, rg runs through it (`engine.transport`: a fake in
    tests) instead of as a child process.
    `census`: every count also counts the binary files met, for an answer that carries
    them always (JSON, D45); else only a count asked with `census=True` does. A choice
    made when the searcher is built, for the answers it serves."""

    def __init__(
        self,
        rg: str | None = None,
        *,
        cwd: str | None = None,
        children: Children | None = None,
        environ: Mapping[str, str] | None = None,
        census: bool = True,
        pins: Pins | None = None,
        transport: Transport | None = None,
        candidates: Candidates | None = None,
    ) -> None:
        """`pins`: an MCP call's, through which every path is read (`engine.pins`);
        `candidates`: the source that narrows what a count of a directory reads
        (default: the embedded index of `environ`'s cache directory, D58)."""
        self._census = census
        self._candidates = candidates
        self._index_looked = candidates is not None
        self._walks_checked: dict[str, int | None] = {}
        """The directories whose ignore files were checked, each with the entries met."""
        self._rg = rg
        self._environ = environ
        given = cwd is not None or children is not None or environ is not None
        self._launch = (
            Launch(cwd, children, env=environ, pins=pins, transport=transport or PROCESSES)
            if given or pins is not None or transport is not None
            else HERE
        )

    @property
    def launch(self) -> Launch:
        """How this searcher starts rg (its transport, its children, where)."""
        return self._launch

    @property
    def environ(self) -> Mapping[str, str]:
        """The environment rg runs in (and the index's cache directory is read from)."""
        return os.environ if self._environ is None else self._environ

    def here(self, path: str) -> str:
        """`path` as this process spells what rg, in its working directory, opens."""
        return self._launch.here(path)

    @property
    def candidates(self) -> Candidates | None:
        """The candidate-file source, or None: none asked for yet, or no index anywhere
        (one `stat` of the cache directory, nothing of the index imported, then)."""
        return self._candidates

    def _source(self) -> Candidates | None:
        if not self._index_looked:
            self._index_looked = True
            from asrch.engine.index.location import cache_dir

            environ = self.environ
            if os.path.isdir(cache_dir(environ)):
                from asrch.engine.index.candidates import IndexCandidates

                self._candidates = IndexCandidates(self.rg, self._launch, environ)
        return self._candidates

    def _chosen(self, query: Query, target: str) -> CandidateFiles | None:
        """The files a count of the directory `target` must read, or None (all)."""
        source = self._source()
        if source is None or not os.path.isdir(self._launch.here(target)):
            return None
        return source.candidates(query, target)

    def _count_chosen(
        self, query: Query, target: str, chosen: CandidateFiles, *, cap: int, census: bool
    ) -> Tally | None:
        from asrch.engine.index.verify import count_chosen

        if not chosen.files:
            # No rg run to refuse a query that a scan's would: asked alone.
            self.check_query(query)
        return self._judged(
            query,
            lambda: count_chosen(
                self.rg, query, target, chosen, cap=cap, launch=self._launch, census=census
            ),
        )

    @property
    def rg(self) -> str:
        if self._rg is None:
            self._rg = resolve_rg(self._environ)
        return self._rg

    def inspect(self, path: str) -> PathStatus:
        pins = self._launch.pins
        failed = None if pins is None else pins.failure(path)
        path = self._launch.here(path)
        try:
            if failed is not None:  # not pinned: what the open said (a swap reads so)
                raise failed
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            return PathStatus(Entry.MISSING)
        except OSError as exc:
            # ENOTDIR (`FILE/`), ELOOP, ENAMETOOLONG, EACCES on a parent…: say which.
            return PathStatus(Entry.UNREADABLE, exc.strerror or str(exc))
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            return PathStatus(Entry.SPECIAL)
        reason = _can_read(path, mode)
        if reason is not None:
            return PathStatus(Entry.UNREADABLE, reason)
        return PathStatus(Entry.DIRECTORY if stat.S_ISDIR(mode) else Entry.FILE)

    def _judged(self, query: Query, run: Callable[[], T]) -> T:
        """`run()`, with a complaint of rg's laid at the door of whoever caused it."""
        try:
            return run()
        except RgRefusedError as complaint:
            raise self._blame(query, complaint) from None

    def _blame(self, query: Query, complaint: RgRefusedError) -> EngineError | InputError:
        """The query's fault (exit 2, rg's reason) if rg refuses the query alone on empty
        input but takes a plain literal so; otherwise rg's own failure (exit 4)."""
        fault = self._fault(query)
        return complaint if fault is None else fault

    def _fault(self, query: Query) -> InputError | None:
        """The query's input error if rg refuses it alone and takes a plain literal."""
        from asrch.domain.query import Query

        reason = self._refusal(query)
        if reason is None or self._refusal(Query(term="x")) is not None:
            return None
        if query.mode is Mode.REGEX:
            return InputError(f"invalid {arg('regex')} query {quote_cut(query.term)}: {reason}")
        return InputError(f"rg cannot search for {quote_cut(query.term)}: {reason}")

    def check_query(self, query: Query) -> None:
        fault = self._fault(query)
        if fault is not None:
            raise fault

    def _refusal(self, query: Query) -> str | None:
        """rg's reason for refusing `query` alone, searched in empty input, or None."""
        from asrch.engine.argv import pattern_probe_argv
        from asrch.engine.stderr import read_stderr, reason_of
        from asrch.engine.transport import run_unjudged

        try:
            ended = run_unjudged(pattern_probe_argv(self.rg, query), self._launch)
        except EngineError as exc:
            return exc.message
        said = read_stderr(ended.stderr, [])
        if ended.status in (0, 1) and said.complaint is None:
            return None
        return reason_of(said.complaint or f"exit status {ended.status}")

    def _check_walk(self, target: str) -> int | None:
        """Before rg walks `target`: the ignore files it would open are ones it may
        (`engine.ignore_files`). How many entries that look met (0: not a directory;
        None: not known, a pinned path that is no pinned directory, or a count kept
        between calls that may lie on either side of `SMALL_TREE`)."""
        if target in self._walks_checked:
            return self._walks_checked[target]
        met: int | None = 0
        pins = self._launch.pins
        if pins is not None:
            walk = pins.walk(target)  # read and checked once a call (`engine.pins`)
            met = None if walk is None else walk.entries
            if (
                walk is not None
                and walk.entries - walk.off_by <= SMALL_TREE < walk.entries + walk.off_by
            ):
                met = None  # kept, and maybe on either side of the small tree: not known
        else:
            here = self._launch.here(target)
            if os.path.isdir(here):
                from asrch.engine.ignore_record import check_ignore_files_recorded

                met = check_ignore_files_recorded(here, target, self.environ)
        self._walks_checked[target] = met
        return met

    def walk(self, target: str) -> list[str]:
        from asrch.engine.argv import as_typed, files_argv
        from asrch.engine.transport import run_to_end

        self._check_walk(target)
        launch = self._launch.walking(target)
        given = launch.operand(target)
        output, _ = run_to_end(files_argv(self.rg, given), launch)
        return [
            as_typed(path.decode("utf-8", "surrogateescape"), target, given)
            for path in output.split(b"\0")[:-1]
        ]

    def file_types(self) -> dict[str, tuple[str, ...]]:
        from asrch.engine.argv import type_list_argv
        from asrch.engine.transport import run_to_end

        output, _ = run_to_end(type_list_argv(self.rg), self._launch)
        types: dict[str, tuple[str, ...]] = {}
        for line in output.decode("utf-8", "replace").splitlines():
            name, colon, globs = line.partition(": ")
            if colon:
                types[name] = tuple(g.strip() for g in globs.split(","))
        if not types:
            raise EngineError("rg --type-list printed no types; check ASRCH_RG")
        return types

    def resolve(self, path: str) -> str:
        """Where `path` lands, absolute, symlinks resolved; as well as can be told when
        that cannot (issue 32, item 8): a component that changed type while it was
        resolved (EINVAL, ENOENT) leaves the path's own spelling, made absolute; a
        working directory that no longer exists leaves the path as given (relative:
        where it lands is unknown, as it is to rg, which matches globs whole then)."""
        here = self._launch.here(path)
        try:
            return os.path.realpath(here)
        except OSError:
            pass
        try:
            return os.path.normpath(os.path.join(os.getcwd(), here))
        except OSError:
            return os.path.normpath(here)

    def count_many(self, searches: Sequence[tuple[Query, str]], *, cap: int) -> list[Tally]:
        """Several counting rg children at once, one per (query, target), results in order."""
        from concurrent.futures import ThreadPoolExecutor

        for _, target in searches:
            self._check_walk(target)
        if len(searches) <= 1:
            return [self.count(q, t, cap=cap) for q, t in searches]
        workers = min(len(searches), max(2, os.cpu_count() or 2))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(self.count, q, t, cap=cap) for q, t in searches]
            try:
                return [f.result() for f in futures]
            except BaseException:
                for future in futures:
                    future.cancel()
                # Only this searcher's children: a server's other calls go on.
                self._launch.stop_all()
                raise

    def count_terms(self, queries: Sequence[Query], target: str, *, cap: int) -> list[Tally]:
        """`count` of each query under one target; a directory is read once for all of
        them (the one-pass plan), a file is counted per query (rg's binary rule for a
        file it is given differs from a walk's), and so is a regex (survey has none: the
        plan is not tested with one)."""
        # One walk matches with the first query's flags (`lines_argv`): only queries
        # sharing all their options can share it.
        self._check_walk(target)
        shared = len({q.options for q in queries}) == 1
        if len(queries) <= 1 or not shared or queries[0].mode is Mode.REGEX:
            return self.count_many([(q, target) for q in queries], cap=cap)
        if not os.path.isdir(self._launch.here(target)):
            return self.count_many([(q, target) for q in queries], cap=cap)
        spotted = self._count_union(queries, target, cap=cap)
        if spotted is not None:
            return spotted
        if all(self._chosen(q, target) is not None for q in queries):
            # What the one-pass plan answers, from the candidates: without the census,
            # the binary files are said only where no term matched (`one_pass`).
            tallies = [self.count(q, target, cap=cap, census=True) for q in queries]
            if not self._census and any(t.files for t in tallies):
                return [t._replace(binary=0) for t in tallies]
            return tallies
        from asrch.engine.one_pass import count_terms

        try:
            return count_terms(
                self.rg, queries, target, cap=cap, launch=self._launch, census=self._census
            )
        except RgRefusedError:
            # Whose fault: each query alone says (and blames it).
            return self.count_many([(q, target) for q in queries], cap=cap)

    def _count_union(
        self, queries: Sequence[Query], target: str, *, cap: int
    ) -> list[Tally] | None:
        """The parallel plan (`engine.spots`) over the files an index names for any of
        the queries (D58), or None: no index, the plan does not fit, or the scan must
        say it."""
        from asrch.engine.spots import count_spotted_files, spot_patterns

        source = self._source()
        if source is None or (spots := spot_patterns(queries)) is None:
            return None
        chosen = source.union(queries, target)
        if chosen is None:
            return None
        from asrch.engine.index.verify import path_batches

        try:
            tallies = count_spotted_files(
                self.rg,
                queries,
                target,
                spots,
                batches=path_batches(chosen.files),
                binary=chosen.binary,
                cap=cap,
                launch=self._launch,
            )
        except RgRefusedError:
            return None  # whose fault: each query alone says (and blames it)
        if tallies is None:
            return None
        # As the one-pass plan answers: without the census, the binary files are said
        # only where no term matched (`one_pass`).
        if not self._census and any(t.files for t in tallies):
            return [t._replace(binary=0) for t in tallies]
        return tallies

    def count(self, query: Query, target: str, *, cap: int, census: bool = False) -> Tally:
        from asrch.engine.counts import count_files

        self._check_walk(target)
        binary = census or self._census
        chosen = self._chosen(query, target)
        if chosen is not None:
            tally = self._count_chosen(query, target, chosen, cap=cap, census=binary)
            if tally is not None:
                return tally
        return self._judged(
            query,
            lambda: count_files(
                self.rg, query, target, cap=cap, launch=self._launch, census=binary
            ),
        )

    def count_listed(
        self, query: Query, target: str, *, cap: int, keep: int
    ) -> tuple[Tally, dict[str, tuple[SourceLine, ...]]] | None:
        """One rg run for a small tree's count and lines (`files.count_and_lines`): a
        directory of at most `SMALL_TREE` entries, counted without the census or the
        filters, not through an index. None: count and read the lines apart."""
        if self._census or query.filters.active:
            return None
        if not os.path.isdir(self._launch.here(target)):
            return None
        met = self._check_walk(target)
        if met is None or met > SMALL_TREE or self._chosen(query, target) is not None:
            return None
        from asrch.engine.files import count_and_lines

        return self._judged(
            query,
            lambda: count_and_lines(
                self.rg, query, target, cap=cap, keep=keep, launch=self._launch
            ),
        )

    def scan(self, query: Query, file: str, *, context: int, keep: int, cap: int) -> FileScan:
        from asrch.engine.files import scan_file

        return self._judged(
            query,
            lambda: scan_file(
                self.rg, query, file, context=context, keep=keep, cap=cap, launch=self._launch
            ),
        )

    def matching_lines(
        self, query: Query, files: Sequence[str], *, keep: int
    ) -> dict[str, tuple[SourceLine, ...]]:
        from asrch.engine.files import matching_lines

        return self._judged(
            query,
            lambda: matching_lines(self.rg, query, files, keep=keep, launch=self._launch),
        )

    def line_numbers(
        self, query: Query, files: Sequence[str], *, keep: int
    ) -> dict[str, tuple[int, ...]]:
        from asrch.engine.files import line_numbers

        found = self._judged(
            query, lambda: line_numbers(self.rg, query, files, keep=keep, launch=self._launch)
        )
        if found is not None:
            return found
        read = self.matching_lines(query, files, keep=keep)
        return {f: tuple(line.number for line in read.get(f, ())) for f in files}

    def lines_matching(self, query: Query, texts: Mapping[str, bytes]) -> dict[str, list[int]]:
        from asrch.engine.texts import lines_matching

        return self._judged(
            query, lambda: lines_matching(self.rg, query, texts, launch=self._launch)
        )

    def window(
        self, query: Query, file: str, *, line: int, context: int, span: Span | None = None
    ) -> FileWindow:
        from asrch.engine.files import read_window

        return self._judged(
            query,
            lambda: read_window(
                self.rg, query, file, line=line, context=context, span=span, launch=self._launch
            ),
        )
