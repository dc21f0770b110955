"""`sample` report to text: a `sample:` block, then each cluster of the page."""

from asrch.domain.sample import SampleReport
from asrch.domain.words import Spelling
from asrch.render.next_step import next_lines
from asrch.render.notices import text_notice_lines
from asrch.render.snippets import Trail, snippet_lines
from asrch.render.toon import Scalar, block, count


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def render_sample(report: SampleReport, spelling: Spelling) -> str:
    """D42: the counts, and the page only when there are more (then each cluster header
    says `cluster I/C`: on 1 page the clusters printed are all); not the query, file or
    settings the agent typed."""
    fields: list[tuple[str, Scalar]] = [("matches", count(report.matches, report.capped))]
    if report.kept < report.matches:
        fields.append(("clustered", report.kept))
    # Past the last page, the number of pages: `page: 9/3` would read as a page that is.
    if report.page > report.pages:
        fields.append(("pages", report.pages))
    elif report.pages > 1:
        fields.append(("page", f"{report.page}/{report.pages}"))
    lines = block("sample", fields)
    trail = Trail()
    for view in report.shown:
        c = view.cluster
        span = f"{c.first}" if c.first == c.last else f"{c.first}-{c.last}"
        where = f", cluster {view.number}/{report.clusters}" if report.pages > 1 else ""
        lines.append(f"== {span} ({_hits(c.hits)}{where}) ==")
        lines += snippet_lines(view.snippets, trail)
    lines += text_notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling, stopped=report.capped)
    return "\n".join(lines) + "\n"
