"""The survey's parallel plan: where each term matched, from one unsorted rg walk that
prints only its matches.

The path-ordered plan (`one_pass`) walks on one thread (`--sort=path`) so that it can
stop once every term has its 50,000 lines, and has each matched line judged again per
term by rg. Where the terms are fixed strings matched with case, rg's own matches can
say which terms a line holds, and the walk may run on every core:

1. One rg run over the directory, unsorted (rg's parallel walk), prints each match of
   any pattern as `N NUL MATCH`, grouped under the file's path (`spots_argv`); rg's
   `--stats` end the output.
2. The patterns are the terms and their overlaps (`spot_patterns`): then the matches rg
   reports on a line hold every term the line holds, and a term's matching lines in a
   file are the lines of the records whose match holds it.
3. Each term's files, put in path order, are cut at the cap (`cut_at_cap`): its
   path-ordered scan, as the walk read every file.

The walk reads every file, so its answer is the path-ordered plan's only where that plan
reads every file too: when some term stays under the cap. When every term reaches it,
or a file reaches rg's per-file bound (`--max-count`: its lines may be cut short for a
term), or a file's records outgrow `_FILE_MAX`, or rg stopped at a NUL after a match, or
what was read disagrees with rg's statistics, the walk is stopped and the path-ordered
plan answers (`PATH_ORDER`; `BINARY`: with rg's log). rg holds a file's records until
the file is read (its parallel printer writes each file whole), so a file's records
cost rg memory: at most `cap` lines of it, however many matches a line holds.
"""

import enum
import os
import re
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from itertools import compress, repeat
from operator import add, sub
from typing import NamedTuple

from asrch.domain.counting import Tally
from asrch.domain.modes import Mode
from asrch.domain.query import Query
from asrch.engine.argv import spots_argv
from asrch.engine.counts import kept_by_filters, path_order
from asrch.engine.process import Launch
from asrch.engine.stderr import RgSaid
from asrch.engine.transport import Ended, RgCall
from asrch.engine.walk_output import cut_each, looks_binary_after_match, said_by_walk

_TERM_MAX = 256
"""Longer terms take the path-ordered plan: the overlap closure is quadratic in length."""
_PATTERNS_MAX = 64
"""More patterns (terms and their overlaps) take the path-ordered plan: beyond this rg's
literal search slows down, and the closure may grow fast."""
_FILE_MAX = 2 << 20
"""A file whose records outgrow this stops the walk (lines dense with matches: 170,000
records and more; a source file has a few hundred): the path-ordered plan reads such a
file without a record per match, and stops at the cap in it."""
_RG_MEMORY = 256 << 20
"""rg's data bound (`RLIMIT_DATA`): rg holds each file's records until the file is read,
and a line until its end, so a line of hundreds of megabytes dense with matches would
cost gigabytes before asrch could step aside. Past the bound rg's allocation fails and
rg ends by a signal; the path-ordered plan answers (≈0.15 s wasted on a 200 MB line).
rg searching source needs a few tens of megabytes."""
_READ = 1 << 20
_PIPE = 1 << 20
# rg's `--stats` block, which ends the output: the matches (records) printed and the
# files they are in.
_STATS = re.compile(
    rb"\n([0-9]+) matches\n[0-9]+ matched lines\n([0-9]+) files contained matches\n"
    rb"[0-9]+ files searched\n[0-9]+ bytes printed\n[0-9]+ bytes searched\n"
    rb"[0-9.]+ seconds spent searching\n[0-9.]+ seconds\n"
)


class Unspotted(enum.Enum):
    """Why the parallel plan gave no answer."""

    PATH_ORDER = "path order"
    """The answer needs the path-ordered plan (a cap, a bound, a record too large)."""
    BINARY = "binary after a match"
    """rg stopped at a NUL in a file after some of its matches: the path-ordered plan
    answers, with rg's log (only the log tells such a file from a line that reads the
    same)."""


