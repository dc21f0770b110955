"""Issue 20, item 15: no rg outlives asrch, whatever signal ends it.

SIGHUP, SIGQUIT and SIGUSR1 are taken as SIGTERM is, by the command line and by the
server; a SIGKILL, which nothing can catch, takes the rg children with it through the
parent-death signal. Real processes: asrch runs as a child of the test, its rg is a
stand-in that records its pid and then is `sleep` (exec, so the recorded pid is the
process that must die).
"""

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.jsonrpc import INITIALIZED, initialize
from tests.support.processes import all_gone, recorded, sleeping_rg

ASRCH = [sys.executable, "-m", "asrch"]


def _tree(root: Path) -> Path:
    for name in "abcd":
        (root / name).mkdir(parents=True)
        (root / name / "f.txt").write_text("needle\n")
    return root


CAUGHT = [signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGTERM]


@pytest.mark.parametrize("signum", CAUGHT, ids=lambda s: signal.Signals(s).name)
def test_the_command_line_stops_its_rg_on(signum: int, tmp_path: Path) -> None:
    env, pids = sleeping_rg(tmp_path)
    tree = _tree(tmp_path / "tree")
    # A survey of 2 terms over 4 paths: its searches run side by side on threads.
    args = ["survey", "--term", "needle", "--term", "other", *(str(tree / n) for n in "abcd")]
    child = subprocess.Popen(
        [*ASRCH, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    started = recorded(pids)
    child.send_signal(signum)
    _, err = child.communicate(timeout=20)
    assert child.returncode == 130
    assert err == b""
    assert all_gone(recorded(pids, len(started)))


def test_the_command_line_killed_takes_its_rg_with_it(tmp_path: Path) -> None:
    env, pids = sleeping_rg(tmp_path)
    child = subprocess.Popen(
        [*ASRCH, "scout", "needle", str(_tree(tmp_path / "tree"))],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started = recorded(pids)
    child.kill()
    child.wait(timeout=20)
    assert all_gone(started), "rg runs on after asrch was killed"


def _serve(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """`asrch mcp` over a tree, initialized, with one call whose rg is running."""
    env, pids = sleeping_rg(tmp_path)
    tree = _tree(tmp_path / "tree")
    server = subprocess.Popen(
        [*ASRCH, "mcp"],
        cwd=tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdin is not None
    assert server.stdout is not None
    request = initialize(1)
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "scout", "arguments": {"query": "needle"}},
    }
    server.stdin.write(json.dumps(request).encode() + b"\n")
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 1
    for message in (INITIALIZED, call):
        server.stdin.write(json.dumps(message).encode() + b"\n")
    server.stdin.flush()
    return server, recorded(pids)


@pytest.mark.parametrize("signum", CAUGHT, ids=lambda s: signal.Signals(s).name)
def test_the_server_stops_its_rg_on(signum: int, tmp_path: Path) -> None:
    server, started = _serve(tmp_path)
    try:
        server.send_signal(signum)
        assert server.wait(timeout=20) == 0
        assert server.stderr is not None
        assert b"Traceback" not in server.stderr.read()
        assert all_gone(started)
    finally:
        server.kill()
        server.wait()


def test_the_server_killed_takes_its_rg_with_it(tmp_path: Path) -> None:
    server, started = _serve(tmp_path)
    server.kill()
    server.wait(timeout=20)
    assert all_gone(started), "rg runs on after the server was killed"
