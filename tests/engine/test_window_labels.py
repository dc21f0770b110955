"""`show --line`: a window line is marked a match exactly when rg, searching the file
itself, matches that line (rg on the whole file is the oracle), whatever the bytes:
NUL, CR, bytes that are not UTF-8, byte-order marks."""

import json
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine.argv import BASE_FLAGS, pattern_args
from asrch.engine.binary import resolve_rg
from asrch.engine.files import read_window
from asrch.engine.mock_rg import MockRg, recorded
from asrch.engine.process import Launch

RG = resolve_rg()
_PIECES = st.sampled_from(
    [
        b"needle",
        b"need",
        b"le",
        b"x",
        b" ",
        b"\n",
        b"\n",
        b"\0",
        b"\r",
        b"\r\n",
        b"\xff",
        b"\xe6\x97",
    ]
)
_STARTS = st.sampled_from([b"", b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\0"])
_QUERIES = st.sampled_from(
    [
        Query(term="needle"),
        Query(term="needle", options=SearchOptions(mode=Mode.WORD)),
        Query(term="needle", options=SearchOptions(mode=Mode.IDENTIFIER)),
        Query(term="le$", options=SearchOptions(mode=Mode.REGEX)),
        Query(term="^x", options=SearchOptions(mode=Mode.REGEX)),
    ]
)


def _rg_matches(query: Query, path: str) -> set[int]:
    """Every line rg matches in the file: its JSON, read in full."""
    done = subprocess.run(
        [RG, *BASE_FLAGS, "--json", *pattern_args(query), "--", path],
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    return {r["data"]["line_number"] for r in records if r["type"] == "match"}


@settings(max_examples=60, deadline=None)
@given(
    _STARTS,
    st.lists(_PIECES, max_size=40),
    _QUERIES,
    st.integers(1, 30),
    st.integers(0, 5),
)
def test_a_line_is_marked_exactly_when_rg_matches_it_in_the_file(
    start: bytes, pieces: list[bytes], query: Query, line: int, context: int
) -> None:
    data = start + b"".join(pieces)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "f.txt")
        Path(path).write_bytes(data)
        window = read_window(RG, query, path, line=line, context=context)
        if not window.lines:
            return
        first, last = max(1, line - context), line + context
        assert [ln.number for ln in window.lines] == list(
            range(first, min(last, window.last_line) + 1)
        )
        marked = {ln.number for ln in window.lines if ln.is_match}
        shown = {ln.number for ln in window.lines}
        assert marked == _rg_matches(query, path) & shown


def test_a_nul_before_the_match_shifts_no_label(tmp_path: Path) -> None:
    """The issue's reproduction: rg on stdin once made line 3 the match."""
    path = tmp_path / "f"
    path.write_bytes(b"top\na\0hit\nzzz\nqqq\n")
    window = read_window(RG, Query(term="hit"), str(path), line=3, context=1)
    assert [(ln.number, ln.is_match) for ln in window.lines] == [(2, True), (3, False), (4, False)]


@pytest.mark.parametrize("chunk", [1, 5, 64, 1 << 16])
def test_labels_hold_across_output_blocks(tmp_path: Path, chunk: int) -> None:
    """rg's output read in blocks of any size: a record split anywhere, a long one too
    (rg's own output, replayed in blocks of `chunk` bytes)."""
    launch = Launch(transport=MockRg(recorded, chunk=chunk))
    lines = [b"needle " + b"x" * (i * 37 % 300) if i % 3 else b"other" for i in range(40)]
    path = tmp_path / "f.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    query = Query(term="needle")
    want = _rg_matches(query, str(path))
    for line in range(1, 41):
        window = read_window(RG, query, str(path), line=line, context=2, launch=launch)
        shown = {ln.number for ln in window.lines}
        assert {ln.number for ln in window.lines if ln.is_match} == want & shown
