"""`scout` report to text."""

from asrch.domain.scout import ScoutReport
from asrch.render.narrowing import narrowing_fields
from asrch.render.next_step import next_lines
from asrch.render.notices import notice_lines
from asrch.render.toon import block, count, table


def render_scout(report: ScoutReport) -> str:
    lines = block(
        "scout",
        [
            ("query", report.query.term),
            *narrowing_fields(report.query.mode, report.query.ignore_case, report.query.filters),
            ("path", report.path),
            ("matches", count(report.matches, report.capped)),
            ("files", count(report.files, report.capped)),
        ],
    )
    rows = [(r.path, r.matches) for r in report.top_directories]
    lines += table("top_directories", ("path", "matches"), rows)
    rows = [(r.path, r.matches) for r in report.top_files]
    lines += table("top_files", ("path", "matches"), rows)
    lines += notice_lines(report.notices)
    lines += next_lines(report.next_step)
    return "\n".join(lines) + "\n"
