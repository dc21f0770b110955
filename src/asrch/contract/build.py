"""Domain reports to contract answers: pure functions, one per command.

The numbers come from the same report the text renderer reads, and every string the
text prints (notices, snippet text) comes from the same render functions: one source,
two renderers.
"""

from functools import singledispatch
from typing import Any

from asrch.contract.models import (
    Answer,
    Notice,
    PathMatches,
    PathSection,
    PathTerm,
    SampleAnswer,
    SampleCluster,
    ScoutAnswer,
    ShowAnswer,
    Snippet,
    SnippetLine,
    SurveyAnswer,
    TermTotal,
    Window,
)
from asrch.domain.counting import Ranked
from asrch.domain.filters import Filters
from asrch.domain.lines import SourceLine
from asrch.domain.notices import Notice as DomainNotice
from asrch.domain.sample import SampleReport
from asrch.domain.sample import Snippet as DomainSnippet
from asrch.domain.scout import ScoutReport
from asrch.domain.show import ShowReport
from asrch.domain.survey import SurveyReport
from asrch.render.lines import cap_line
from asrch.render.narrowing import case_word
from asrch.render.next_step import pasteable
from asrch.render.notices import notice_text
from asrch.render.sample import sample_notes
from asrch.render.show import show_notes, window
from asrch.render.snippets import source_line


def _notices(notes: list[tuple[str, str]]) -> tuple[Notice, ...]:
    return tuple(Notice(kind=kind, message=message) for kind, message in notes)


def _domain_notices(notices: tuple[DomainNotice, ...]) -> tuple[Notice, ...]:
    return _notices([(n.kind, notice_text(n)) for n in notices])


def _rows(rows: tuple[Ranked, ...]) -> tuple[PathMatches, ...]:
    return tuple(PathMatches(path=r.path, matches=r.matches) for r in rows)


def _line(line: SourceLine) -> SnippetLine:
    # The text answer's line (`N:text`, cut to 800 bytes), minus its `N:` prefix.
    printed = cap_line(source_line(line))
    prefix = len(str(line.number)) + 1
    return SnippetLine(line=line.number, text=printed[prefix:], match=line.is_match)


def _snippets(snippets: tuple[DomainSnippet, ...]) -> tuple[Snippet, ...]:
    return tuple(Snippet(lines=tuple(_line(ln) for ln in s.lines)) for s in snippets)


def _narrowing(ignore_case: bool, filters: Filters) -> dict[str, Any]:
    return {"case": case_word(ignore_case), "types": filters.types, "globs": filters.globs}


@singledispatch
def answer(report: object) -> Answer:
    raise TypeError(f"no JSON answer for {type(report).__name__}")


@answer.register
def scout_answer(report: ScoutReport) -> ScoutAnswer:
    return ScoutAnswer(
        query=report.query.term,
        mode=report.query.mode,
        **_narrowing(report.query.ignore_case, report.query.filters),
        path=report.path,
        matches=report.matches,
        files=report.files,
        capped=report.capped,
        top_directories=_rows(report.top_directories),
        top_files=_rows(report.top_files),
        notices=_domain_notices(report.notices),
        next=pasteable(report.next_step) or None,
    )


@answer.register
def survey_answer(report: SurveyReport) -> SurveyAnswer:
    return SurveyAnswer(
        terms=report.terms,
        paths=report.paths,
        mode=report.mode,
        **_narrowing(report.ignore_case, report.filters),
        capped=any(t.capped for t in report.overall),
        overall=tuple(
            TermTotal(
                term=t.term,
                matches=t.matches,
                files=t.files,
                capped=t.capped,
                dominant_path=t.dominant_path,
            )
            for t in report.overall
        ),
        by_path=tuple(
            PathSection(
                path=section.path,
                terms=tuple(
                    PathTerm(
                        term=r.term,
                        matches=r.matches,
                        files=r.files,
                        capped=r.capped,
                        top_file=r.top_file,
                    )
                    for r in section.rows
                ),
            )
            for section in report.by_path
        ),
        notices=_domain_notices(report.notices),
        next=pasteable(report.next_step) or None,
    )


@answer.register
def sample_answer(report: SampleReport) -> SampleAnswer:
    return SampleAnswer(
        query=report.query.term,
        mode=report.query.mode,
        **_narrowing(report.query.ignore_case, report.query.filters),
        file=report.file,
        matches=report.matches,
        capped=report.capped,
        clustered=report.kept,
        clusters=report.clusters,
        page=report.page,
        pages=report.pages,
        shown=tuple(
            SampleCluster(
                index=view.number,
                start=view.cluster.first,
                end=view.cluster.last,
                hits=view.cluster.hits,
                snippets=_snippets(view.snippets),
            )
            for view in report.shown
        ),
        notices=_notices(sample_notes(report)),
        next=pasteable(report.next_step) or None,
    )


@answer.register
def show_answer(report: ShowReport) -> ShowAnswer:
    at_line = report.line is not None
    span = window(report, report.line) if report.line is not None else None
    return ShowAnswer(
        query=report.query.term,
        mode=report.query.mode,
        **_narrowing(report.query.ignore_case, report.query.filters),
        file=report.file,
        matches=None if at_line else report.matches,
        capped=report.capped,
        refused=report.refused,
        line=report.line,
        window=Window(start=span[0], end=span[1]) if span else None,
        window_matches=report.matches if at_line else None,
        last_line=report.last_line if at_line else None,
        context=report.context,
        snippets=_snippets(report.snippets),
        notices=_notices(show_notes(report)),
        next=pasteable(report.next_step) or None,
    )
