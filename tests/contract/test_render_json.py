"""The JSON renderer over any strings a tree or a command line can hold: always one line
of valid UTF-8 JSON that fits its schema, whose values are the report's."""

import json
import os
import typing
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from asrch.contract.answers import NOTICE, PATH_MATCHES
from asrch.contract.build import answer
from asrch.contract.render import render_json
from asrch.contract.schema import adapter, typed, validated
from asrch.domain.clusters import Cluster
from asrch.domain.counting import Ranked
from asrch.domain.lines import SourceLine
from asrch.domain.modes import Mode
from asrch.domain.notices import BroadNotice, CapNotice, ShortTermNotice
from asrch.domain.query import Query, SearchOptions
from asrch.domain.sample import ClusterView, SampleReport, Snippet
from asrch.domain.scout import ScoutReport
from asrch.domain.show import ShowReport
from asrch.domain.text_safety import json_escapes, json_path, json_text
from asrch.render.lines import cap_text
from asrch.render.sample import render_sample
from asrch.render.show import render_show
from asrch.spelling import COMMAND_LINE
from tests.contract.schemas import one_answer
from tests.support import toon

# Names as the file system and argv hand them over: any bytes, surrogate-escaped.
names = st.binary(min_size=1, max_size=40).map(os.fsdecode) | st.text(min_size=1, max_size=40)
terms = names | st.sampled_from(["\u2028", "\x85", "\x7f", "\x9b[2J", '"\\', "日本語"])
modes = st.sampled_from(list(Mode))
line_bytes = st.binary(max_size=60) | st.binary(min_size=790, max_size=900)


def _as_pydantic_prints(report: object) -> str:
    """The report's answer validated against its shape and printed by pydantic, in the
    shape's key order (D41: the command line's stdlib writer must print exactly these
    bytes)."""
    values = answer(report)
    shape = adapter(values["command"])
    printed = shape.dump_json(shape.validate_python(values)).decode()
    return printed.translate(json_escapes()) + "\n"


def _check_no_raw_controls(out: str) -> None:
    out.encode("utf-8")  # strict: no surrogate can reach stdout
    body = out.removesuffix("\n")
    raw = [c for c in body if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c in "\u2028\u2029"]
    assert not raw, f"raw control characters {raw!r}"


@settings(max_examples=150, deadline=None)
@given(term=terms, mode=modes, path=names, rows=st.lists(st.tuples(names, st.integers(0, 10**6))))
def test_scout_any_names(term: str, mode: Mode, path: str, rows: list[tuple[str, int]]) -> None:
    ranked = tuple(Ranked(path=p, matches=m) for p, m in rows[:5])
    notices = (
        BroadNotice(matches=60_000, files=3, capped=True),
        CapNotice(),
        ShortTermNotice(term=term),
    )
    report = ScoutReport(
        query=Query(term=term, options=SearchOptions(mode=mode)),
        path=path,
        matches=sum(m for _, m in rows),
        files=len(rows),
        capped=True,
        top_directories=ranked,
        top_files=ranked,
        notices=notices,
    )
    out = render_json(report)
    assert out == _as_pydantic_prints(report)
    _check_no_raw_controls(out)
    data = one_answer(out)
    assert validated(answer(report)) == data, "the MCP structured content is the same answer"
    assert (data["query"], data["path"], data["mode"]) == (
        json_text(term),
        json_path(path),
        mode,
    )
    assert data["top_files"] == [{"path": json_path(r.path), "matches": r.matches} for r in ranked]
    assert [n["kind"] for n in data["notices"]] == ["broad", "cap", "short_term"]
    if not any(0xDC80 <= ord(c) <= 0xDCFF for c in term + path):
        assert data["query"] == term, "terms round-trip exactly"
    if not any(0xDC80 <= ord(c) <= 0xDCFF or c == "\\" for c in path):
        assert data["path"] == path, "names round-trip exactly"


