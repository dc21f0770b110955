"""`scout`: count one term under one path."""

from asrch.commands.checks import require_path
from asrch.commands.options import filters_of, query_of, require_kept
from asrch.domain.idle_filters import idle_filters
from asrch.domain.limits import SCAN_CAP
from asrch.domain.ports import PathKind, Searcher
from asrch.domain.query import SearchOptions
from asrch.domain.scout import ScoutReport, build_scout_report


def run_scout(searcher: Searcher, term: str, path: str, options: SearchOptions) -> ScoutReport:
    filters = filters_of(searcher, options)
    query = query_of(term, options, filters)
    kind = require_path(searcher, path)
    if kind is PathKind.FILE:
        require_kept(filters, path)
    tally = searcher.count(query, path, cap=SCAN_CAP)
    report = build_scout_report(query, path, tally, directory=kind is PathKind.DIRECTORY)
    if kind is PathKind.DIRECTORY and filters.active:
        # D38: a filter that did nothing to the walked files says so, first.
        idle = idle_filters(filters, path, searcher.walk(path))
        report = report._replace(notices=(*idle, *report.notices))
    return report
