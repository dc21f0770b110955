"""sample and show end to end with the real rg (.venv/bin/rg)."""

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from asrch.domain.query import Query
from asrch.engine.binary import resolve_rg
from asrch.engine.files import read_lines, scan_file
from tests.support.cli import run_asrch

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """One asrch run (tests/support/cli.py)."""
    done = run_asrch(args, cwd=cwd)
    return subprocess.CompletedProcess(args, done.status, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus") / "corpus"
    shutil.copytree(CORPUS, root)
    return root


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.txt"
    with path.open("w") as f:
        for i in range(60_000):
            f.write(f"bigterm {i}\n")
    return path


def test_fifo_refused_fast(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for cmd in (
        ["show", "x", str(fifo)],
        ["show", "x", str(fifo), "--line", "1"],
        ["sample", "x", str(fifo)],
    ):
        started = time.monotonic()
        done = run(cmd, tmp_path)
        assert time.monotonic() - started < 10
        assert done.returncode == 2
        assert b"FIFO" in done.stderr


def test_directory_and_missing_refused(corpus: Path) -> None:
    for cmd in (
        ["sample", "hit", "samples"],
        ["show", "hit", "samples"],
        ["show", "hit", "missing.txt"],
    ):
        done = run(cmd, corpus)
        assert done.returncode == 2
        assert done.stderr.startswith(b"error: ")
        assert b"Traceback" not in done.stderr


def test_sample_context_is_unknown(corpus: Path) -> None:
    done = run(["sample", "hit", "samples/clusters.txt", "--context", "1"], corpus)
    assert done.returncode == 2
    # Issue 40, item 9: the asrch way in 1 line, no usage.
    assert (
        done.stderr
        == b"unknown option: --context; context is show's: show --line N --context N (0-5)\n"
    )


def test_twenty_shown_twentyone_refused(corpus: Path) -> None:
    ok = run(["show", "item", "samples/twenty.txt"], corpus)
    assert ok.returncode == 0
    assert b"20:item 20 of 20" in ok.stdout
    refused = run(["show", "item", "samples/twentyone.txt"], corpus)
    assert refused.returncode == 3
    assert b"narrow" in refused.stdout and b"21 matching lines" in refused.stdout
    assert b"1:item" not in refused.stdout


def test_line_range(corpus: Path) -> None:
    first = run(["show", "hit", "samples/clusters.txt", "--line", "1"], corpus)
    assert first.returncode == 0
    last = run(["show", "hit", "samples/clusters.txt", "--line", "55"], corpus)
    assert last.returncode == 0
    past = run(["show", "hit", "samples/clusters.txt", "--line", "56"], corpus)
    assert past.returncode == 2
    assert b"1-55" in past.stderr


def test_output_lines_capped_and_utf8(corpus: Path) -> None:
    for cmd in (
        ["show", "wide", "samples/wide.txt"],
        ["show", "caf", "samples/latin1.txt"],
        ["show", "ctrl", "samples/control.txt"],
        ["sample", "wide", "samples/wide.txt"],
    ):
        done = run(cmd, corpus)
        assert done.returncode == 0
        text = done.stdout.decode("utf-8")  # never invalid UTF-8
        assert all(len(line.encode()) <= 800 for line in text.split("\n"))
        assert "\x1b" not in text and "\x07" not in text and "\r" not in text


def test_read_lines_counts_without_trailing_newline(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"a\nb\nc")
    assert read_lines(str(path), 2, 3) == ([(2, b"b\n"), (3, b"c")], 3)
    path.write_bytes(b"a\nb\n")
    assert read_lines(str(path), 5, 6) == ([], 2)
    path.write_bytes(b"")
    assert read_lines(str(path), 1, 1) == ([], 0)


def test_big_file_bounded_and_deterministic(big: Path) -> None:
    scan = scan_file(
        resolve_rg(), Query(term="bigterm"), str(big), context=1, keep=5000, cap=50_000
    )
    assert scan.kept == 5000 and len(scan.lines) <= 5001
    assert scan.matches == 50_000 and scan.capped
    first = run(["sample", "bigterm", str(big)], big.parent)
    second = run(["sample", "bigterm", str(big)], big.parent)
    assert first.returncode == 0 and first.stdout == second.stdout
    assert b'matches: "at least 50000"' in first.stdout
    assert b"only the first 5000 matches are clustered" in first.stdout
    refused = run(["show", "bigterm", str(big)], big.parent)
    assert refused.returncode == 3
    assert b"at least 50000" in refused.stdout and b"narrow" in refused.stdout
    window = run(["show", "bigterm", str(big), "--line", "60000"], big.parent)
    assert window.returncode == 0 and b"60000:bigterm 59999" in window.stdout


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_read_lines_matches_naive_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    from asrch.engine import files

    monkeypatch.setattr(files, "_CHUNK", chunk)
    path = tmp_path / "f.txt"
    for data in (b"a\nbb\n\nccc\r\ndd", b"x\n" * 9, b"\n\n\n", b"one"):
        path.write_bytes(data)
        lines = data.split(b"\n")
        raw = [ln + b"\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        last = len(raw)
        for start, end in ((1, 2), (2, 5), (4, 9), (last, last + 2), (last + 1, last + 3)):
            want = [(n, raw[n - 1]) for n in range(start, min(end, last) + 1)]
            assert files.read_lines(str(path), start, end) == (want, last)


def test_line_window_deep_in_a_dense_file(big: Path) -> None:
    """59,000 matches before the window; what that costs is measured in bench/."""
    from asrch.engine.files import read_window

    window = read_window(resolve_rg(), Query(term="bigterm"), str(big), line=59_000, context=5)
    assert window.last_line == 60_000
    assert [ln.number for ln in window.lines] == list(range(58_995, 59_006))
    assert all(ln.is_match for ln in window.lines)