class SpotPatterns(NamedTuple):
    """What rg looks for so that its matches name the terms each line holds."""

    patterns: tuple[str, ...]
    """The terms and their overlaps, longest first."""
    terms_in: dict[bytes, tuple[int, ...]]
    """For each pattern (bytes), the queries whose term it holds."""
    alone: tuple[tuple[bytes, tuple[int, ...]], ...]
    """Each pattern that holds one term and nothing else, as rg prints its record's
    tail (`NUL PATTERN LF`), with the queries of that term."""


def spot_patterns(queries: Sequence[Query]) -> SpotPatterns | None:
    """The patterns of the parallel plan, or None where it does not fit: fixed strings
    matched with case, one set of options, a closure of at most `_PATTERNS_MAX`.

    rg's search is leftmost-first: at each start it reports the first pattern (in the
    order given) that matches there, then goes on after it. Where a term can overlap
    another (the end of one the start of the other: `import`, `thread`), a match of one
    could hide the other. So every overlap of a pattern with a term it does not hold is
    a pattern too (`importhread`), closed under the same rule, and the longest pattern
    at a start is reported. Then every term a line holds lies inside a match rg reports
    on that line: a term starting inside a reported match and ending past it would have
    made the longer pattern match there, and one starting at a match's start is inside
    it (no shorter pattern wins). A match holds the terms that are its substrings."""
    if len(queries) < 2 or len({q.options for q in queries}) != 1:
        return None
    options = queries[0].options
    if options.mode is not Mode.FIXED or options.ignore_case:
        return None
    try:
        terms = [q.term.encode("utf-8") for q in queries]
    except UnicodeEncodeError:
        return None
    if any(len(t) > _TERM_MAX for t in terms):
        return None
    patterns = _closure(list(dict.fromkeys(terms)))
    if patterns is None:
        return None
    terms_in = {p: tuple(i for i, t in enumerate(terms) if t in p) for p in patterns}
    alone = tuple(
        (b"\0" + p + b"\n", held)
        for p, held in terms_in.items()
        if all(terms[i] == p for i in held)
    )
    ordered = sorted(patterns, key=lambda p: (-len(p), p))
    return SpotPatterns(tuple(p.decode("utf-8") for p in ordered), terms_in, alone)


def _closure(terms: list[bytes]) -> set[bytes] | None:
    """The terms, and each pattern extended by a term it does not hold whose start is
    its end, until nothing new comes; None past `_PATTERNS_MAX`."""
    found = set(terms)
    frontier = list(terms)
    while frontier:
        grown: list[bytes] = []
        for pattern in frontier:
            for term in terms:
                if term in pattern:
                    continue
                for k in range(1, min(len(pattern), len(term))):
                    if pattern.endswith(term[:k]) and (longer := pattern + term[k:]) not in found:
                        found.add(longer)
                        grown.append(longer)
                        if len(found) > _PATTERNS_MAX:
                            return None
        frontier = grown
    return found


def count_spotted(
    rg: str,
    queries: Sequence[Query],
    target: str,
    spots: SpotPatterns,
    *,
    cap: int,
    launch: Launch,
    log: bool,
) -> list[Tally] | Unspotted:
    """One Tally per query under the directory `target`, each its own path-ordered scan
    cut at `cap`, from one parallel walk for `spots` (`spot_patterns`); or why not."""
    launch = launch.walking(target)
    given = launch.operand(target)
    kept = kept_by_filters(queries[0], target, given) if queries[0].filters.active else None
    argv = spots_argv(rg, queries[0], spots.patterns, [given], cap=cap, log_binary=log)
    files = _SpottedFiles(spots, len(queries), cap=cap, kept=kept)
    ended = _spotted(argv, launch, files)
    if isinstance(ended, Unspotted):
        return ended
    said = said_by_walk(argv, ended, printed=files.printed_files > 0, log=log)
    # rg's log names a binary file as its printer prints paths, `/` as NUL: the
    # filters read paths (`!sub/` kept every binary file under `sub/`).
    binary = [p.replace(b"\0", b"/") for p in said.binary_paths()] if said.binary else []
    return _cut(
        files.paths,
        files.counts,
        queries=len(queries),
        target=target,
        said=said,
        binary=binary,
        kept=kept,
        cap=cap,
        given=given,
    )


