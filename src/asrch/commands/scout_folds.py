"""D53 in scout: which matching lines lie in header comments and in-file tests, read
within bounds (spec/cli_behavior.en.md, "Header comments and in-file tests rank last")."""

from collections.abc import Mapping, Sequence

from asrch.domain.counting import Tally
from asrch.domain.definitions import Judged
from asrch.domain.limits import SCAN_CAP
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.query import Query
from asrch.domain.regions import Header, Region
from asrch.domain.scout import kind_below
from asrch.domain.scout_folds import FoldedLines, files_for_tests, folded_lines, header_files


def folded_in(
    searcher: Searcher,
    scopes: Scopes,
    query: Query,
    path: str,
    tally: Tally,
    *,
    judged: Judged | None = None,
) -> FoldedLines:
    """The header comments of the files with the most matching lines (read without a
    parse), the test regions of the few Python and Rust files with the most (parsed when
    their text holds a test marker), and where those files match: 1 search of the header
    texts read, and 1 of the files with tests. `judged` (`--def`): the lines kept
    already, no search."""
    files = tally.files
    chosen = header_files(files)
    headers = scopes.headers(chosen)
    tests: dict[str, tuple[Region, ...]] = {}
    for file in files_for_tests(files, lambda p: kind_below(p, path)):
        if regions := scopes.tests(file):
            tests[file] = regions
    unread = len(files) - len(chosen)
    if not headers and not tests:
        return FoldedLines(0, 0, {}, unread)
    regions_of = {file: header.region for file, header in headers.items()}
    lines_of: Mapping[str, Sequence[int]]
    if judged is not None:
        lines_of = {f: [ln.number for ln in judged.kept.get(f, ())] for f in (*headers, *tests)}
    else:
        lines_of = _matching_numbers(searcher, query, headers, tests)
    return folded_lines(files, lines_of, regions_of, tests, unread=unread)


def _matching_numbers(
    searcher: Searcher,
    query: Query,
    headers: Mapping[str, Header],
    tests: Mapping[str, tuple[Region, ...]],
) -> dict[str, list[int]]:
    """Where the files with a header or tests match: a header's text as read (1 search
    over all of them, no file read again), a file with tests all of it."""
    texts = {file: header.text for file, header in headers.items() if file not in tests}
    found = searcher.lines_matching(query, texts) if texts else {}
    if tests:
        for file, lines in searcher.matching_lines(query, list(tests), keep=SCAN_CAP).items():
            found[file] = [ln.number for ln in lines]
    return found
