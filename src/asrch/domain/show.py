"""`show`: a few matches with context, or the window around one line (pure)."""

from typing import NamedTuple

from asrch.domain.clusters import merge_windows
from asrch.domain.counting import FileCount, Tally
from asrch.domain.definitions import DefinitionCount
from asrch.domain.limits import SCOPE_MAX_MATCHES, SHOW_MAX_MATCHES
from asrch.domain.lines import (
    Definition,
    FileScan,
    FileWindow,
    Placements,
    SourceLine,
    Unplaced,
)
from asrch.domain.next_step import NO_STEP, show_step
from asrch.domain.notices import (
    NoDefinitionNotice,
    Notice,
    RefusedNotice,
    SkippedNotice,
    loose_boundary,
    search_notices,
)
from asrch.domain.query import Query
from asrch.domain.regions import FoldedRegion, Region, region_of
from asrch.domain.sample import Snippet, scoped
from asrch.domain.units import Fold, Unit
from asrch.domain.words import NextStep


class ShowReport(NamedTuple):
    query: Query
    file: str
    context: int
    matches: int
    """Matching lines in the file (without --line) or in the window (with --line)."""
    capped: bool = False
    refused: bool = False
    """More than SHOW_MAX_MATCHES matches (or the scan cap): no snippet is printed."""
    line: int | None = None
    last_line: int | None = None
    snippets: tuple[Snippet, ...] = ()
    notices: tuple[Notice, ...] = ()
    next_step: NextStep = NO_STEP
    definition: Definition | None = None
    """`--line N --scope`: the lines of the unit printed when it is a definition (D46)."""
    definitions: DefinitionCount | None = None
    """`--def` (D52): every matching line looked at, and those not judged; None without."""
    scope: bool = False
    """`--scope` was asked (D51): `units` says what was printed."""
    units: tuple[Unit, ...] = ()
    """`--scope` (D51): the units printed in place of the `--context` windows, in line
    order; none where a note says why the window was printed instead."""
    folds: tuple[Fold, ...] = ()
    """The docstrings and comment blocks left out of the units printed, one line each."""
    folded: tuple[FoldedRegion, ...] = ()
    """D53: the header comment and test regions whose matches are counted but not
    printed (a line each, after the others); none when every match lies in one."""

    @property
    def queried(self) -> bool:
        """A query was given: `show FILE --line N` has none (D46), and marks no line."""
        return bool(self.query.term)


def _snippets(
    windows: list[tuple[int, int]], by_number: dict[int, SourceLine]
) -> tuple[Snippet, ...]:
    out = []
    for start, end in windows:
        lines = tuple(by_number[n] for n in range(start, end + 1) if n in by_number)
        if lines:
            out.append(Snippet(lines=lines))
    return tuple(out)


def build_show_report(
    query: Query,
    file: str,
    scan: FileScan,
    *,
    context: int,
    regions: tuple[Region, ...] = (),
) -> ShowReport:
    """Up to SHOW_MAX_MATCHES matches (all of them counted) with merged context; more is
    refused. The matches in `regions` (D53) fold, one line per region, unless every
    match lies in one; a match that another's context prints is printed, not folded."""
    tally = Tally(
        files=(FileCount(path=file, matches=scan.matches),) if scan.matches else (),
        capped=scan.capped,
        skipped=scan.skipped,
    )
    refused = scan.capped or scan.matches > SHOW_MAX_MATCHES
    refusal = (
        [
            RefusedNotice(
                matches=scan.matches,
                capped=scan.capped,
                mode=query.mode,
                bounded_narrows=query.has_word_character,
            )
        ]
        if refused
        else []
    )
    notices = (*refusal, *search_notices(query, tally, file, directory=False))
    snippets: tuple[Snippet, ...] = ()
    folded: tuple[FoldedRegion, ...] = ()
    if not refused:
        by_number = {line.number: line for line in scan.lines}
        centers = [line.number for line in scan.lines if line.is_match]
        kept = [n for n in centers if region_of(n, regions) is None]
        if kept and len(kept) < len(centers):
            windows = merge_windows(kept, context, context)
            folded = _folded(centers, windows, regions)
        else:
            windows = merge_windows(centers, context, context)
        snippets = _snippets(windows, by_number)
    return ShowReport(
        query=query,
        file=file,
        context=context,
        matches=scan.matches,
        capped=scan.capped,
        refused=refused,
        snippets=snippets,
        notices=notices,
        next_step=show_step(query, file, refused=refused),
        folded=folded,
    )


