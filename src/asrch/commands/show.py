"""`show`: the matches of one term in one file with context, or one line's window."""

from asrch.commands.arguments import CONTEXT, LINE
from asrch.commands.checks import query_first, require_file
from asrch.commands.options import filters_of, require_kept, single_query
from asrch.commands.zero import probe_of, zero_notices
from asrch.domain.counting import Tally
from asrch.domain.definitions import DefinitionCount, Judged, keep_definitions
from asrch.domain.errors import InputError
from asrch.domain.limits import SCAN_CAP, SHOW_MAX_MATCHES
from asrch.domain.lines import Definition, FileScan
from asrch.domain.notices import DefinitionsNotice, NoMatchNotice
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.query import Query, SearchOptions
from asrch.domain.show import (
    ShowReport,
    build_line_report,
    build_show_report,
    scope_lines_of_show,
    with_show_scopes,
)
from asrch.domain.text_safety import quote
from asrch.domain.words import arg


def run_show(
    searcher: Searcher,
    term: str | None,
    file: str,
    options: SearchOptions,
    *,
    line: int | None,
    context: int,
    scope: bool = False,
    definitions: bool = False,
    scopes: Scopes,
) -> ShowReport:
    """`scopes`: where the printed lines sit in their file, and the definition that
    `scope` asks for (D31, D46). Without a `term` (`show FILE --line N`, D46) no line is
    marked; the query's term is empty."""
    if line is None and term is None:
        raise InputError(f"show needs {arg('query')} without {arg('line')}; give {arg('query')}")
    if scope and line is None:
        raise InputError(f"{arg('scope')} needs {arg('line')}, the line whose definition to print")
    if definitions and line is not None:
        raise InputError(
            f"{arg('definitions')} keeps matches, {arg('line')} prints a window; drop one"
        )
    if term is None:
        query = Query("", options, filters_of(searcher, options))
    else:
        query = single_query(searcher, term, options)
    CONTEXT.require(context)
    query_first(searcher, query, lambda: require_file(searcher, file))
    require_kept(query.filters, file)
    if line is None:
        keep = SCAN_CAP if definitions else SHOW_MAX_MATCHES
        scan = searcher.scan(query, file, context=context, keep=keep, cap=SCAN_CAP)
        judged = None
        if definitions and scan.matches:
            scan, judged = definition_scan(scan, file, scopes)
        report = build_show_report(query, file, scan, context=context)
        if judged is not None:
            notices = report.notices
            if judged.unjudged or not scan.matches:
                notices = (
                    *(n for n in notices if not isinstance(n, NoMatchNotice)),
                    DefinitionsNotice(judged.matches, scan.matches, judged.unjudged),
                )
            report = report._replace(notices=notices, definitions=judged.summary)
        elif not scan.matches:
            probe = probe_of(searcher, query, file)
            notices = zero_notices(
                searcher, query, file, Tally(), report.notices, directory=False, probe=probe
            )
            report = report._replace(notices=notices)
            return report._replace(definitions=DefinitionCount(0)) if definitions else report
    else:
        window = searcher.window(query, file, line=line, context=context)
        _require_line(file, line, window.last_line)
        found = scopes.around(file, line) if scope else None
        if isinstance(found, Definition):
            # D46: the definition's lines, in place of the --context window.
            window = searcher.window(query, file, line=line, context=0, span=found)
            report = build_line_report(
                query, file, window, line=line, context=context, definition=found
            )
        else:
            report = build_line_report(
                query, file, window, line=line, context=context, unplaced=found
            )
    # D31: the scope lines of what the report prints; none asked, none parsed.
    lines = scope_lines_of_show(report)
    if not lines:
        return report
    return with_show_scopes(report, scopes.of(file, lines))


def definition_scan(scan: FileScan, file: str, scopes: Scopes) -> tuple[FileScan, Judged]:
    """D52: the scan with only the matches where a definition's name stands left as
    matches; the others stay as context where a kept match's window reaches them."""
    matches = [ln for ln in scan.lines if ln.is_match]
    judged = keep_definitions({file: matches}, {file: scopes.names(file, matches)})
    kept = {ln.number for ln in judged.kept.get(file, ())}
    lines = tuple(
        ln
        if not ln.is_match or ln.number in kept
        else ln._replace(is_match=False, first_match=None)
        for ln in scan.lines
    )
    return scan._replace(lines=lines, kept=len(kept), matches=len(kept)), judged


def _require_line(file: str, line: int, last_line: int) -> None:
    """`line`'s declared range with the file's last line as its top, in the file's words."""
    if last_line == 0:  # no line to show: no range to name
        raise InputError(f"{arg('line')} {line} is out of range; {quote(file)} is empty")
    top = f"{LINE.low}-{last_line} (the last line of {quote(file)})"
    LINE._replace(high=last_line, allowed=top).require(line)
