"""`sample` report to text: a `sample:` block, then each cluster of the page."""

from asrch.domain.sample import SampleReport
from asrch.domain.words import Spelling
from asrch.render.narrowing import narrowing_fields
from asrch.render.next_step import next_lines
from asrch.render.notices import notice_lines
from asrch.render.snippets import Trail, shown_path, snippet_lines
from asrch.render.toon import Scalar, block, count


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def render_sample(report: SampleReport, spelling: Spelling) -> str:
    fields: list[tuple[str, Scalar]] = [
        ("query", report.query.term),
        *narrowing_fields(report.query.mode, report.query.ignore_case, report.query.filters),
        ("file", report.file),
        ("matches", count(report.matches, report.capped)),
    ]
    if report.kept < report.matches:
        fields.append(("clustered", report.kept))
    fields.append(("clusters", report.clusters))
    # Past the last page, the number of pages: `page: 9/3` would read as a page that is.
    if report.page > report.pages:
        fields.append(("pages", report.pages))
    else:
        fields.append(("page", f"{report.page}/{report.pages}"))
    lines = block("sample", fields)
    path = shown_path(report.file)
    trail = Trail()
    for view in report.shown:
        c = view.cluster
        lines.append(
            f"== {path} {c.first}-{c.last} ({_hits(c.hits)}, "
            f"cluster {view.number}/{report.clusters}) =="
        )
        lines += snippet_lines(view.snippets, trail)
    lines += notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling)
    return "\n".join(lines) + "\n"
