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
