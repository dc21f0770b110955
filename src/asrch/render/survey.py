"""`survey` report to text."""

from asrch.domain.survey import SurveyReport
from asrch.domain.words import Spelling
from asrch.render.next_step import next_lines
from asrch.render.notices import text_notice_lines
from asrch.render.toon import Scalar, block, count, table, value


def _repeated(values: tuple[str, ...]) -> bool:
    return len(set(values)) < len(values)


def render_survey(report: SurveyReport, spelling: Spelling) -> str:
    """D42: no setting echoed; `survey:` only when a term or path is repeated (the rows
    then do not tell how many were given). One path: one table `terms[...]` (overall
    would repeat it, and its dominant_path would be that path). Several: overall, then
    by_path's sections that have a row; no empty table."""
    lines: list[str] = []
    if _repeated(report.terms) or _repeated(report.paths):
        fields: list[tuple[str, Scalar]] = [
            ("terms", len(report.terms)),
            ("paths", len(report.paths)),
        ]
        lines += block("survey", fields)
    if len(report.by_path) == 1:
        rows = {r.term: r for r in report.by_path[0].rows}
        lines += table(
            "terms",
            ("term", "matches", "files", "top_file"),
            [
                (
                    t.term,
                    count(t.matches, t.capped, survey=True),
                    count(t.files, t.capped, survey=True),
                    rows[t.term].top_file if t.term in rows else "-",
                )
                for t in report.overall
            ],
        )
        lines += text_notice_lines(report.notices, spelling)
        lines += next_lines(report.next_step, spelling)
        return "\n".join(lines) + "\n"
    lines += table(
        "overall",
        ("term", "matches", "files", "dominant_path"),
        [
            (
                t.term,
                count(t.matches, t.capped, survey=True),
                count(t.files, t.capped, survey=True),
                t.dominant_path if t.dominant_path is not None else "-",
            )
            for t in report.overall
        ],
    )
    sections = [section for section in report.by_path if section.rows]
    if sections:
        lines.append(f"by_path[{len(sections)}]:")
    for section in sections:
        lines.append(f"  - path: {value(section.path)}")
        lines += table(
            "terms",
            ("term", "matches", "files", "top_file"),
            [
                (
                    r.term,
                    count(r.matches, r.capped, survey=True),
                    count(r.files, r.capped, survey=True),
                    r.top_file,
                )
                for r in section.rows
            ],
            indent="    ",
        )
    lines += text_notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling)
    return "\n".join(lines) + "\n"
