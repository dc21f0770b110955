"""Warnings and hints that ride along with a report (D6).

Notices are data; the renderer words them. None of them changes the exit status.
"""

from typing import Literal

from asrch.domain.counting import Tally
from asrch.domain.limits import BROAD_FILES, BROAD_MATCHES, SCAN_CAP
from asrch.domain.query import Query
from asrch.domain.record import Record


class BroadNotice(Record):
    kind: Literal["broad"] = "broad"
    matches: int
    files: int
    capped: bool
    term: str | None = None
    """Named in survey, where several terms share one report."""


class CapNotice(Record):
    kind: Literal["cap"] = "cap"
    cap: int = SCAN_CAP
    term: str | None = None


class ShortTermNotice(Record):
    kind: Literal["short_term"] = "short_term"
    term: str


class SkippedNotice(Record):
    kind: Literal["skipped"] = "skipped"
    count: int


class NoMatchNotice(Record):
    kind: Literal["no_match"] = "no_match"


class DominanceNotice(Record):
    kind: Literal["dominance"] = "dominance"
    term: str
    percent: int


class RetentionNotice(Record):
    kind: Literal["retention"] = "retention"
    kept: int


Notice = (
    BroadNotice
    | CapNotice
    | ShortTermNotice
    | SkippedNotice
    | NoMatchNotice
    | DominanceNotice
    | RetentionNotice
)


def is_broad(matches: int, files: int) -> bool:
    return matches > BROAD_MATCHES or files > BROAD_FILES


def search_notices(query: Query, tally: Tally, *, name_term: bool = False) -> list[Notice]:
    """The notices one search earns: broad, cap, short term, skipped, no match."""
    notices: list[Notice] = []
    term = query.term if name_term else None
    files = len(tally.files)
    if is_broad(tally.matches, files):
        notices.append(
            BroadNotice.model_construct(
                matches=tally.matches, files=files, capped=tally.capped, term=term
            )
        )
    if tally.capped:
        notices.append(CapNotice.model_construct(term=term))
    if query.is_short:
        notices.append(ShortTermNotice.model_construct(term=query.term))
    if tally.skipped:
        notices.append(SkippedNotice.model_construct(count=tally.skipped))
    if not tally.files and not name_term:
        notices.append(NoMatchNotice.model_construct())
    return notices
