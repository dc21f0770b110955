"""`survey` report to text."""

from asrch.domain.survey import SurveyReport
from asrch.domain.words import Spelling
from asrch.render.narrowing import narrowing_fields
from asrch.render.next_step import next_lines
from asrch.render.notices import notice_lines
from asrch.render.toon import Scalar, block, count, table, value


def _repeated(values: tuple[str, ...]) -> bool:
    return len(set(values)) < len(values)


def render_survey(report: SurveyReport, spelling: Spelling) -> str:
    fields: list[tuple[str, Scalar]] = []
    if _repeated(report.terms) or _repeated(report.paths):
        # Only then do the rows not tell how many were given (D33).
        fields += [("terms", len(report.terms)), ("paths", len(report.paths))]
    fields += narrowing_fields(report.mode, report.ignore_case, report.filters)
    lines = block("survey", fields)
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
    lines.append(f"by_path[{len(report.by_path)}]:")
    for section in report.by_path:
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
    lines += notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling)
    return "\n".join(lines) + "\n"