def count_spotted_files(
    rg: str,
    queries: Sequence[Query],
    target: str,
    spots: SpotPatterns,
    *,
    batches: Sequence[Sequence[str]],
    binary: Sequence[str],
    cap: int,
    launch: Launch,
) -> list[Tally] | None:
    """`count_spotted` of the directory `target` from the files an index names as the
    only ones that may hold any of the terms (`batches` of them, spelled as the walk
    prints them, one rg run a batch) and the `binary` files the walk meets (counted,
    never read). None: what a walk would say differs or cannot be told here (rg said
    anything on stderr, a file turned binary, every term capped, a bound): the scan
    answers, and says it as a scan says it.

    rg prints a named file's matches as it prints a walked one's, and the index names
    every file that may hold a term (D58), so each term's files are the walk's."""
    launch = launch.walking(target)
    given = launch.operand(target)
    kept = kept_by_filters(queries[0], target, given) if queries[0].filters.active else None
    paths: list[bytes] = []
    counts: list[list[int]] = []
    totals = [0] * len(queries)
    argvs = [
        spots_argv(rg, queries[0], spots.patterns, batch, cap=cap, log_binary=False)
        for batch in batches
    ]
    with ExitStack() as runs:
        # Every batch's rg starts at once: each writes ahead into its pipe while an
        # earlier batch's records are read (what one walk's rg does for its files).
        started = [(argv, runs.enter_context(_started(argv, launch))) for argv in argvs]
        for argv, run in started:
            files = _SpottedFiles(spots, len(queries), cap=cap, kept=kept)
            ended = _ended(run, files)
            if isinstance(ended, Unspotted):
                return None  # the later batches' rg are stopped on the way out
            said = said_by_walk(argv, ended, printed=files.printed_files > 0, log=False)
            if said.skipped or said.complaint is not None or said.log or said.binary:
                return None
            paths += files.paths
            counts += files.counts
            totals = list(map(add, totals, files.totals))
    if min(totals) >= cap:
        return None  # every term capped: the path-ordered plan's early stop says more
    seen = [os.fsencode(path) for path in binary]
    return _cut(
        paths,
        counts,
        queries=len(queries),
        target=target,
        said=RgSaid(binary=len(seen)),
        binary=seen,
        kept=kept,
        cap=cap,
        given=given,
    )


def _spotted(argv: list[str], launch: Launch, files: "_SpottedFiles") -> Ended | Unspotted:
    """Run rg for `argv` and hand its records to `files`: how rg ended, or why the
    plan gives no answer."""
    with _started(argv, launch) as run:
        return _ended(run, files)


def _started(argv: list[str], launch: Launch) -> RgCall:
    """rg started for the plan: its output streamed through a large pipe, its data
    bounded (`_RG_MEMORY`)."""
    return launch.transport.start(argv, launch, stream=True, pipe_size=_PIPE, memory=_RG_MEMORY)


def _ended(run: RgCall, files: "_SpottedFiles") -> Ended | Unspotted:
    """Hand the records of the started `run` to `files`: how rg ended, or why the plan
    gives no answer (rg stopped then)."""
    verdict = _read(run, files)
    if verdict is not None:
        run.stop()
        run.end()
        return verdict
    ended = run.end()
    if ended.status < 0:
        return Unspotted.PATH_ORDER  # ended by a signal: its data bound, say
    return ended


def _cut(
    paths: list[bytes],
    counts: list[list[int]],
    *,
    queries: int,
    target: str,
    said: RgSaid,
    binary: list[bytes],
    kept: Callable[[bytes], bool] | None,
    cap: int,
    given: str,
) -> list[Tally]:
    """Each query's files (from each file's counts per query) in path order, cut."""
    in_order = path_order(paths)
    ordered_paths = list(map(paths.__getitem__, in_order))
    # Per query, its count in each file, in path order (one column of the counts).
    columns = zip(*map(counts.__getitem__, in_order), strict=True) if paths else ((),) * queries
    return cut_each(
        (
            list(zip(compress(ordered_paths, column), filter(None, column), strict=True))
            for column in columns
        ),
        target,
        said,
        binary,
        kept=kept,
        cap=cap,
        given=given,
    )


