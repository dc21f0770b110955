"""`show`: the matches of one term in one file with context, or one line's window."""

from asrch.commands.arguments import CONTEXT, LINE
from asrch.commands.checks import query_first, require_file
from asrch.commands.options import filters_of, require_kept, single_query
from asrch.commands.zero import probe_of, zero_notices
from asrch.domain.clusters import merge_windows
from asrch.domain.counting import Tally
from asrch.domain.definitions import DefinitionCount, Judged, Unjudged, keep_definitions
from asrch.domain.errors import InputError
from asrch.domain.limits import SCAN_CAP, SCOPE_MAX_MATCHES, SHOW_MAX_MATCHES
from asrch.domain.lines import FileScan, FileWindow, SourceLine, Unplaced
from asrch.domain.notices import DefinitionsNotice, NoMatchNotice
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.query import Query, SearchOptions
from asrch.domain.regions import Region
from asrch.domain.show import (
    ShowReport,
    build_line_report,
    build_show_report,
    build_units_report,
    scope_lines_of_show,
    scope_refused,
    with_show_scopes,
)
from asrch.domain.text_safety import quote
from asrch.domain.units import Fold, Unit, choose, cut, folded
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
    folded: bool = False,
    scopes: Scopes,
) -> ShowReport:
    """`scopes`: where the printed lines sit in their file, and the units that `scope`
    asks for (D31, D51). Without a `term` (`show FILE --line N`, D46) no line is marked;
    the query's term is empty."""
    if line is None and term is None:
        if scope:
            raise InputError(
                f"{arg('scope')} needs {arg('line')}, the line whose unit to print "
                f"(or {arg('query')}, to print each match's)"
            )
        raise InputError(f"show needs {arg('query')} without {arg('line')}; give {arg('query')}")
    if definitions and line is not None:
        raise InputError(
            f"{arg('definitions')} keeps matches, {arg('line')} prints a window; drop one"
        )
    if term is None:
        query = Query("", options, filters_of(searcher, options))
    else:
        query = single_query(searcher, term, options, file)
    CONTEXT.require(context)
    query_first(searcher, query, lambda: require_file(searcher, file))
    require_kept(query.filters, file)
    if line is None:
        scan = searcher.scan(query, file, context=context, keep=SHOW_MAX_MATCHES, cap=SCAN_CAP)
        judged = None
        if definitions and scan.matches:
            scan, judged = definition_scan(
                searcher, query, file, scan, context=context, scopes=scopes
            )
        regions: tuple[Region, ...] = ()
        if _may_fold(scan, scope=scope, folded=folded):
            regions = scopes.regions(file)  # D53: parsed only when show prints matches
        report = build_show_report(query, file, scan, context=context, regions=regions)
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
            report = report._replace(notices=notices, scope=scope)
            return report._replace(definitions=DefinitionCount(0)) if definitions else report
        if scope and scan.matches:
            report = _widened(searcher, scopes, report, scan)
    else:
        window = searcher.window(query, file, line=line, context=context)
        _require_line(file, line, window.last_line)
        if scope:
            report = _unit_report(searcher, scopes, query, file, window, line=line, context=context)
        else:
            report = build_line_report(query, file, window, line=line, context=context)
    # D31: the scope lines of what the report prints; none asked, none parsed.
    lines = scope_lines_of_show(report)
    if not lines:
        return report
    return with_show_scopes(report, scopes.of(file, lines))


def _may_fold(scan: FileScan, *, scope: bool, folded: bool) -> bool:
    """D53 folds the matches `show` prints: not when the answer is refused, `--scope`
    prints each match's unit, or the agent asked for the folded ones."""
    printed = scan.matches and not scan.capped and scan.matches <= SHOW_MAX_MATCHES
    return bool(printed) and not scope and not folded


def definition_scan(
    searcher: Searcher, query: Query, file: str, scan: FileScan, *, context: int, scopes: Scopes
) -> tuple[FileScan, Judged]:
    """D52: the scan with only the matches where a definition's name stands left as
    matches; the others stay as context where a kept match's window reaches them. Past
    the first `SHOW_MAX_MATCHES`, every match is read again only when the file would be
    parsed (so at most 1 MB of lines): a file that will not be, whatever its size, is
    answered from the count."""
    if scan.matches > scan.kept:
        verdict = scopes.names(file, ())
        if isinstance(verdict, str):
            unjudged = (Unjudged(verdict, 1, scan.matches),)
            empty = scan._replace(lines=(), kept=0, matches=0)
            return empty, Judged({}, scan.matches, unjudged)
        scan = searcher.scan(query, file, context=context, keep=SCAN_CAP, cap=SCAN_CAP)
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


