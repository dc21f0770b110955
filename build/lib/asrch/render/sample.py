"""`sample` report to text: a `sample:` block, then each cluster of the page."""

from asrch.domain.sample import SampleReport
from asrch.render.notices import notice_lines
from asrch.render.snippets import shown_path, snippet_lines
from asrch.render.toon import Scalar, block, count


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def render_sample(report: SampleReport) -> str:
    fields: list[tuple[str, Scalar]] = [
        ("query", report.query.term),
        ("mode", report.query.mode.value),
        ("file", report.file),
        ("matches", count(report.matches, report.capped)),
    ]
    if report.kept < report.matches:
        fields.append(("clustered", report.kept))
    fields += [("clusters", report.clusters), ("page", f"{report.page}/{report.pages}")]
    lines = block("sample", fields)
    path = shown_path(report.file)
    for view in report.shown:
        c = view.cluster
        lines.append(
            f"== {path} {c.first}-{c.last} ({_hits(c.hits)}, "
            f"cluster {view.index}/{report.clusters}) =="
        )
        lines += snippet_lines(view.snippets)
    if report.past_end:
        lines.append(
            f"note: page {report.page} is past the last page; valid pages: 1-{report.pages}"
        )
    lines += notice_lines(report.notices)
    return "\n".join(lines) + "\n"
