"""`scout` report to text."""

from asrch.domain.scout import ListedFile, ScoutReport
from asrch.domain.text_safety import quote
from asrch.domain.words import Spelling
from asrch.render.narrowing import narrowing_fields
from asrch.render.next_step import next_lines
from asrch.render.notices import notice_lines
from asrch.render.snippets import Trail
from asrch.render.toon import block, count, table


def listed_path_line(path: str) -> str:
    """A listed file's path on its own line (D32): D2's quoting, and quoted too when it
    starts with a digit, so it never reads as a numbered line (`12:`, `12-`, `12=`)."""
    quoted = quote(path)
    return f'"{quoted}"' if quoted[:1].isdigit() else quoted


def listing_lines(listed: tuple[ListedFile, ...]) -> list[str]:
    """Each file's path, then its matches, each after its scope lines (D31) and mark
    (D48) as a show prints them."""
    out: list[str] = []
    for file in listed:
        out.append(listed_path_line(file.path))
        trail = Trail()
        for line in file.lines:
            out += trail.run((line,))
    return out


def render_scout(report: ScoutReport, spelling: Spelling) -> str:
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
    if len(report.kinds) > 1:
        kinds = [(k.kind, k.matches, k.files) for k in report.kinds]
        lines += table("kinds", ("kind", "matches", "files"), kinds)
    lines += listing_lines(report.listed)
    lines += notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling)
    return "\n".join(lines) + "\n"
