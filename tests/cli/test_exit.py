"""The process's own exit (`asrch.entry._exit_now`): it skips the interpreter's teardown,
never what the teardown would have done for asrch (docs/performance.md, *Start-up*)."""

import os
import subprocess
import sys
from pathlib import Path

from tests.support.cli import run_asrch

ASRCH = [sys.executable, "-m", "asrch"]


def test_a_long_pattern_s_file_is_removed_at_exit(tmp_path: Path) -> None:
    """A pattern past the argument limit goes to rg in a file, removed by an `atexit`
    function (`engine.argv`): the fast exit runs it."""
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "a.txt").write_text("x\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run(
        [*ASRCH, "scout", "q" * 100_001, "."],
        cwd=tmp_path / "tree",
        capture_output=True,
        check=False,
        timeout=60,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"scout:\n  matches: 0\n")
    assert list(scratch.iterdir()) == []


def test_the_whole_answer_reaches_a_pipe(tmp_path: Path) -> None:
    """Every byte is written before the process ends: the longest answer, `--type-list`
    (its every line), as the in-process command line writes it."""
    via_process = subprocess.run(
        [*ASRCH, "--type-list"], cwd=tmp_path, capture_output=True, check=False, timeout=60
    )
    in_process = run_asrch(["--type-list"], cwd=tmp_path, cold=False)
    assert (via_process.returncode, via_process.stdout) == (0, in_process.stdout)
    assert len(via_process.stdout) > 5000
