"""`survey` report to text."""

from collections.abc import Callable

from asrch.domain.survey import PathRow, SurveyReport, TermTotal
from asrch.domain.text_safety import quote, quote_cut
from asrch.domain.words import Spelling
from asrch.render.next_step import next_lines
from asrch.render.notices import text_notice_lines
from asrch.render.toon import Scalar, Written, block, count, table, value


def term_cell(term: str) -> Written:
    """A term as its row writes it: cut past 200 bytes with `…[+N bytes]` (quote_cut), so
    that the row keeps its counts within the 800-byte line (a term of 120,000 bytes took
    them with it)."""
    return Written(quote_cut(term))


def _repeated(values: tuple[str, ...]) -> bool:
    return len(set(values)) < len(values)


def _overall(
    report: SurveyReport, name: str, last: str, where: Callable[[TermTotal], Scalar | None]
) -> list[str]:
    """Each term's totals, and in the last column the path `where` names for it (`-`: none)."""
    rows = [
        (
            term_cell(t.term),
            count(t.matches, t.capped, survey=True),
            count(t.files, t.capped, survey=True),
            where(t) or "-",
        )
        for t in report.overall
    ]
    return table(name, ("term", "matches", "files", last), rows)


def top_cell(row: PathRow) -> Scalar:
    """The `top_file` cell: the top file, or a rare term's places (D56), each
    `FILE:LINE` with the name quoted alone where D2 quotes it, separated by a space."""
    if not row.places:
        return row.top_file
    return Written(" ".join(f"{quote(p.path)}:{p.line}" for p in row.places))


def _stopped(report: SurveyReport) -> bool:
    """A scan stopped at the cap for some term (D54: the answer then names a narrowing)."""
    return any(t.capped for t in report.overall)


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
        top = {t: top_cell(r) for t, r in rows.items()}
        lines += _overall(report, "terms", "top_file", lambda t: top.get(t.term))
        lines += text_notice_lines(report.notices, spelling)
        lines += next_lines(report.next_step, spelling, stopped=_stopped(report))
        return "\n".join(lines) + "\n"
    lines += _overall(report, "overall", "dominant_path", lambda t: t.dominant_path)
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
                    term_cell(r.term),
                    count(r.matches, r.capped, survey=True),
                    count(r.files, r.capped, survey=True),
                    top_cell(r),
                )
                for r in section.rows
            ],
            indent="    ",
        )
    lines += text_notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling, stopped=_stopped(report))
    return "\n".join(lines) + "\n"