class _SpottedFiles:
    """The files rg printed matches of, in its (unordered) order, each with its matching
    lines per query; the running totals that tell when the walk must stop."""

    def __init__(
        self, spots: SpotPatterns, queries: int, *, cap: int, kept: Callable[[bytes], bool] | None
    ) -> None:
        self._spots = spots
        self._queries = queries
        self._cap = cap
        self._kept = kept
        self.printed_files = 0
        """Files rg printed records of (those the filters drop included)."""
        self.records = 0
        self.printed: list[bytes] = []
        """The files kept, as rg printed them (`/` as NUL: each its `rg_path_order`
        key, as no name holds a NUL)."""
        self.counts: list[list[int]] = []
        self._totals = [0] * queries
        self._alone = list(spots.alone)
        self._sorted_at = 0

    @property
    def totals(self) -> list[int]:
        """Per query, its matching lines in the files read so far."""
        return self._totals

    @property
    def paths(self) -> list[bytes]:
        """The files kept, in rg's order, their paths as rg walked them (`/`)."""
        return self.paths_in(range(len(self.printed)))

    def paths_in(self, order: Iterable[int]) -> list[bytes]:
        """The paths (`/`) of the files kept at these places, in this order: made in C,
        as a printed path holds no LF (its heading ends at the first)."""
        chosen = list(map(self.printed.__getitem__, order))
        return b"\n".join(chosen).replace(b"\0", b"/").split(b"\n") if chosen else []

    def add(self, printed: bytes, records: bytes) -> Unspotted | None:
        """One file's path (`/` as NUL) and records (`N NUL MATCH` lines, each
        LF-ended); a reason to stop."""
        return self.add_files([printed + b"\n" + records.removesuffix(b"\n")])

    def add_files(self, blocks: list[bytes]) -> Unspotted | None:
        """Files as rg printed them, each its path (`/` as NUL), a LF and its records
        (`N NUL MATCH` lines, a LF between two); a reason to stop.

        Read a batch at a time (all the files a read of rg's output completed): the
        counts of files and records are summed in C, and each file costs a partition,
        a split into a set where it has more than one record, and a `count` per term
        it holds (the commonest terms first)."""
        self.printed_files += len(blocks)
        records_in = sum(map(bytes.count, blocks, repeat(b"\n")))
        self.records += records_in
        cap = self._cap
        kept = self._kept
        # Only a batch of `cap` records or more can hold a file on `cap` lines.
        bounded = records_in >= cap
        for block in blocks:
            printed, heading, records = block.partition(b"\n")
            if not heading:
                return Unspotted.PATH_ORDER  # a path with no record after it is no rg's
            # rg's warning names the file as printed (`/` as NUL).
            if records.endswith(b")") and looks_binary_after_match(printed, records + b"\n"):
                if kept is None or kept(printed.replace(b"\0", b"/")):
                    # rg stopped at a NUL after some matches (`rg --count` counts none
                    # there); unless every term was capped before this file, which the
                    # path-ordered plan answers without the log, as a file at a time.
                    return self._capped() or Unspotted.BINARY
                # A file the filters drop is no file of the answer, binary or not, as in
                # the path-ordered plan: no second walk for it. Its warning is no match.
                self.records -= 1
                continue
            if kept is not None and not kept(printed.replace(b"\0", b"/")):
                continue
            if bounded and records.count(b"\n") + 1 >= cap and _line_runs(records + b"\n") >= cap:
                # rg's `--max-count` may have cut this file short for some term. Told from
                # the line numbers alone, before the records are held one by one (50,000
                # lines of 12 terms: 600,000 of them).
                return Unspotted.PATH_ORDER
            counts = self._count(records)
            if counts is None:
                return Unspotted.PATH_ORDER  # a match of no pattern: no rg's output
            self.printed.append(printed)
            self.counts.append(counts)
        return self._capped()

    def _capped(self) -> Unspotted | None:
        """PATH_ORDER once every term is capped (the totals are kept as each file is
        counted): the path-ordered plan stops early, and what it met before it stopped
        (skipped and binary files) is its own to say."""
        totals = self._totals
        if len(self.counts) >= self._sorted_at + 256:
            # The commonest terms first, as counted so far (every 256 files: a read of
            # a few files each wake-up should not sort each time).
            self._sorted_at = len(self.counts)
            self._alone.sort(key=lambda alone: -totals[alone[1][0]])
        return Unspotted.PATH_ORDER if min(totals) >= self._cap else None

    def _count(self, records: bytes) -> list[int] | None:
        """Per query, the lines among a file's records (a LF between two) that hold its
        term; None if a record is no match of a pattern."""
        if b"\n" in records:
            lines = records.split(b"\n")
            distinct = set(lines)
            left = len(distinct)
            # A term twice on a line is two equal records: counted once.
            text = b"\n".join(distinct) if left < len(lines) else records
        else:
            distinct = {records}
            left = 1
            text = records
        text += b"\n"
        counts = [0] * self._queries
        totals = self._totals
        # The commonest terms first (as counted so far): a file's records are most often
        # all of one or two terms, and the search ends once every record is placed.
        for tail, held in self._alone:
            n = text.count(tail)
            if n:
                for query in held:
                    counts[query] = n
                    totals[query] += n
                left -= n
                if not left:
                    return counts
        totals[:] = map(sub, totals, counts)  # counted again below
        # Some record is an overlap or a term holding another: a line's terms are the
        # union of its records' (a term counts once a line).
        per_line: dict[bytes, set[int]] = {}
        terms_in = self._spots.terms_in
        for record in distinct:
            line, _, match = record.partition(b"\0")
            terms = terms_in.get(match)
            if terms is None:
                return None
            per_line.setdefault(line, set()).update(terms)
        counts = [0] * self._queries
        for line_terms in per_line.values():
            for query in line_terms:
                counts[query] += 1
        totals[:] = map(add, totals, counts)
        return counts


