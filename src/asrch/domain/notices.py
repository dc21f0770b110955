"""Warnings and hints that ride along with a report (D6).

Notices are data; the renderer words them. None of them changes the exit status.
Each ends with a `kind` field, its name in the JSON contract (D27); a field, not a
class attribute, so that two notices of different kinds never compare equal (they are
NamedTuples, cheap to define at start-up: docs/performance.md).
"""

import typing
from typing import Literal, NamedTuple

from asrch.domain.boundaries import loose_edges
from asrch.domain.counting import Tally, relative_to
from asrch.domain.definitions import Unjudged
from asrch.domain.limits import BROAD_FILES, BROAD_MATCHES, SCAN_CAP, SHOW_MAX_MATCHES
from asrch.domain.lines import Unplaced
from asrch.domain.modes import Mode
from asrch.domain.query import Query


class BroadNotice(NamedTuple):
    matches: int
    files: int
    capped: bool
    term: str | None = None
    """Named in survey, where several terms share one report."""
    mode: Mode = Mode.FIXED
    """What would narrow depends on it: a bounded mode is no advice when one is in use."""
    ignore_case: bool = False
    """With `-i`, searching case-sensitively narrows too."""
    one_file: bool = False
    """The search was of one named file: there is no narrower path."""
    bounded_narrows: bool = True
    """False for a fixed term without a letter or digit: `--identifier` / `--word` would
    change what it means, not where it may match (D14's reason)."""
    kind: Literal["broad"] = "broad"


class CapNotice(NamedTuple):
    cap: int = SCAN_CAP
    term: str | None = None
    path: str | None = None
    """survey: the candidate path of the capped pair."""
    last_path: str | None = None
    """Under a directory: the file where counting stopped, relative to the target. The
    cap is applied in path order, so the rankings cover only the files up to it."""
    pairs: tuple[tuple[str, str], ...] = ()
    """survey, 2 or more capped pairs: each (term, path), in by_path's order; one note
    names them all (issue 32: one note a pair made 33 notes, 8 KB)."""
    kind: Literal["cap"] = "cap"


class ShortTermNotice(NamedTuple):
    term: str
    kind: Literal["short_term"] = "short_term"


class LooseBoundaryNotice(NamedTuple):
    """`--word`/`--identifier` with a term whose first (`start`) or last (`end`) character
    is not a word character: the boundary is still demanded outside it, so a word
    character right there (`self.x` for `self.`) hides the line."""

    term: str
    mode: Mode
    start: bool
    end: bool
    kind: Literal["loose_boundary"] = "loose_boundary"


def loose_boundary(query: Query) -> LooseBoundaryNotice | None:
    start, end = loose_edges(query.term, query.mode)
    if not (start or end):
        return None
    return LooseBoundaryNotice(term=query.term, mode=query.mode, start=start, end=end)


class SkippedNotice(NamedTuple):
    files: int
    kind: Literal["skipped"] = "skipped"


class BinaryNotice(NamedTuple):
    """Files holding a NUL byte met while walking: rg does not search them (D21)."""

    files: int
    capped: bool = False
    """The scan stopped at the cap before the walk ended: more may be there (D34)."""
    kind: Literal["binary"] = "binary"


class NoMatchNotice(NamedTuple):
    """D43's zero note when nothing near was found: no matches, and where the exclusions
    are listed (`--help`), not the list."""

    directory: bool
    """A directory was searched, so the walk's rules can have hidden the matches: hidden
    and ignored files, binary files, the default exclusions. A file named as the path
    is searched whole, as rg does, and none of them applies to it."""
    filtered: bool = False
    """`--type` / `--glob` were in force: only the files they keep were searched."""
    binary: int = 0
    """The binary files the walk met and did not search (D45: said only here)."""
    wider: bool = False
    """The same query found nothing under the working directory either (D43): `binary`
    is then the count there."""
    max_filesize: str | None = None
    """`--max-filesize` was in force: a walk searched no file larger."""
    folded: bool = False
    """That search under the working directory was case-insensitive, the query not (D57)."""
    kind: Literal["no_match"] = "no_match"


