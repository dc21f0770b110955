"""Processes: a closed pipe, SIGTERM, and the rg child never left behind."""

import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.processes import alive, all_gone, recorded, sleeping_rg

ASRCH = [sys.executable, "-m", "asrch"]


def _big_tree(root: Path) -> Path:
    for d in range(40):
        folder = root / f"d{d}"
        folder.mkdir(parents=True)
        for f in range(50):
            (folder / f"f{f}.txt").write_text("needle here\n" * 200)
    return root


def test_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    tree = _big_tree(tmp_path)
    done = subprocess.run(
        f"{sys.executable} -m asrch scout needle {tree} | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout == "scout:\n"
    assert done.stderr == ""


def test_sigterm_stops_asrch_and_its_rg_child(tmp_path: Path) -> None:
    """scout's one rg, started on the main thread (survey's, on threads, and the other
    stopping signals: tests/end_to_end/test_signals.py)."""
    env, pids = sleeping_rg(tmp_path)
    child = subprocess.Popen(
        [*ASRCH, "scout", "x", str(tmp_path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    started = recorded(pids)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=10)
    assert child.returncode == 130
    assert err == b""
    assert all_gone(started), "rg runs on after asrch stopped"


_FED_JUDGE = """
import sys
from asrch.domain.query import Query
from asrch.engine.argv import judge_lines_argv
from asrch.engine.binary import resolve_rg
from asrch.engine.process import HERE

argv = judge_lines_argv(resolve_rg(), Query(term="needle"), "-", cap=50_000)
judge = HERE.transport.start(argv, HERE, stdin=True)
judge.feed(b"needle\\n" * 1000)
print(judge._child.pid, flush=True)
sys.stdin.read()
"""


def test_a_judge_fed_by_asrch_ends_when_asrch_is_killed() -> None:
    """survey's judges (fed rg on its stdin) start without the parent-death signal: the end of their
    input, when the process feeding them dies, even by SIGKILL, is what ends them."""
    parent = subprocess.Popen(
        [sys.executable, "-c", _FED_JUDGE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    judge = int(parent.stdout.readline())
    assert alive(judge)
    parent.kill()
    parent.wait(timeout=20)
    deadline = time.monotonic() + 10
    while alive(judge) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(judge), "the judge reads on after asrch was killed"
