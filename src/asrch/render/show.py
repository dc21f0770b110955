"""`show` report to text: a `show:` block, then snippets or the refusal note."""

from itertools import pairwise

from asrch.domain.show import ShowReport
from asrch.domain.text_safety import visible_line
from asrch.domain.words import Spelling, arg, spelled
from asrch.render.next_step import next_lines
from asrch.render.notices import text_notice_lines
from asrch.render.snippets import snippet_lines
from asrch.render.toon import Scalar, block, count, table


def window(report: ShowReport, line: int) -> tuple[int, int]:
    """The range `show --line LINE` printed: `line` alone when the file gave no lines;
    with `--scope`, the unit's (D51)."""
    if not report.snippets:
        return line, line
    return report.snippets[0].lines[0].number, report.snippets[-1].lines[-1].number


def render_show(report: ShowReport, spelling: Spelling) -> str:
    """D42: the count, or with --line the window printed and the file's last line; not
    the query, file, line or context the agent typed (the lines carry their numbers)."""
    fields: list[tuple[str, Scalar]]
    if report.line is None:
        fields = [("matches", count(report.matches, report.capped))]
    else:
        first, last = window(report, report.line)
        fields = [("window", f"{first}-{last}")]
        if report.units:  # D51: which unit the window is
            fields.append(("unit", report.units[0].kind))
        fields.append(("last_line", report.last_line or 0))
    lines = block("show", fields)
    if report.line is None and report.units:
        rows = [(u.kind, f"{u.start}-{u.end}") for u in report.units]
        lines += table("units", ("kind", "lines"), rows)
    lines += snippet_lines(report.snippets, gaps=gap_lines(report))
    lines += rest_lines(report)
    lines += folded_lines(report, spelling)
    lines += text_notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling, stopped=report.refused)
    return "\n".join(lines) + "\n"


def folded_lines(report: ShowReport, spelling: Spelling) -> list[str]:
    """D53: one line per region whose matches were counted but not printed."""
    shows = spelled(arg("folded"), spelling)
    out = []
    for fold in report.folded:
        region, n = fold.region, fold.matches
        what = f"{n} match{'es' if n != 1 else ''} in {visible_line(region.what)}"
        out.append(f"~ {region.start}-{region.end}: {what} ({shows} shows them)")
    return out


def rest_lines(report: ShowReport) -> list[str]:
    """A unit whose beginning was printed (D51 on a long unit's header, issue 40): 1 line
    for the rest of it, how many lines and which, its last line the unit's last."""
    if not report.snippets:
        return []
    last = report.snippets[-1].lines[-1].number
    unit = next((u for u in report.units if u.start <= last < u.end), None)
    if unit is None:
        return []
    return [f"-- {unit.end - last} more lines of the unit ({last + 1}-{unit.end}) --"]


def gap_lines(report: ShowReport) -> list[str]:
    """The line between each 2 snippets (D46, D51): a folded docstring or comment block
    says what and where; lines left out of one unit, how many; else grep's `--`."""
    out = []
    snippets = report.snippets
    folds = {(f.start, f.end): f for f in report.folds}
    for before, after in pairwise(snippets):
        start, end = before.lines[-1].number + 1, after.lines[0].number - 1
        fold = folds.get((start, end))
        if fold is not None:
            out.append(f"-- {end - start + 1} lines of {fold.kind} ({start}-{end}) --")
        elif any(u.start < start and end < u.end for u in report.units):
            out.append(f"-- {end - start + 1} lines --")
        else:
            out.append("--")
    return out
