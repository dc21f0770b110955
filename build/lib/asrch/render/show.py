"""`show` report to text: a `show:` block, then snippets or the refusal note."""

from asrch.domain.limits import SHOW_MAX_MATCHES
from asrch.domain.show import ShowReport
from asrch.render.notices import notice_lines
from asrch.render.snippets import snippet_lines
from asrch.render.toon import Scalar, block, count


def render_show(report: ShowReport) -> str:
    fields: list[tuple[str, Scalar]] = [
        ("query", report.query.term),
        ("mode", report.query.mode.value),
        ("file", report.file),
    ]
    if report.line is None:
        fields += [("matches", count(report.matches, report.capped))]
    else:
        first = report.snippets[0].lines[0].number if report.snippets else report.line
        last = report.snippets[-1].lines[-1].number if report.snippets else report.line
        fields += [
            ("line", report.line),
            ("window", f"{first}-{last}"),
            ("window_matches", report.matches),
            ("last_line", report.last_line or 0),
        ]
    fields.append(("context", report.context))
    lines = block("show", fields)
    lines += snippet_lines(report.snippets)
    if report.refused:
        at_least = "at least " if report.capped else ""
        lines.append(
            f"note: refused: {at_least}{report.matches} matching lines, more than the "
            f"{SHOW_MAX_MATCHES} show prints; narrow the term (a longer term, --identifier "
            "or --word), or run sample and then show --line N"
        )
    lines += notice_lines(report.notices)
    return "\n".join(lines) + "\n"
