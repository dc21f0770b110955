"""`scout`: count one term under one path."""

from collections.abc import Mapping, Sequence

from asrch.commands.checks import query_first, require_path
from asrch.commands.options import require_kept, single_query
from asrch.commands.scout_folds import folded_in
from asrch.commands.zero import probe_of, zero_notices
from asrch.domain.counting import FileCount, Tally
from asrch.domain.definitions import DefinitionCount, Judged, keep_definitions
from asrch.domain.idle_filters import idle_filters, one_zero_note, zero_cause
from asrch.domain.limits import (
    DEF_FILES_MAX,
    SCAN_CAP,
    SCOUT_LIST_BYTES,
    SCOUT_LIST_MAX,
    SCOUT_SCOPE_MAX_BYTES,
)
from asrch.domain.lines import SourceLine
from asrch.domain.notices import DefinitionsNotice, IdleFilterNotice, NoMatchNotice, Notice
from asrch.domain.ports import Entry, Scopes, Searcher
from asrch.domain.query import Query, SearchOptions
from asrch.domain.sample import with_scope
from asrch.domain.scout import (
    ListedFile,
    ScoutReport,
    build_scout_report,
    listed_path,
    lists,
)
from asrch.render.scout import listing_bytes


def run_scout(
    searcher: Searcher,
    term: str,
    path: str,
    options: SearchOptions,
    *,
    definitions: bool = False,
    scopes: Scopes,
) -> ScoutReport:
    """`scopes`: where the listed lines sit in their files (D31). `definitions` (D52):
    only the matching lines where a definition's name stands are counted, from the
    parse of the files that matched (`scopes` parses them too)."""
    query = single_query(searcher, term, options, path)
    entry = query_first(searcher, query, lambda: require_path(searcher, path))
    if entry is Entry.FILE:
        require_kept(query.filters, path)
    directory = entry is Entry.DIRECTORY
    probe = probe_of(searcher, query, path)
    # D45: the binary files are counted where they are printed: JSON (the searcher's
    # own setting), or a zero answer's note; with no probe to make, this search is the
    # only one that can count them.
    census = directory and probe is None
    # A small answer's lines come with its count where the searcher can (one rg run).
    counted = (
        None
        if definitions or census
        else searcher.count_listed(query, path, cap=SCAN_CAP, keep=SCOUT_LIST_MAX)
    )
    if counted is None:
        plain, read = searcher.count(query, path, cap=SCAN_CAP, census=census), None
    else:
        plain, read = counted
    tally, judged = plain, None
    if definitions and plain.files:
        judged = _definitions(searcher, scopes, query, plain)
        kept = tuple(
            FileCount(f.path, len(judged.kept[f.path]))
            for f in plain.files
            if f.path in judged.kept
        )
        tally = plain._replace(files=kept)
    tally, listed, unscoped = _listed(
        searcher, scopes, query, path, tally, directory=directory, judged=judged, read=read
    )
    folded = None
    if directory and not listed and len(tally.files) > 1:
        folded = folded_in(searcher, scopes, query, path, tally, judged=judged)
    report = build_scout_report(
        query, path, tally, directory=directory, listed=listed, folded=folded, unscoped=unscoped
    )
    idle: list[IdleFilterNotice] = []
    if directory and query.filters.active:
        # D38: a filter that did nothing to the walked files says so, first.
        idle = idle_filters(query.filters, path, searcher.walk(path))
    # A zero answer under --def whose search matched is no zero search: its note is D52's.
    cause = None if plain.files else zero_cause(idle, query.filters)
    if cause is not None and probe != "path":
        probe = None  # with -i, or as a fixed string, it would read the same no files
    notices = zero_notices(
        searcher, query, path, plain, (*idle, *report.notices), directory=directory, probe=probe
    )
    if judged is not None:
        notices = _with_definitions(notices, judged, tally)
    if not tally.files:
        notices = one_zero_note(notices, cause)  # D43: 1 note
    if not definitions:
        return report._replace(notices=notices)
    count = judged.summary if judged is not None else DefinitionCount(0)
    return report._replace(notices=notices, definitions=count)


