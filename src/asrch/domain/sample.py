"""`sample`: clusters of nearby matches in one file, paged in file order."""

from typing import NamedTuple

from asrch.domain.clusters import Cluster, cluster_hits, merge_windows, page_count, page_of
from asrch.domain.counting import FileCount, Tally
from asrch.domain.lines import FileScan, Placements, SourceLine
from asrch.domain.next_step import NO_STEP, sample_step
from asrch.domain.notices import Notice, PastEndNotice, RetentionNotice, search_notices
from asrch.domain.query import Query
from asrch.domain.words import NextStep


class Snippet(NamedTuple):
    """Consecutive lines printed together; snippets are separated by `--`."""

    lines: tuple[SourceLine, ...]


class ClusterView(NamedTuple):
    number: int
    """1-based position of the cluster in the file."""
    cluster: Cluster
    snippets: tuple[Snippet, ...]


class SampleReport(NamedTuple):
    query: Query
    file: str
    matches: int
    capped: bool
    kept: int
    """Matches clustered: all of them, or the first KEEP_CAP."""
    clusters: int
    per_page: int
    page: int
    pages: int
    shown: tuple[ClusterView, ...]
    notices: tuple[Notice, ...]
    next_step: NextStep = NO_STEP


def with_scope(line: SourceLine, found: Placements) -> SourceLine:
    """`line` with its scope (D31) as `found` tells it (D48: None, not placed)."""
    if line.number not in found.scopes:
        return line
    scope = found.scopes[line.number]
    return line._replace(
        scope=scope or (), scope_known=scope is not None, heads=line.number in found.heads
    )


def scoped(
    snippets: tuple[Snippet, ...], lines: set[int], found: Placements
) -> tuple[Snippet, ...]:
    """`snippets` with the scope (D31) of each of `lines` set on its line."""
    return tuple(
        Snippet(
            lines=tuple(
                with_scope(line, found) if line.number in lines else line for line in snippet.lines
            )
        )
        for snippet in snippets
    )


def scope_lines_of_sample(report: "SampleReport") -> list[SourceLine]:
    """The lines whose scope a sample prints: each shown cluster's first and last match."""
    wanted = {n for view in report.shown for n in (view.cluster.first, view.cluster.last)}
    return sorted(
        {
            line.number: line
            for view in report.shown
            for snippet in view.snippets
            for line in snippet.lines
            if line.number in wanted
        }.values()
    )


def with_sample_scopes(report: "SampleReport", found: Placements) -> "SampleReport":
    lines = {line.number for line in scope_lines_of_sample(report)}
    return report._replace(
        shown=tuple(
            view._replace(snippets=scoped(view.snippets, lines, found)) for view in report.shown
        )
    )


def snippets_for(cluster: Cluster, by_number: dict[int, SourceLine]) -> tuple[Snippet, ...]:
    """One line before and after the first and the last match; one window if they meet."""
    centers = {cluster.first, cluster.last}
    windows = merge_windows(centers, 1, 1)
    snippets = []
    for start, end in windows:
        lines = tuple(by_number[n] for n in range(start, end + 1) if n in by_number)
        if lines:
            snippets.append(Snippet(lines=lines))
    return tuple(snippets)


def build_sample_report(
    query: Query, file: str, scan: FileScan, *, per_page: int, page: int
) -> SampleReport:
    by_number = {line.number: line for line in scan.lines}
    clusters = cluster_hits(line.number for line in scan.lines if line.is_match)
    pages = page_count(len(clusters), per_page)
    first_index = (page - 1) * per_page + 1
    shown = tuple(
        ClusterView(number=first_index + i, cluster=c, snippets=snippets_for(c, by_number))
        for i, c in enumerate(page_of(clusters, page, per_page))
    )
    tally = Tally(
        files=(FileCount(path=file, matches=scan.matches),) if scan.matches else (),
        capped=scan.capped,
        skipped=scan.skipped,
    )
    notices: list[Notice] = []
    if page > pages:  # an empty page: the reader's choice, said first
        notices.append(PastEndNotice(page=page, pages=pages))
    notices += search_notices(query, tally, file, directory=False)
    if scan.matches > scan.kept:
        notices.append(RetentionNotice(kept=scan.kept))
    return SampleReport(
        query=query,
        file=file,
        matches=scan.matches,
        capped=scan.capped,
        kept=scan.kept,
        clusters=len(clusters),
        per_page=per_page,
        page=page,
        pages=pages,
        shown=shown,
        notices=tuple(notices),
        next_step=sample_step(
            query,
            file,
            clusters=len(clusters),
            pages=pages,
            per_page=per_page,
            first_match=shown[0].cluster.first if shown else None,
        ),
    )
