"""The use cases: validated arguments in, reports out, all I/O behind a `Searcher`."""

from asrch.domain.errors import InputError
from asrch.domain.limits import SCAN_CAP
from asrch.domain.ports import PathKind, Searcher
from asrch.domain.query import Mode, make_query
from asrch.domain.scout import ScoutReport, build_scout_report
from asrch.domain.values import quote


def require_path(searcher: Searcher, path: str) -> PathKind:
    """A search target must exist; what rg can do with it is rg's business."""
    if path == "":
        raise InputError("error: empty path; give a file or directory, or omit it for .")
    kind = searcher.inspect(path)
    if kind is PathKind.MISSING:
        raise InputError(f"error: path {quote(path)} does not exist")
    if kind is PathKind.SPECIAL:
        raise InputError(
            f"error: path {quote(path)} is a FIFO, socket or device; "
            "give a regular file or a directory"
        )
    return kind


def scout(searcher: Searcher, term: str, path: str, mode: Mode) -> ScoutReport:
    query = make_query(term, mode)
    require_path(searcher, path)
    tally = searcher.count(query, path, cap=SCAN_CAP)
    return build_scout_report(query, path, tally)