def _definitions(searcher: Searcher, scopes: Scopes, query: Query, tally: Tally) -> Judged:
    """D52: the matching lines of every file that matched (one search, as D32's listing),
    kept where a definition's name stands. A capped count's last file keeps only the
    lines it counted; the files past the first `DEF_FILES_MAX` are not read."""
    counted = {f.path: f.matches for f in tally.files[:DEF_FILES_MAX]}
    unread = [f.matches for f in tally.files[DEF_FILES_MAX:]]
    lines_of = searcher.matching_lines(query, list(counted), keep=SCAN_CAP)
    lines_of = {file: lines[: counted[file]] for file, lines in lines_of.items()}
    found = {file: scopes.names(file, lines_of[file]) for file in lines_of}
    return keep_definitions(lines_of, found, unread)


def _with_definitions(
    notices: tuple[Notice, ...], judged: Judged, tally: Tally
) -> tuple[Notice, ...]:
    """D52's note, when some lines were not judged or none was kept; it is the zero
    answer's one note (D43) in place of the plain search's (which found matches)."""
    if not judged.unjudged and tally.files:
        return notices
    note = DefinitionsNotice(matches=judged.matches, kept=tally.matches, unjudged=judged.unjudged)
    return (*(n for n in notices if not isinstance(n, NoMatchNotice)), note)


def _listed(
    searcher: Searcher,
    scopes: Scopes,
    query: Query,
    path: str,
    tally: Tally,
    *,
    directory: bool,
    judged: Judged | None = None,
    read: Mapping[str, Sequence[SourceLine]] | None = None,
) -> tuple[Tally, tuple[ListedFile, ...], int]:
    """D32/D44: a small answer's matching lines, by file in path order, with their
    scopes; none when their text would not fit 2,000 bytes. At most 20 lines, so at
    most 20 files: one search reads them all (an rg start per file cost more than the
    search, issue 23). With the tally the answer counts: the count's, or the listing's
    where a file changed between the two searches. `read`: the lines, read with the
    count (`Searcher.count_listed`). And how many listed files were too large to read
    scope lines from (over `SCOUT_SCOPE_MAX_BYTES`, issue 39: their lines print without)."""
    if not lists(tally):
        return tally, (), 0
    lines_of: Mapping[str, Sequence[SourceLine]]
    if judged is not None:
        lines_of = judged.kept  # read already, one search for every file
    else:
        lines_of = (
            read
            if read is not None
            else searcher.matching_lines(
                query, [file.path for file in tally.files], keep=SCOUT_LIST_MAX
            )
        )
        recounted = _recounted(tally, lines_of)
        if recounted is None:
            return tally, (), 0
        tally = recounted
    listed = []
    unscoped = 0
    for file in tally.files:
        matches = lines_of[file.path]
        if not matches:
            continue
        around = scopes.of(file.path, matches, SCOUT_SCOPE_MAX_BYTES)
        unscoped += around.too_large
        lines = tuple(with_scope(line, around) for line in matches)
        listed.append(ListedFile(listed_path(file.path, path, directory=directory), lines))
    ordered = tuple(sorted(listed, key=lambda f: f.path))
    # D44: measured on the text the listing prints, by the renderer that prints it.
    if listing_bytes(ordered) > SCOUT_LIST_BYTES:
        return tally, (), 0
    return tally, ordered, unscoped


def _recounted(tally: Tally, lines_of: Mapping[str, Sequence[object]]) -> Tally | None:
    """`tally`, or where a file changed between the count and the listing (a file's
    listed lines are not its count) the listing's own count, so that an answer never
    says `matches: 2` over 5 lines (issue 39, item 9). None: the listing cannot count
    (a file listed `SCOUT_LIST_MAX` lines and may hold more, or the lines are more than
    may be listed): the count stands, and nothing is listed."""
    listed = [len(lines_of.get(file.path, ())) for file in tally.files]
    if listed == [file.matches for file in tally.files]:
        return tally
    if max(listed) >= SCOUT_LIST_MAX or sum(listed) > SCOUT_LIST_MAX:
        return None
    return tally._replace(
        files=tuple(
            FileCount(file.path, n) for file, n in zip(tally.files, listed, strict=True) if n
        )
    )