# A line's records, printed together: its number, then each record of that number.
_LINE_RUN = re.compile(rb"([0-9]+)\0[^\n]*\n(?:\1\0[^\n]*\n)*")


def _line_runs(records: bytes) -> int:
    """How many lines the `N NUL MATCH` records are on, as rg prints them (a line's
    records together); records out of order count a line once per run of them, never
    fewer than its lines."""
    return len(_LINE_RUN.findall(records))


def _read(run: RgCall, files: _SpottedFiles) -> Unspotted | None:
    """Hand the files rg printed to `files`, a read's worth at a time; a reason to stop.

    A file is its path (`/` printed as NUL: `spots_argv`), a LF, its records, and an
    empty line (on one thread, an empty line before the next file); rg's statistics
    end the output. A name holding a LF would make two lines of its path: the count of
    files and records read must then differ from rg's own statistics, since a name can
    only add a LF, never take one away."""
    pending: list[bytes] = []
    size = 0
    for chunk in run.chunks(_READ):
        if pending:
            # The records of a file began in an earlier chunk: look for their end
            # across the seam (the last byte before it may be their last LF).
            if b"\n\n" not in pending[-1][-1:] + chunk[:1] and b"\n\n" not in chunk:
                pending.append(chunk)
                size += len(chunk)
                if size > _FILE_MAX:
                    return Unspotted.PATH_ORDER
                continue
            buf = b"".join([*pending, chunk])
        else:
            buf = chunk
        # Each file ends at the first empty line after its path (a record is never
        # empty); what follows the last one is the start of the next file.
        blocks = buf.split(b"\n\n")
        rest = blocks.pop()
        if blocks and (verdict := files.add_files(blocks)):
            return verdict
        pending = [rest] if rest else []
        size = len(rest)
        if size > _FILE_MAX:
            return Unspotted.PATH_ORDER
    rest = b"".join(pending)
    # rg on one thread (`--threads=1`, which it picks itself on one core) separates
    # files by an empty line instead of ending each with one: the statistics' leading
    # LF then ended the last file. The counts below are checked either way.
    stats = _STATS.fullmatch(rest)
    if stats is None and files.printed_files:
        stats = _STATS.fullmatch(b"\n" + rest)
    if stats is None or (int(stats[1]), int(stats[2])) != (files.records, files.printed_files):
        return Unspotted.PATH_ORDER
    return None
