"""The use cases: validated arguments in, reports out, all I/O behind a `Searcher`."""

from collections.abc import Sequence

from asrch.domain.errors import InputError
from asrch.domain.limits import (
    KEEP_CAP,
    SAMPLE_CLUSTERS_MAX,
    SCAN_CAP,
    SHOW_CONTEXT_MAX,
    SHOW_MAX_MATCHES,
)
from asrch.domain.ports import PathKind, Searcher
from asrch.domain.query import Mode, make_query
from asrch.domain.sample import SampleReport, build_sample_report
from asrch.domain.scout import ScoutReport, build_scout_report
from asrch.domain.show import ShowReport, build_line_report, build_show_report
from asrch.domain.survey import SurveyReport, build_survey_report, check_survey_size
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


def survey(
    searcher: Searcher, terms: Sequence[str], paths: Sequence[str], mode: Mode
) -> SurveyReport:
    check_survey_size(terms, paths)
    queries = [make_query(term, mode, what="--term") for term in terms]
    missing = []
    for path in dict.fromkeys(paths):
        try:
            require_path(searcher, path)
        except InputError as exc:
            missing.append((path, exc))
    if len(missing) == 1:
        raise missing[0][1]
    if missing:
        names = ", ".join(quote(p) for p, _ in missing)
        raise InputError(f"error: these paths do not exist or cannot be searched: {names}")
    searches = [(q, p) for q in queries for p in paths]
    tallies = searcher.count_many(searches, cap=SCAN_CAP)
    width = len(paths)
    grid = [tallies[i * width : (i + 1) * width] for i in range(len(queries))]
    return build_survey_report(queries, paths, grid)


def require_file(searcher: Searcher, path: str) -> None:
    """`sample` and `show` read one regular file: never a directory, never a FIFO."""
    if path == "":
        raise InputError("error: empty FILE; give one regular file")
    kind = searcher.inspect(path)
    if kind is PathKind.MISSING:
        raise InputError(f"error: file {quote(path)} does not exist")
    if kind is PathKind.DIRECTORY:
        raise InputError(
            f"error: {quote(path)} is a directory; give one file "
            "(scout QUERY DIR lists the files with most matches)"
        )
    if kind is PathKind.SPECIAL:
        raise InputError(f"error: {quote(path)} is a FIFO, socket or device; give one regular file")


def require_range(name: str, value: int, low: int, high: int | None = None) -> None:
    """A number option inside its range, or a one-line error naming both."""
    if value < low or (high is not None and value > high):
        allowed = f"{low}-{high}" if high is not None else f"{low} or more"
        raise InputError(f"error: {name} {value} is out of range; allowed: {allowed}")


def sample(
    searcher: Searcher, term: str, file: str, mode: Mode, *, clusters: int, page: int
) -> SampleReport:
    query = make_query(term, mode)
    require_range("--clusters", clusters, 1, SAMPLE_CLUSTERS_MAX)
    require_range("--page", page, 1)
    require_file(searcher, file)
    scan = searcher.scan(query, file, context=1, keep=KEEP_CAP, cap=SCAN_CAP)
    return build_sample_report(query, file, scan, per_page=clusters, page=page)


def show(
    searcher: Searcher, term: str, file: str, mode: Mode, *, line: int | None, context: int
) -> ShowReport:
    query = make_query(term, mode)
    require_range("--context", context, 0, SHOW_CONTEXT_MAX)
    require_file(searcher, file)
    if line is None:
        scan = searcher.scan(query, file, context=context, keep=SHOW_MAX_MATCHES, cap=SCAN_CAP)
        return build_show_report(query, file, scan, context=context)
    window = searcher.window(query, file, line=line, context=context)
    if not 1 <= line <= window.last_line:
        if window.last_line == 0:
            raise InputError(f"error: --line {line} is out of range; {quote(file)} is empty")
        raise InputError(
            f"error: --line {line} is out of range; allowed: 1-{window.last_line} "
            f"(the last line of {quote(file)})"
        )
    return build_line_report(query, file, window, line=line, context=context)
