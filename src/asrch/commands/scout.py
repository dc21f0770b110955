"""`scout`: count one term under one path."""

from asrch.commands.checks import require_path
from asrch.commands.options import filters_of, query_of, require_kept
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
    return build_scout_report(query, path, tally, directory=kind is PathKind.DIRECTORY)
