"""A streamed reader of a large pipe waits a moment after a short read while rg runs
(`process.GATHER`), so that one wake-up reads many of rg's writes; never once rg has
ended, nor without the large pipe. A real child stands in for rg; FIFOs, not sleeps,
order what it does against what the reader does."""

import os
import sys
from pathlib import Path

import pytest

from asrch.engine import process
from asrch.engine.process import PROCESSES, Launch

# Writes 10 bytes; once the first FIFO (argv[1]) has been opened and closed by a writer,
# 10 more; closes its stdout (the reader's end of output) and stays until the second
# FIFO (argv[2]) has been too: it runs while anything is read.
_WRITER = """
import os, sys
os.write(1, b"x" * 10)
open(sys.argv[1], "rb").close()
os.write(1, b"y" * 10)
os.close(1)
open(sys.argv[2], "rb").close()
"""


def _fifos(tmp_path: Path) -> tuple[str, str]:
    paths = (str(tmp_path / "more"), str(tmp_path / "end"))
    for path in paths:
        os.mkfifo(path)
    return paths


@pytest.mark.parametrize(("pipe_size", "waited"), [(1 << 20, 2), (0, 0)])
def test_a_short_read_waits_while_rg_runs_from_a_large_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pipe_size: int, waited: int
) -> None:
    more, end = _fifos(tmp_path)
    waits: list[float] = []
    monkeypatch.setattr("asrch.engine.process.time.sleep", waits.append)
    argv = [sys.executable, "-c", _WRITER, more, end]
    with PROCESSES.start(argv, Launch(), stream=True, pipe_size=pipe_size) as run:
        chunks = run.chunks(1 << 20)
        read = next(chunks)
        open(more, "wb").close()
        read += b"".join(chunks)
        open(end, "wb").close()
    assert read == b"x" * 10 + b"y" * 10
    # After each short read (the writer still runs), with a large pipe only.
    assert waits == [process.GATHER] * waited


def test_no_wait_once_rg_has_ended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr("asrch.engine.process.time.sleep", waits.append)
    argv = [sys.executable, "-c", "import os; os.write(1, b'x' * 10)"]
    with PROCESSES.start(argv, Launch(), stream=True, pipe_size=1 << 20) as run:
        # Ended, not reaped (the transport reaps it): nothing more can come.
        os.waitid(os.P_PID, run._child.pid, os.WEXITED | os.WNOWAIT)
        read = b"".join(run.chunks(1 << 20))
        assert run.end().status == 0
    assert read == b"x" * 10
    assert waits == []
