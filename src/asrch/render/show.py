"""`show` report to text: a `show:` block, then snippets or the refusal note."""

from asrch.domain.show import ShowReport
from asrch.domain.words import Spelling
from asrch.render.next_step import next_lines
from asrch.render.notices import text_notice_lines
from asrch.render.snippets import snippet_lines
from asrch.render.toon import Scalar, block, count


def window(report: ShowReport, line: int) -> tuple[int, int]:
    """The range `show --line LINE` printed: `line` alone when the file gave no lines;
    with `--scope`, the definition's (D46)."""
    if report.definition is not None:
        return report.definition.start, report.definition.end
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
        fields = [("window", f"{first}-{last}"), ("last_line", report.last_line or 0)]
    lines = block("show", fields)
    lines += snippet_lines(report.snippets, elided=report.definition is not None)
    lines += text_notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling, stopped=report.refused)
    return "\n".join(lines) + "\n"