snippet_lines = st.lists(
    st.tuples(line_bytes.map(lambda b: b + b"\n"), st.booleans()), min_size=1, max_size=6
)


@settings(max_examples=100, deadline=None)
@given(term=terms, file=names, lines=snippet_lines, start=st.integers(1, 10**6))
def test_snippet_text_is_the_text_answer_s(
    term: str, file: str, lines: list[tuple[bytes, bool]], start: int
) -> None:
    source = tuple(
        SourceLine(number=start + i, text=t, is_match=m) for i, (t, m) in enumerate(lines)
    )
    snippet = Snippet(lines=source)
    query = Query(term=term)
    show = ShowReport(query=query, file=file, context=2, matches=len(source), snippets=(snippet,))
    sample = SampleReport(
        query=query,
        file=file,
        matches=len(source),
        capped=False,
        kept=len(source),
        clusters=1,
        per_page=3,
        page=1,
        pages=1,
        shown=(
            ClusterView(
                number=1,
                cluster=Cluster(first=start, last=start + len(source) - 1, hits=len(source)),
                snippets=(snippet,),
            ),
        ),
        notices=(),
    )
    renderers: list[tuple[object, Callable[[typing.Any, typing.Any], str]]] = [
        (show, render_show),
        (sample, render_sample),
    ]
    for report, render_text in renderers:
        out = render_json(report)
        assert out == _as_pydantic_prints(report)
        _check_no_raw_controls(out)
        data = one_answer(out)
        shown = data["snippets"] if data["command"] == "show" else data["shown"][0]["snippets"]
        text = toon.read(cap_text(render_text(report, COMMAND_LINE)))
        printed = text.snippets if data["command"] == "show" else text.clusters[0].snippets
        assert [[(ln.number, ln.match, ln.text) for ln in s] for s in printed] == [
            [(ln["line"], ln["match"], ln["text"]) for ln in s["lines"]] for s in shown
        ]
        assert all(len(ln["text"].encode()) < 800 for s in shown for ln in s["lines"])


def test_the_shapes_refuse_what_the_contract_does_not_allow() -> None:
    notice, row = TypeAdapter(typed(NOTICE)), TypeAdapter(typed(PATH_MATCHES))
    assert notice.validate_python({"kind": "cap", "message": "x"})
    assert row.validate_python({"path": "a", "matches": 0})
    with pytest.raises(ValidationError):
        notice.validate_python({"kind": "surprise", "message": "x"})
    with pytest.raises(ValidationError):
        row.validate_python({"path": "a", "matches": -1})
    with pytest.raises(ValidationError):
        row.validate_python({"path": "a", "matches": 1, "extra": 2})
    with pytest.raises(ValidationError):
        row.validate_python({"path": "a", "matches": "1"})
    with pytest.raises(ValidationError):
        row.validate_python({"path": "a"})
    # A name's undecodable byte is made printable by the builder; the shapes refuse
    # one that was not (no JSON string can hold it).
    with pytest.raises(ValidationError, match="surrogate"):
        row.validate_python({"path": "caf\udce9", "matches": 1})


def test_every_report_has_its_answer_and_nothing_else_does() -> None:
    with pytest.raises(TypeError, match="no JSON answer for Query"):
        answer(Query(term="x"))
    report = ScoutReport(
        query=Query(term="x"),
        path=".",
        matches=1,
        files=1,
        capped=False,
        top_directories=(),
        top_files=(Ranked(path="caf\udce9", matches=1),),
        notices=(),
    )
    assert json.loads(render_json(report))["top_files"] == [{"path": "caf\\xe9", "matches": 1}]

    # Issue 20, item 8: the byte E9 and the four characters `\xe9` are two names, and
    # two spellings: a name's own backslash is written doubled.
    both = report._replace(
        top_files=(Ranked(path="caf\udce9", matches=1), Ranked(path="caf\\xe9", matches=1))
    )
    assert [r["path"] for r in json.loads(render_json(both))["top_files"]] == [
        "caf\\xe9",
        "caf\\\\xe9",
    ]
