"""`survey`: every term under every path, one capped count per pair."""

from collections.abc import Sequence

from asrch.commands.checks import require_path
from asrch.commands.options import filters_of, query_of, require_kept
from asrch.domain.counting import Tally
from asrch.domain.errors import InputError
from asrch.domain.filters import Filters
from asrch.domain.idle_filters import idle_filters, one_zero_note, zero_cause
from asrch.domain.limits import SCAN_CAP, SURVEY_PLACES_MAX
from asrch.domain.notices import IdleFilterNotice, NoMatchNotice, Notice
from asrch.domain.ports import Entry, Searcher
from asrch.domain.query import Query, SearchOptions
from asrch.domain.survey import SurveyReport, build_survey_report, check_survey_size, rare_files
from asrch.domain.words import arg


def run_survey(
    searcher: Searcher, terms: Sequence[str], paths: Sequence[str], options: SearchOptions
) -> SurveyReport:
    check_survey_size(terms, paths)
    filters = filters_of(searcher, options)
    queries = [query_of(term, options, filters, what=arg("term")) for term in terms]
    missing = []
    entries: dict[str, Entry] = {}
    real: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        try:
            entries[path] = require_path(searcher, path)
            if entries[path] is Entry.FILE:
                require_kept(filters, path)
            real[path] = searcher.resolve(path)
        except InputError as exc:
            missing.append((path, exc))
    if len(missing) == 1:
        raise missing[0][1]
    if missing:
        each = "; ".join(exc.message for _, exc in missing)
        raise InputError(f"{len(missing)} paths cannot be searched: {each}")
    # One search per path for all the terms: the tree is read once, not once a term.
    by_path = [searcher.count_terms(queries, p, cap=SCAN_CAP) for p in paths]
    grid = [[by_path[j][i] for j in range(len(paths))] for i in range(len(queries))]
    report = build_survey_report(
        queries,
        paths,
        grid,
        entries=[entries[p] for p in paths],
        real_paths=[real[p] for p in paths],
        lines=_rare_lines(searcher, queries, grid),
    )
    walked = [p for p in dict.fromkeys(paths) if entries[p] is Entry.DIRECTORY]
    if filters.active and walked:
        idle = _idle_everywhere(filters, walked, searcher)
        notices: tuple[Notice, ...] = (*idle, *report.notices)
        if any(isinstance(n, NoMatchNotice) for n in notices):  # every pair zero: 1 note
            notices = one_zero_note(notices, zero_cause(idle, filters))
        report = report._replace(notices=notices)
    return report


def _rare_lines(
    searcher: Searcher, queries: Sequence[Query], grid: Sequence[Sequence[Tally]]
) -> list[dict[str, tuple[int, ...]]]:
    """D56: the line numbers of each term in the files of its pairs of at most 3 lines,
    1 search per such term over those files (at most 3 lines a file)."""
    found: list[dict[str, tuple[int, ...]]] = []
    for query, files in zip(queries, rare_files(grid), strict=True):
        if not files:
            found.append({})
            continue
        found.append(searcher.line_numbers(query, files, keep=SURVEY_PLACES_MAX))
    return found


def _idle_everywhere(
    filters: Filters, directories: Sequence[str], searcher: Searcher
) -> list[IdleFilterNotice]:
    """D38 for several directories: the filters that did nothing in every one of them
    (a filter that did something somewhere is doing its job there)."""
    each = [idle_filters(filters, d, searcher.walk(d)) for d in directories]
    if len(each) == 1:
        return each[0]
    common = []
    for notice in each[0]:
        same = [
            other
            for notices in each[1:]
            for other in notices
            if (other.option, other.value) == (notice.option, notice.value)
        ]
        # Matched none here and removed none there: it removed files here, it did something.
        if len(same) == len(each) - 1 and all(o.matched_none == notice.matched_none for o in same):
            common.append(notice._replace(path=None, spelling=None))
    return common
