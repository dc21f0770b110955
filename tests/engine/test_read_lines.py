"""`show --line`'s window read (issue 20, item 11): the lines of a window exactly as a
plain split of the whole file gives them, whatever the chunk size, each held once."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asrch.engine import files
from asrch.engine.files import read_lines


def _plain(data: bytes, start: int, end: int) -> tuple[list[tuple[int, bytes]], int]:
    lines = _lf_lines(data)
    window = [(n, ln) for n, ln in enumerate(lines, 1) if start <= n <= end]
    return window, len(lines)


def _lf_lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    return [*lines, parts[-1]] if parts[-1] else lines


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.lists(st.sampled_from([b"a", b"bb", b"\n", b"x" * 40, b"\r"]), max_size=40).map(
        b"".join
    ),
    start=st.integers(1, 12),
    width=st.integers(0, 5),
    chunk=st.integers(1, 17),
)
def test_the_window_is_the_plain_split(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    data: bytes,
    start: int,
    width: int,
    chunk: int,
) -> None:
    monkeypatch.setattr(files, "_CHUNK", chunk)
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    assert read_lines(str(path), start, start + width) == _plain(data, start, start + width)


def test_a_long_line_is_read_in_one_piece_of_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "_CHUNK", 1000)
    path = tmp_path / "long.txt"
    path.write_bytes(b"a\n" + b"x" * 123_457 + b"\nb")
    window, last = read_lines(str(path), 1, 3)
    assert last == 3
    assert [(n, len(text)) for n, text in window] == [(1, 2), (2, 123_458), (3, 1)]


@settings(max_examples=100, deadline=None)
@given(
    texts=st.lists(
        st.sampled_from(["", "x", 'a "line_number":1 b', '"start":9,"end":9', "é" * 30, "\\"]),
        min_size=1,
        max_size=4,
    ).map("".join),
    numbers=st.lists(st.integers(1, 10**9), min_size=1, max_size=4, unique=True),
    cut=st.integers(1, 97),
)
def test_match_fields_in_any_chunks(texts: str, numbers: list[int], cut: int) -> None:
    """rg's match records, cut anywhere (a record of a long line comes in many chunks):
    each one's line number and first span, whatever its text holds."""
    import json

    records = [{"type": "begin", "data": {"path": {"text": "f"}}}]
    want = []
    for k, number in enumerate(sorted(numbers)):
        spans = [{"match": {"text": texts}, "start": k, "end": k + 2}] if k % 2 == 0 else []
        data = {"path": {"text": texts}, "lines": {"text": texts}, "line_number": number}
        records.append(
            {"type": "match", "data": {**data, "absolute_offset": 5, "submatches": spans}}
        )
        want.append((number, (k, k + 2) if spans else None))
    records.append({"type": "end", "data": {"path": {"text": "f"}, "binary_offset": None}})
    stream = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records).encode()
    chunks = [stream[i : i + cut] for i in range(0, len(stream), cut)]
    assert list(files._match_fields(chunks, 1)) == want
