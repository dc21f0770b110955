"""`sample`: the clusters of one term in one file, one page of them."""

from asrch.commands.arguments import CLUSTERS, PAGE
from asrch.commands.checks import query_first, require_file
from asrch.commands.options import require_kept, single_query
from asrch.commands.zero import probe_of, zero_notices
from asrch.domain.counting import Tally
from asrch.domain.limits import KEEP_CAP, SCAN_CAP
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.query import SearchOptions
from asrch.domain.sample import (
    SampleReport,
    build_sample_report,
    scope_lines_of_sample,
    with_sample_scopes,
)


def run_sample(
    searcher: Searcher,
    term: str,
    file: str,
    options: SearchOptions,
    *,
    clusters: int,
    page: int,
    scopes: Scopes,
) -> SampleReport:
    """`scopes`: where the printed lines sit in their file (D31)."""
    query = single_query(searcher, term, options, file)
    CLUSTERS.require(clusters)
    PAGE.require(page)
    query_first(searcher, query, lambda: require_file(searcher, file))
    require_kept(query.filters, file)
    scan = searcher.scan(query, file, context=1, keep=KEEP_CAP, cap=SCAN_CAP)
    report = build_sample_report(query, file, scan, per_page=clusters, page=page)
    if not scan.matches:
        probe = probe_of(searcher, query, file)
        notices = zero_notices(
            searcher, query, file, Tally(), report.notices, directory=False, probe=probe
        )
        return report._replace(notices=notices)
    lines = scope_lines_of_sample(report)
    # D31: the scopes of what the page prints; none asked, none parsed.
    if not lines:
        return report
    return with_sample_scopes(report, scopes.of(file, lines))
