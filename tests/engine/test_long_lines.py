"""A match past byte 800 of a long line stays in view (D8), from rg's own offsets,
in `sample`, `show` and `show --line`, in every mode."""

import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from asrch.commands.sample import run_sample
from asrch.commands.show import run_show
from asrch.domain.limits import LINE_CAP
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions
from asrch.engine import json_events
from asrch.engine.binary import resolve_rg
from asrch.engine.json_events import parse_events, split_lines
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.sample import render_sample
from asrch.render.show import render_show
from asrch.spelling import COMMAND_LINE

SEARCHER = RipgrepSearcher()
SCOPES = ScopeReader()


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    mode=st.sampled_from(list(Mode)),
    before=st.sampled_from(["x" * 5000, "é" * 3000, "\x1b" * 900, "幅 " * 700]),
    # `é` next to the term: the identifier regex matches its last byte (mid-character).
    neighbour=st.sampled_from([" ", "é", "(", "\t"]),
    after=st.integers(0, 3000),
)
def test_the_first_match_of_a_long_line_is_printed(
    tmp_path: Path, mode: Mode, before: str, neighbour: str, after: int
) -> None:
    assume(not (mode is Mode.WORD and neighbour == "é"))  # é is a word character
    file = tmp_path / "long.txt"
    line = f"{before}{neighbour}beacon{neighbour}{'y' * after}"
    file.write_text(f"top\n{line}\nbottom\n", encoding="utf-8")
    outputs = [
        render_sample(
            run_sample(
                SEARCHER,
                "beacon",
                str(file),
                SearchOptions(mode=mode),
                clusters=1,
                page=1,
                scopes=SCOPES,
            ),
            COMMAND_LINE,
        ),
        render_show(
            run_show(
                SEARCHER,
                "beacon",
                str(file),
                SearchOptions(mode=mode),
                line=None,
                context=1,
                scopes=SCOPES,
            ),
            COMMAND_LINE,
        ),
        render_show(
            run_show(
                SEARCHER,
                "beacon",
                str(file),
                SearchOptions(mode=mode),
                line=2,
                context=1,
                scopes=SCOPES,
            ),
            COMMAND_LINE,
        ),
    ]
    for text in outputs:
        (shown,) = (ln for ln in text.splitlines() if ln.startswith("2:"))
        assert len(shown.encode()) <= LINE_CAP
        assert "beacon" in shown, shown[:60]
        assert shown.startswith("2:[+"), "the cut is made around the match"


@given(
    records=st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=8),
    cuts=st.lists(st.integers(1, 40), min_size=1, max_size=10),
    trailing=st.booleans(),
)
def test_json_records_are_split_the_same_whatever_the_chunks(
    records: list[bytes], cuts: list[int], trailing: bool
) -> None:
    """A record spanning many chunks (a long line) is joined once, never re-split."""
    data = b"\n".join(records) + (b"\n" if trailing else b"")
    chunks, pos = [], 0
    for i in range(len(data)):
        size = cuts[i % len(cuts)]
        if pos < len(data):
            chunks.append(data[pos : pos + size])
            pos += size
    expected = data.split(b"\n")
    if expected and expected[-1] == b"":
        expected.pop()
    assert list(split_lines(chunks)) == expected


@pytest.fixture(scope="module")
def long_line_json(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """rg's own JSON for lines with many submatches: long ones, a context line between,
    a non-UTF-8 one (base64), and a short last one."""
    file = tmp_path_factory.mktemp("long") / "long.txt"
    file.write_bytes(
        b"a beacon " * 300
        + b"\nquiet line\n"
        + b"\xff beacon " * 200
        + b"\n"
        + b'"beacon\\" ' * 150
        + b"\nlast beacon\n"
    )
    done = subprocess.run(
        [resolve_rg(), "--json", "-C1", "--regexp=beacon", "--", str(file)],
        capture_output=True,
        check=True,
    )
    return done.stdout


@given(cuts=st.lists(st.integers(1, 700), min_size=1, max_size=12))
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_long_records_read_as_whole_ones(long_line_json: bytes, cuts: list[int]) -> None:
    """Cut after its first submatch (at any chunking, looked into from 64 bytes on), a
    record yields the event the whole record does: same line, same first match."""
    chunks, pos, i = [], 0, 0
    while pos < len(long_line_json):
        chunks.append(long_line_json[pos : pos + cuts[i % len(cuts)]])
        pos += cuts[i % len(cuts)]
        i += 1
    expected = list(parse_events(split_lines([long_line_json])))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json_events, "LONG_RECORD", 64)
        got = list(parse_events(split_lines(chunks, first_submatch_only=True)))
    # A long record comes without its text (issue 32, item 10), the line's offset in
    # the file instead, where whoever prints it reads what can be printed.
    assert [e._replace(text=w.text, offset=None) for e, w in zip(got, expected, strict=True)] == (
        expected
    )
    assert any(e.offset is not None and e.text == b"" for e in got)
    assert [event.line_number for event in expected] == [1, 2, 3, 4, 5]