def _unit_report(
    searcher: Searcher,
    scopes: Scopes,
    query: Query,
    file: str,
    window: FileWindow,
    *,
    line: int,
    context: int,
) -> ShowReport:
    """`show --line N --scope` (D51): the unit around N in place of the window, or the
    window and why."""
    found = scopes.units(file, [line])
    around = found if isinstance(found, str) else found.get(line, "none")
    choice = None
    if not isinstance(around, str):
        choice = choose(around, line, context, window.last_line)
    if isinstance(around, str) or choice is None:
        why: Unplaced = around if isinstance(around, str) else "none"
        return build_line_report(
            query, file, window, line=line, context=context, unplaced=why, scope=True
        )
    pieces = list(choice.pieces)
    span = (pieces[0][0], pieces[-1][1])
    window = searcher.window(query, file, line=line, context=0, span=span)
    folds = tuple(folded(around.folds, pieces, {line}))
    return build_line_report(
        query,
        file,
        window,
        line=line,
        context=context,
        pieces=cut(pieces, list(folds)),
        units=(choice.unit,),
        folds=folds,
        scope=True,
    )


def _widened(searcher: Searcher, scopes: Scopes, report: ShowReport, scan: FileScan) -> ShowReport:
    """`show QUERY FILE --scope` (D51): each match's unit when there are at most
    `SCOPE_MAX_MATCHES`, windows that overlap merged; more is refused with the count."""
    if report.refused or report.matches > SCOPE_MAX_MATCHES:
        first = next((ln.number for ln in scan.lines if ln.is_match), None)
        return scope_refused(report, None if report.refused else first)
    file, context = report.file, report.context
    matches = [ln.number for ln in scan.lines if ln.is_match]
    found = scopes.units(file, matches)
    last_line = max((ln.number for ln in scan.lines), default=1)
    chosen: list[Unit] = []
    ranges: list[tuple[int, int]] = []
    every_fold: list[Fold] = []
    unplaced: list[tuple[int, Unplaced]] = []
    spans: list[tuple[int, int]] = []
    for n in matches:
        around = found if isinstance(found, str) else found.get(n, "none")
        choice = None
        if not isinstance(around, str):
            choice = choose(around, n, context, None)
        if isinstance(around, str) or choice is None:
            unplaced.append((n, around if isinstance(around, str) else "none"))
            ranges += merge_windows([n], context, context, last=last_line)
            continue
        chosen.append(choice.unit)
        ranges += choice.pieces
        spans.append((choice.pieces[0][0], choice.pieces[-1][1]))
        every_fold += around.folds
    pieces = _hull(ranges)
    units = _outermost(chosen)
    folds = tuple(folded(tuple(dict.fromkeys(every_fold)), pieces, set(matches)))
    lines: dict[int, SourceLine] = {ln.number: ln for ln in scan.lines}
    for start, end in _hull(spans):
        window = searcher.window(report.query, file, line=start, context=0, span=(start, end))
        lines.update({ln.number: ln for ln in window.lines})
    ordered = tuple(lines[n] for n in sorted(lines))
    return build_units_report(
        report, ordered, cut(pieces, list(folds)), units=units, folds=folds, unplaced=unplaced
    )


def _hull(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans to read, overlapping or touching ones as one."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _outermost(units: list[Unit]) -> tuple[Unit, ...]:
    """The units printed, in line order: one inside another is part of it."""
    out: list[Unit] = []
    for unit in sorted(set(units), key=lambda u: (u.start, -u.end)):
        if out and out[-1].start <= unit.start and unit.end <= out[-1].end:
            continue
        out.append(unit)
    return tuple(out)


def _require_line(file: str, line: int, last_line: int) -> None:
    """`line`'s declared range with the file's last line as its top, in the file's words."""
    if last_line == 0:  # no line to show: no range to name
        raise InputError(f"{arg('line')} {line} is out of range; {quote(file)} is empty")
    top = f"{LINE.low}-{last_line} (the last line of {quote(file)})"
    LINE._replace(high=last_line, allowed=top).require(line)