def no_match(query: Query | None, *, directory: bool, binary: int) -> NoMatchNotice:
    """The zero note of a search of `query` (None: no query was run), saying the
    options that narrowed what was searched."""
    return NoMatchNotice(
        directory=directory,
        filtered=query is not None and query.filters.active,
        max_filesize=None if query is None else query.options.max_filesize,
        binary=binary,
    )


Probe = Literal["path", "case", "fixed"]
"""D43's one more search of a zero answer: the same query under the working directory
(`path`, when a narrower path was searched), case-insensitively (`case`), or as a fixed
string inside longer names (`fixed`, under --word / --identifier)."""


class NearNotice(NamedTuple):
    """D43: nothing matched, and the one more bounded search found the term near."""

    probe: Probe
    matches: int
    files: int
    capped: bool
    top_file: str | None
    """Where most of them are, as a path from the working directory; None when the
    search was of one named file (it is that file)."""
    mode: Mode = Mode.FIXED
    folded: bool = False
    """`path`: the search was case-insensitive, the query not (D57)."""
    kind: Literal["near"] = "near"


class GrepSyntaxNotice(NamedTuple):
    """D43: a `--regex` query that matched nothing holds grep's (BRE) spelling of an
    operator, which rg reads as the literal character (`\\|` is a `|`); or a query of
    another mode holds a `|`, the character there, not an OR (issue 40)."""

    constructs: tuple[str, ...]
    """Each construct as written (`\\|`, `\\+`, `\\(`…), in order of first use; `|`
    alone outside `--regex`."""
    kind: Literal["grep_syntax"] = "grep_syntax"


class DominanceNotice(NamedTuple):
    term: str
    percent: int
    kind: Literal["dominance"] = "dominance"


class SamePathNotice(NamedTuple):
    """survey: one path given 2 or more times (in any spelling); each is counted."""

    paths: tuple[str, ...]
    """Every spelling given, as typed, in command-line order."""
    kind: Literal["same_path"] = "same_path"


class NestedPathNotice(NamedTuple):
    """survey: `path` lies inside `within`; lines both find are counted under each."""

    path: str
    within: str
    kind: Literal["nested_path"] = "nested_path"


class IdleFilterNotice(NamedTuple):
    """D38: a `--glob` or `--type` that did nothing to a directory's walked files."""

    option: str
    """The argument's name: `glob` or `type`."""
    value: str
    """The glob as typed, or the `--type` names joined by spaces."""
    path: str | None
    """The searched path (None: every path of a survey)."""
    matched_none: bool
    """An include glob that matched no walked file (else: a filter that removed none)."""
    anchored: bool
    """A glob with a `/`: matched from the working directory."""
    spelling: str | None = None
    """The glob that would have matched (or removed files) from the searched path."""
    also: tuple[str, ...] = ()
    """The other include globs named with `value`: none of them matched a file either."""
    zero: bool = False
    """The one note of a zero answer (D43): the filters kept no file, and this is why; at
    most 160 bytes."""
    near: NearNotice | None = None
    """What the one more search (the same filters under the working directory) found."""
    kind: Literal["idle_filter"] = "idle_filter"


class RetentionNotice(NamedTuple):
    kept: int
    kind: Literal["retention"] = "retention"


class RefusedNotice(NamedTuple):
    """`show` without `--line` found more matches than it prints (D19: exit status 3)."""

    matches: int
    capped: bool
    mode: Mode = Mode.FIXED
    """What would narrow depends on it, as for `BroadNotice`."""
    bounded_narrows: bool = True
    most: int = SHOW_MAX_MATCHES
    """The most this show prints: `SCOPE_MAX_MATCHES` under `--scope` (D51)."""
    kind: Literal["refused"] = "refused"


class PastEndNotice(NamedTuple):
    """`sample --page` past the last page: an empty page, and the pages there are."""

    page: int
    pages: int
    kind: Literal["past_end"] = "past_end"


class UnlistedNotice(NamedTuple):
    """A scout of one named file that neither lists its lines nor prints a table (its
    one row would be the file, D42): why, and what prints the lines (issue 40)."""

    matches: int
    kind: Literal["unlisted"] = "unlisted"


class UnscopedNotice(NamedTuple):
    """scout's listing read no scope lines from `files` listed files larger than
    `SCOUT_SCOPE_MAX_BYTES` (issue 39): their lines print without them; show reads them."""

    files: int
    kind: Literal["unscoped"] = "unscoped"


