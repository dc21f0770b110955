"""Domain reports to contract answers: pure functions, one per command, no pydantic.

Each answer is the JSON value `--format json` prints: a dict of its command's shape
(`shapes.py`, the one declaration; the type checker holds every key and value here to
it), its keys in the shape's order (the tests hold that), terms and paths already
`json_text`, tuples for arrays. The command line serializes it with the stdlib (D41);
`schema.validated` checks it through pydantic in the tests and at the MCP boundary.
The shapes are imported for the type checker only: this path runs none of them.

The numbers come from the same report the text renderer reads, and every string the
text prints (notices, snippet text) comes from the same render functions: one source,
two renderers.
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Literal, TypeVar

from asrch.domain.counting import Ranked
from asrch.domain.definitions import DefinitionCount
from asrch.domain.filters import Filters
from asrch.domain.lines import SourceLine
from asrch.domain.notices import Notice as DomainNotice
from asrch.domain.query import Query
from asrch.domain.sample import SampleReport
from asrch.domain.sample import Snippet as DomainSnippet
from asrch.domain.scout import ScoutReport
from asrch.domain.show import ShowReport
from asrch.domain.survey import SurveyReport
from asrch.domain.text_safety import json_path, json_text
from asrch.domain.words import NextStep
from asrch.render.narrowing import case_word
from asrch.render.notices import notes
from asrch.render.show import window
from asrch.render.snippets import line_text, scope_text
from asrch.spelling import COMMAND_LINE, TOOL

SCHEMA_VERSION: Literal["1"] = "1"
"""D27's version, the shapes' `schema_version` (the type checker holds the two equal)."""

if TYPE_CHECKING:
    from asrch.contract.shapes import (
        Answer,
        Definitions,
        Head,
        Options,
        PathMatches,
        QueryHead,
        SampleAnswer,
        ScoutAnswer,
        ShowAnswer,
        Snippet,
        SnippetLine,
        SurveyAnswer,
        Tail,
    )
    from asrch.domain.modes import Mode

Command = TypeVar("Command", bound=str)


def _rows(rows: tuple[Ranked, ...]) -> tuple[PathMatches, ...]:
    return tuple({"path": json_path(r.path), "matches": r.matches} for r in rows)


def _line(line: SourceLine) -> SnippetLine:
    return {
        "line": line.number,
        "text": line_text(line),
        "match": line.is_match,
        "scope": tuple({"line": s.line, "text": scope_text(s)} for s in line.scope),
        "scope_known": line.scope_known,
    }


def _snippets(snippets: tuple[DomainSnippet, ...]) -> tuple[Snippet, ...]:
    return tuple({"lines": tuple(_line(ln) for ln in s.lines)} for s in snippets)


def _options(mode: Mode, ignore_case: bool, filters: Filters) -> Options:
    return {
        "mode": mode,
        "case": case_word(ignore_case),
        "types": tuple(map(json_text, filters.types)),
        "globs": tuple(map(json_text, filters.globs)),
    }


def _query_options(query: Query) -> Options:
    return _options(query.mode, query.ignore_case, query.filters)


def _head(command: Command) -> Head[Command]:
    return {"schema_version": SCHEMA_VERSION, "command": command}


def _query_head(command: Command, query: Query) -> QueryHead[Command]:
    return {**_head(command), "query": json_text(query.term), **_query_options(query)}


def _tail(notices: tuple[DomainNotice, ...], step: NextStep) -> Tail:
    """What every answer ends with: its notices in the surface's words, and the next
    step as the command line's argument strings and as an MCP call (D37), each none
    where its `next:` line would be too long."""
    argv = COMMAND_LINE.argv(step) if COMMAND_LINE.step(step) else ()
    call = TOOL.call(step) if TOOL.step(step) else None
    return {
        "notices": tuple({"kind": k, "message": m} for k, m in notes(notices, COMMAND_LINE)),
        "next": argv or None,
        "next_call": None if call is None else {"tool": call[0], "arguments": call[1]},
    }


@singledispatch
def answer(report: object) -> Answer:
    raise TypeError(f"no JSON answer for {type(report).__name__}")


def scout_answer(report: ScoutReport) -> ScoutAnswer:
    return {
        **_query_head("scout", report.query),
        "path": json_path(report.path),
        "matches": report.matches,
        "files": report.files,
        "capped": report.capped,
        "top_directories": _rows(report.top_directories),
        "top_files": _rows(report.top_files),
        "kinds": tuple(
            {"kind": k.kind, "matches": k.matches, "files": k.files} for k in report.kinds
        ),
        "listed": tuple(
            {"path": json_path(f.path), "lines": tuple(_line(ln) for ln in f.lines)}
            for f in report.listed
        ),
        "definitions": _definitions(report.definitions),
        **_tail(report.notices, report.next_step),
    }


def survey_answer(report: SurveyReport) -> SurveyAnswer:
    return {
        **_head("survey"),
        "terms": tuple(map(json_text, report.terms)),
        "paths": tuple(map(json_text, report.paths)),
        **_options(report.mode, report.ignore_case, report.filters),
        "capped": any(t.capped for t in report.overall),
        "overall": tuple(
            {
                "term": json_text(t.term),
                "matches": t.matches,
                "files": t.files,
                "capped": t.capped,
                "dominant_path": t.dominant_path and json_path(t.dominant_path),
            }
            for t in report.overall
        ),
        "by_path": tuple(
            {
                "path": json_path(section.path),
                "terms": tuple(
                    {
                        "term": json_text(r.term),
                        "matches": r.matches,
                        "files": r.files,
                        "capped": r.capped,
                        "top_file": json_path(r.top_file),
                        "places": tuple(
                            {"path": json_path(p.path), "line": p.line} for p in r.places
                        ),
                    }
                    for r in section.rows
                ),
            }
            for section in report.by_path
        ),
        **_tail(report.notices, report.next_step),
    }


def sample_answer(report: SampleReport) -> SampleAnswer:
    return {
        **_query_head("sample", report.query),
        "file": json_path(report.file),
        "matches": report.matches,
        "capped": report.capped,
        "clustered": report.kept,
        "clusters": report.clusters,
        "page": report.page,
        "pages": report.pages,
        "shown": tuple(
            {
                "index": view.number,
                "start": view.cluster.first,
                "end": view.cluster.last,
                "hits": view.cluster.hits,
                "snippets": _snippets(view.snippets),
            }
            for view in report.shown
        ),
        **_tail(report.notices, report.next_step),
    }


def show_answer(report: ShowReport) -> ShowAnswer:
    at_line = report.line is not None
    span = window(report, report.line) if report.line is not None else None
    definition = report.definition
    return {
        **_head("show"),
        "query": json_text(report.query.term) if report.queried else None,
        **_query_options(report.query),
        "file": json_path(report.file),
        "matches": None if at_line else report.matches,
        "capped": report.capped,
        "refused": report.refused,
        "line": report.line,
        "window": {"start": span[0], "end": span[1]} if span else None,
        "definition": None
        if definition is None
        else {"start": definition.start, "end": definition.end},
        "units": tuple({"kind": u.kind, "start": u.start, "end": u.end} for u in report.units)
        if report.scope
        else None,
        "folds": tuple({"kind": f.kind, "start": f.start, "end": f.end} for f in report.folds),
        "folded": tuple(
            {
                "kind": f.region.kind,
                "what": json_text(f.region.what),
                "start": f.region.start,
                "end": f.region.end,
                "matches": f.matches,
            }
            for f in report.folded
        ),
        "window_matches": report.matches if at_line and report.queried else None,
        "last_line": report.last_line if at_line else None,
        "context": report.context,
        "snippets": _snippets(report.snippets),
        "definitions": _definitions(report.definitions),
        **_tail(report.notices, report.next_step),
    }


def _definitions(found: DefinitionCount | None) -> Definitions | None:
    if found is None:
        return None
    return {
        "matches": found.matches,
        "not_parsed": tuple(
            {"reason": u.reason, "files": u.files, "lines": u.lines} for u in found.unjudged
        ),
    }


# Registered by class, not by annotation: singledispatch would read the return
# annotation too, a shape this module imports for the type checker only.
answer.register(ScoutReport, scout_answer)
answer.register(SurveyReport, survey_answer)
answer.register(SampleReport, sample_answer)
answer.register(ShowReport, show_answer)
