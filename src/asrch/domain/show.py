"""`show`: a few matches with context, or the window around one line (pure)."""

from typing import NamedTuple

from asrch.domain.clusters import merge_windows
from asrch.domain.counting import FileCount, Tally
from asrch.domain.limits import SHOW_MAX_MATCHES
from asrch.domain.lines import FileScan, FileWindow, Scope, SourceLine
from asrch.domain.next_step import NO_STEP, NextStep, show_step
from asrch.domain.notices import (
    Notice,
    RefusedNotice,
    SkippedNotice,
    loose_boundary,
    search_notices,
)
from asrch.domain.query import Query
from asrch.domain.sample import Snippet, scoped


class ShowReport(NamedTuple):
    query: Query
    file: str
    context: int
    matches: int
    """Matching lines in the file (without --line) or in the window (with --line)."""
    capped: bool = False
    refused: bool = False
    """More than SHOW_MAX_MATCHES matches (or the scan cap): no snippet is printed."""
    line: int | None = None
    last_line: int | None = None
    snippets: tuple[Snippet, ...] = ()
    notices: tuple[Notice, ...] = ()
    next_step: NextStep = NO_STEP


def _snippets(
    windows: list[tuple[int, int]], by_number: dict[int, SourceLine]
) -> tuple[Snippet, ...]:
    out = []
    for start, end in windows:
        lines = tuple(by_number[n] for n in range(start, end + 1) if n in by_number)
        if lines:
            out.append(Snippet(lines=lines))
    return tuple(out)


def build_show_report(query: Query, file: str, scan: FileScan, *, context: int) -> ShowReport:
    """Up to SHOW_MAX_MATCHES matches with merged context; more is refused."""
    tally = Tally(
        files=(FileCount(path=file, matches=scan.matches),) if scan.matches else (),
        capped=scan.capped,
        skipped=scan.skipped,
    )
    refused = scan.capped or scan.matches > SHOW_MAX_MATCHES
    refusal = [RefusedNotice(matches=scan.matches, capped=scan.capped)] if refused else []
    notices = (*refusal, *search_notices(query, tally, file, directory=False))
    snippets: tuple[Snippet, ...] = ()
    if not refused:
        by_number = {line.number: line for line in scan.lines}
        centers = [line.number for line in scan.lines if line.is_match]
        snippets = _snippets(merge_windows(centers, context, context), by_number)
    return ShowReport(
        query=query,
        file=file,
        context=context,
        matches=scan.matches,
        capped=scan.capped,
        refused=refused,
        snippets=snippets,
        notices=notices,
        next_step=show_step(query, file, refused=refused),
    )


def build_line_report(
    query: Query, file: str, window: FileWindow, *, line: int, context: int
) -> ShowReport:
    """The lines around `line`, matches marked; never refused for the match count."""
    by_number = {ln.number: ln for ln in window.lines}
    windows = merge_windows([line], context, context, last=window.last_line)
    notices: list[Notice] = []
    if loose := loose_boundary(query):
        notices.append(loose)
    if window.skipped:
        notices.append(SkippedNotice(files=window.skipped))
    return ShowReport(
        query=query,
        file=file,
        context=context,
        matches=sum(1 for ln in window.lines if ln.is_match),
        line=line,
        last_line=window.last_line,
        snippets=_snippets(windows, by_number),
        notices=tuple(notices),
    )


def scope_lines_of_show(report: ShowReport) -> list[SourceLine]:
    """The lines whose scope show prints (D31): each printed match; with --line, that line."""
    if report.line is not None:
        return [ln for s in report.snippets for ln in s.lines if ln.number == report.line]
    return [line for s in report.snippets for line in s.lines if line.is_match]


def with_show_scopes(report: ShowReport, found: dict[int, tuple[Scope, ...] | None]) -> ShowReport:
    lines = {line.number for line in scope_lines_of_show(report)}
    return report._replace(snippets=scoped(report.snippets, lines, found))