def _folded(
    matches: list[int], windows: list[tuple[int, int]], regions: tuple[Region, ...]
) -> tuple[FoldedRegion, ...]:
    """Per region, its matches that no printed window holds."""
    counted: dict[Region, int] = {}
    for n in matches:
        region = region_of(n, regions)
        if region is not None and not any(a <= n <= b for a, b in windows):
            counted[region] = counted.get(region, 0) + 1
    return tuple(FoldedRegion(r, k) for r, k in sorted(counted.items()))


def build_line_report(
    query: Query,
    file: str,
    window: FileWindow,
    *,
    line: int,
    context: int,
    pieces: list[tuple[int, int]] | None = None,
    units: tuple[Unit, ...] = (),
    folds: tuple[Fold, ...] = (),
    unplaced: Unplaced | None = None,
    scope: bool = False,
) -> ShowReport:
    """The lines around `line`, matches marked; never refused for the match count. With
    `pieces` (`--scope`, D51), those ranges of the `units` instead, `folds` left out;
    `unplaced`: why the `--context` window is printed instead."""
    by_number = {ln.number: ln for ln in window.lines}
    if pieces is None:
        windows = merge_windows([line], context, context, last=window.last_line)
    else:
        windows = pieces
    snippets = _snippets(windows, by_number)
    notices: list[Notice] = []
    if unplaced is not None:
        notices.append(NoDefinitionNotice(file=file, line=line, why=unplaced))
    if loose := loose_boundary(query):
        notices.append(loose)
    if window.skipped:
        notices.append(SkippedNotice(files=window.skipped))
    definition = None
    if len(units) == 1 and units[0].kind == "definition":
        definition = Definition(units[0].start, units[0].end)
    return ShowReport(
        query=query,
        file=file,
        context=context,
        matches=sum(1 for s in snippets for ln in s.lines if ln.is_match),
        line=line,
        last_line=window.last_line,
        snippets=snippets,
        notices=tuple(notices),
        definition=definition,
        scope=scope,
        units=units,
        folds=folds,
    )


def build_units_report(
    report: ShowReport,
    lines: tuple[SourceLine, ...],
    pieces: list[tuple[int, int]],
    *,
    units: tuple[Unit, ...],
    folds: tuple[Fold, ...],
    unplaced: list[tuple[int, Unplaced]],
) -> ShowReport:
    """`show QUERY FILE --scope` (D51): `report` (its matches, at most
    `SCOPE_MAX_MATCHES`) printed as `pieces` of `lines`: each match's unit, or its
    `--context` window where `unplaced` says why none is given."""
    by_number = {ln.number: ln for ln in lines}
    why = [NoDefinitionNotice(report.file, n, w) for n, w in unplaced]
    return report._replace(
        snippets=_snippets(pieces, by_number),
        units=units,
        folds=folds,
        scope=True,
        notices=(*why, *report.notices),
    )


def scope_refused(report: ShowReport, first: int | None) -> ShowReport:
    """`show QUERY FILE --scope` with more than `SCOPE_MAX_MATCHES` matching lines (D51):
    no snippet, the count and the narrowing said, exit status 3 as any refusal."""
    notice = RefusedNotice(
        matches=report.matches,
        capped=report.capped,
        mode=report.query.mode,
        bounded_narrows=report.query.has_word_character,
        most=SCOPE_MAX_MATCHES,
    )
    rest = tuple(n for n in report.notices if not isinstance(n, RefusedNotice))
    return report._replace(
        refused=True,
        snippets=(),
        scope=True,
        notices=(notice, *rest),
        next_step=show_step(report.query, report.file, refused=True, scope_line=first),
    )


def scope_lines_of_show(report: ShowReport) -> list[SourceLine]:
    """The lines whose scope show prints (D31): each printed match; with --line, that line."""
    if report.line is not None:
        return [ln for s in report.snippets for ln in s.lines if ln.number == report.line]
    return [line for s in report.snippets for line in s.lines if line.is_match]


def with_show_scopes(report: ShowReport, found: Placements) -> ShowReport:
    lines = {line.number for line in scope_lines_of_show(report)}
    return report._replace(snippets=scoped(report.snippets, lines, found))
