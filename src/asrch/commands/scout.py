"""`scout`: count one term under one path."""

from asrch.commands.checks import require_path
from asrch.domain.limits import SCAN_CAP
from asrch.domain.modes import Mode
from asrch.domain.ports import PathKind, Searcher
from asrch.domain.query import make_query
from asrch.domain.scout import ScoutReport, build_scout_report


def run_scout(searcher: Searcher, term: str, path: str, mode: Mode) -> ScoutReport:
    query = make_query(term, mode)
    kind = require_path(searcher, path)
    tally = searcher.count(query, path, cap=SCAN_CAP)
    return build_scout_report(query, path, tally, directory=kind is PathKind.DIRECTORY)
