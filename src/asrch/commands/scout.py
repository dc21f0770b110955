"""`scout`: count one term under one path."""

from asrch.commands.checks import query_first, require_path
from asrch.commands.options import require_kept, single_query
from asrch.commands.zero import probe_of, zero_notices
from asrch.domain.counting import Tally
from asrch.domain.idle_filters import idle_filters, one_zero_note, zero_cause
from asrch.domain.limits import SCAN_CAP, SCOUT_LIST_MAX
from asrch.domain.notices import IdleFilterNotice
from asrch.domain.ports import Entry, Scopes, Searcher
from asrch.domain.query import Query, SearchOptions
from asrch.domain.sample import with_scope
from asrch.domain.scout import (
    ListedFile,
    ScoutReport,
    build_scout_report,
    fits,
    listed_path,
    lists,
)


def run_scout(
    searcher: Searcher,
    term: str,
    path: str,
    options: SearchOptions,
    *,
    scopes: Scopes,
) -> ScoutReport:
    """`scopes`: where the listed lines sit in their files (D31)."""
    query = single_query(searcher, term, options)
    entry = query_first(searcher, query, lambda: require_path(searcher, path))
    if entry is Entry.FILE:
        require_kept(query.filters, path)
    directory = entry is Entry.DIRECTORY
    probe = probe_of(searcher, query, path)
    # D45: the binary files are counted where they are printed: JSON (the searcher's
    # own setting), or a zero answer's note; with no probe to make, this search is the
    # only one that can count them.
    tally = searcher.count(query, path, cap=SCAN_CAP, census=directory and probe is None)
    listed = _listed(searcher, scopes, query, path, tally, directory=directory)
    report = build_scout_report(query, path, tally, directory=directory, listed=listed)
    idle: list[IdleFilterNotice] = []
    if directory and query.filters.active:
        # D38: a filter that did nothing to the walked files says so, first.
        idle = idle_filters(query.filters, path, searcher.walk(path))
    cause = None if tally.files else zero_cause(idle, query.filters)
    if cause is not None and probe != "path":
        probe = None  # with -i, or as a fixed string, it would read the same no files
    notices = zero_notices(
        searcher, query, path, tally, (*idle, *report.notices), directory=directory, probe=probe
    )
    if not tally.files:
        notices = one_zero_note(notices, cause)  # D43: 1 note
    return report._replace(notices=notices)


def _listed(
    searcher: Searcher,
    scopes: Scopes,
    query: Query,
    path: str,
    tally: Tally,
    *,
    directory: bool,
) -> tuple[ListedFile, ...]:
    """D32/D44: a small answer's matching lines, by file in path order, with their
    scopes; none when their text would not fit 2,000 bytes. At most 20 lines, so at
    most 20 files: one search reads them all (an rg start per file cost more than the
    search, issue 23)."""
    if not lists(tally):
        return ()
    listed = []
    lines_of = searcher.matching_lines(
        query, [file.path for file in tally.files], keep=SCOUT_LIST_MAX
    )
    for file in tally.files:
        matches = lines_of[file.path]
        if not matches:
            continue
        around = scopes.of(file.path, matches)
        lines = tuple(with_scope(line, around) for line in matches)
        listed.append(ListedFile(listed_path(file.path, path, directory=directory), lines))
    ordered = tuple(sorted(listed, key=lambda f: f.path))
    return ordered if fits(ordered) else ()