class FoldedNotice(NamedTuple):
    """D53 in scout: how many matching lines lie in header comments and in-file tests,
    and that the tables rank by the other lines; `unread` files' headers were not read."""

    matches: int
    capped: bool
    header: int
    tests: int
    unread: int = 0
    kind: Literal["folded"] = "folded"


class NoDefinitionNotice(NamedTuple):
    """`show --line N --scope` found no definition to print (D46): why, and the
    `--context` window is printed instead."""

    file: str
    line: int
    why: Unplaced
    kind: Literal["no_definition"] = "no_definition"


class DefinitionsNotice(NamedTuple):
    """D52 (`--def`): matching lines that were not judged (their files not parsed, or the
    parse could not read around them), or none of the matching lines names a definition.
    Said on any answer it applies to; on a zero answer, its one note (D43)."""

    matches: int
    """Every matching line looked at (a lower bound when the scan stopped at the cap)."""
    kept: int
    """Those where a definition's name stands: the answer's count."""
    unjudged: tuple[Unjudged, ...] = ()
    kind: Literal["definitions"] = "definitions"


Notice = (
    BroadNotice
    | CapNotice
    | ShortTermNotice
    | LooseBoundaryNotice
    | SkippedNotice
    | BinaryNotice
    | NoMatchNotice
    | DominanceNotice
    | SamePathNotice
    | NestedPathNotice
    | RetentionNotice
    | RefusedNotice
    | PastEndNotice
    | UnlistedNotice
    | UnscopedNotice
    | FoldedNotice
    | IdleFilterNotice
    | NoDefinitionNotice
    | NearNotice
    | GrepSyntaxNotice
    | DefinitionsNotice
)


def is_broad(matches: int, files: int) -> bool:
    return matches > BROAD_MATCHES or files > BROAD_FILES


def cap_notice(
    tally: Tally, target: str, *, directory: bool, term: str | None = None, path: str | None = None
) -> CapNotice:
    """The cap notice of one capped search of `target`, naming where counting stopped."""
    last = relative_to(tally.files[-1].path, target) if directory and tally.files else None
    return CapNotice(term=term, path=path, last_path=last)


def broad_notice(
    query: Query, matches: int, files: int, *, capped: bool, one_file: bool, named: bool = False
) -> BroadNotice:
    """The broad notice of `query`'s `matches` in `files` (a search's or, in survey, a
    term's over every path); `named`: the notice names the term (survey)."""
    return BroadNotice(
        matches=matches,
        files=files,
        capped=capped,
        term=query.term if named else None,
        mode=query.mode,
        ignore_case=query.ignore_case,
        one_file=one_file,
        bounded_narrows=query.has_word_character,
    )


def term_hints(query: Query, *, matched: bool) -> list[Notice]:
    """What the term itself earns: short term, loose boundary. `matched`: the answer
    found something; on a zero answer the short-term hint is no advice (nothing matched
    inside other words)."""
    hints: list[Notice] = []
    if query.is_short and matched:
        hints.append(ShortTermNotice(term=query.term))
    if loose := loose_boundary(query):
        hints.append(loose)
    return hints


def search_notices(query: Query, tally: Tally, target: str, *, directory: bool) -> list[Notice]:
    """The notices one search of `target` earns: broad, cap, short term, loose boundary,
    skipped, binary, no match.

    `directory` says the target was a directory (walked), not a named file.
    """
    notices: list[Notice] = []
    files = len(tally.files)
    if is_broad(tally.matches, files):
        notices.append(
            broad_notice(query, tally.matches, files, capped=tally.capped, one_file=not directory)
        )
    if tally.capped:
        notices.append(cap_notice(tally, target, directory=directory))
    notices += term_hints(query, matched=bool(tally.files))
    if tally.skipped:
        notices.append(SkippedNotice(files=tally.skipped))
    if tally.binary:
        notices.append(BinaryNotice(files=tally.binary, capped=tally.capped))
    if not tally.files:
        notices.append(no_match(query, directory=directory, binary=tally.binary))
    return notices


def kinds() -> tuple[str, ...]:
    """Every notice's `kind`, in declaration order."""
    return tuple(str(cls._field_defaults["kind"]) for cls in typing.get_args(Notice))
