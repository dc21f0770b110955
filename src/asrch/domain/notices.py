"""Warnings and hints that ride along with a report (D6).

Notices are data; the renderer words them. None of them changes the exit status.
"""

from dataclasses import dataclass
from typing import ClassVar

from asrch.domain.boundaries import loose_edges
from asrch.domain.counting import Tally, relative_to
from asrch.domain.limits import BROAD_FILES, BROAD_MATCHES, SCAN_CAP
from asrch.domain.modes import Mode
from asrch.domain.query import Query


@dataclass(frozen=True, slots=True, kw_only=True)
class BroadNotice:
    kind: ClassVar[str] = "broad"
    matches: int
    files: int
    capped: bool
    term: str | None = None
    """Named in survey, where several terms share one report."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CapNotice:
    kind: ClassVar[str] = "cap"
    cap: int = SCAN_CAP
    term: str | None = None
    path: str | None = None
    """survey: the candidate path of the capped pair."""
    last_path: str | None = None
    """Under a directory: the file where counting stopped, relative to the target. The
    cap is applied in path order, so the rankings cover only the files up to it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShortTermNotice:
    kind: ClassVar[str] = "short_term"
    term: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LooseBoundaryNotice:
    """`--word`/`--identifier` with a term whose first (`start`) or last (`end`) character
    is not a word character: the boundary is still demanded outside it, so a word
    character right there (`self.x` for `self.`) hides the line."""

    kind: ClassVar[str] = "loose_boundary"
    term: str
    mode: Mode
    start: bool
    end: bool


def loose_boundary(query: Query) -> LooseBoundaryNotice | None:
    start, end = loose_edges(query.term, query.mode)
    if not (start or end):
        return None
    return LooseBoundaryNotice(term=query.term, mode=query.mode, start=start, end=end)


@dataclass(frozen=True, slots=True, kw_only=True)
class SkippedNotice:
    kind: ClassVar[str] = "skipped"
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BinaryNotice:
    """Files holding a NUL byte met while walking: rg does not search them (D21)."""

    kind: ClassVar[str] = "binary"
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NoMatchNotice:
    kind: ClassVar[str] = "no_match"
    directory: bool
    filtered: bool = False
    """`--type` / `--glob` were in force: only the files they keep were searched."""
    """A directory was searched, so the walk's rules can have hidden the matches: hidden
    and ignored files, binary files, the default exclusions. A file named as the path
    is searched whole, as rg does, and none of them applies to it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DominanceNotice:
    kind: ClassVar[str] = "dominance"
    term: str
    percent: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SamePathNotice:
    """survey: one path given 2 or more times (in any spelling); each is counted."""

    kind: ClassVar[str] = "same_path"
    paths: tuple[str, ...]
    """Every spelling given, as typed, in command-line order."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NestedPathNotice:
    """survey: `path` lies inside `within`; lines both find are counted under each."""

    kind: ClassVar[str] = "nested_path"
    path: str
    within: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RetentionNotice:
    kind: ClassVar[str] = "retention"
    kept: int


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
)


def is_broad(matches: int, files: int) -> bool:
    return matches > BROAD_MATCHES or files > BROAD_FILES


def cap_notice(
    tally: Tally, target: str, *, directory: bool, term: str | None = None, path: str | None = None
) -> CapNotice:
    """The cap notice of one capped search of `target`, naming where counting stopped."""
    last = relative_to(tally.files[-1].path, target) if directory and tally.files else None
    return CapNotice(term=term, path=path, last_path=last)


def search_notices(
    query: Query, tally: Tally, target: str, *, directory: bool, name_term: bool = False
) -> list[Notice]:
    """The notices one search of `target` earns: broad, cap, short term, loose boundary,
    skipped, binary, no match.

    `directory` says the target was a directory (walked), not a named file.
    """
    notices: list[Notice] = []
    term = query.term if name_term else None
    files = len(tally.files)
    if is_broad(tally.matches, files):
        notices.append(
            BroadNotice(matches=tally.matches, files=files, capped=tally.capped, term=term)
        )
    if tally.capped:
        notices.append(cap_notice(tally, target, directory=directory, term=term))
    if query.is_short:
        notices.append(ShortTermNotice(term=query.term))
    if loose := loose_boundary(query):
        notices.append(loose)
    if tally.skipped:
        notices.append(SkippedNotice(count=tally.skipped))
    if tally.binary:
        notices.append(BinaryNotice(count=tally.binary))
    if not tally.files and not name_term:
        notices.append(NoMatchNotice(directory=directory, filtered=bool(query.filters)))
    return notices
