"""Issue 20, item 15: no rg outlives asrch, whatever signal ends it.

SIGHUP, SIGQUIT and SIGUSR1 are taken as SIGTERM is, by the command line and by the
server; a SIGKILL, which nothing can catch, takes the rg children with it through the
parent-death signal. Real processes: asrch runs as a child of the test, its rg is a
stand-in that records its pid and then is `sleep` (exec, so the recorded pid is the
process that must die).
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.jsonrpc import INITIALIZED, initialize
from tests.support.processes import alive

ASRCH = [sys.executable, "-m", "asrch"]


def _sleeping_rg(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose rg records its pid, then sleeps for a minute."""
    pids = tmp_path / "rg-pids"
    script = tmp_path / "sleeping-rg"
    script.write_text(f"#!/bin/sh\necho $$ >> {pids}\nexec sleep 60\n")
    script.chmod(0o755)
    return {**os.environ, "ASRCH_RG": str(script)}, pids


def _recorded(pids: Path, at_least: int = 1, timeout: float = 20) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [int(p) for p in pids.read_text().split()] if pids.exists() else []
        if len(found) >= at_least:
            return found
        time.sleep(0.02)
    raise AssertionError("the rg stand-in never started")


def _all_gone(pids: list[int], timeout: float = 5) -> bool:
    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _tree(root: Path) -> Path:
    for name in "abcd":
        (root / name).mkdir(parents=True)
        (root / name / "f.txt").write_text("needle\n")
    return root


CAUGHT = [signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGTERM]


@pytest.mark.parametrize("signum", CAUGHT, ids=lambda s: signal.Signals(s).name)
def test_the_command_line_stops_its_rg_on(signum: int, tmp_path: Path) -> None:
    env, pids = _sleeping_rg(tmp_path)
    tree = _tree(tmp_path / "tree")
    # A survey of 2 terms over 4 paths: its searches run side by side on threads.
    args = ["survey", "--term", "needle", "--term", "other", *(str(tree / n) for n in "abcd")]
    child = subprocess.Popen(
        [*ASRCH, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    started = _recorded(pids)
    child.send_signal(signum)
    _, err = child.communicate(timeout=20)
    assert child.returncode == 130
    assert err == b""
    assert _all_gone(_recorded(pids, len(started)))


def test_the_command_line_killed_takes_its_rg_with_it(tmp_path: Path) -> None:
    env, pids = _sleeping_rg(tmp_path)
    child = subprocess.Popen(
        [*ASRCH, "scout", "needle", str(_tree(tmp_path / "tree"))],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started = _recorded(pids)
    child.kill()
    child.wait(timeout=20)
    assert _all_gone(started), "rg runs on after asrch was killed"


def _serve(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """`asrch mcp` over a tree, initialized, with one call whose rg is running."""
    env, pids = _sleeping_rg(tmp_path)
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
    return server, _recorded(pids)


@pytest.mark.parametrize("signum", CAUGHT, ids=lambda s: signal.Signals(s).name)
def test_the_server_stops_its_rg_on(signum: int, tmp_path: Path) -> None:
    server, started = _serve(tmp_path)
    try:
        server.send_signal(signum)
        assert server.wait(timeout=20) == 0
        assert server.stderr is not None
        assert b"Traceback" not in server.stderr.read()
        assert _all_gone(started)
    finally:
        server.kill()
        server.wait()


def test_the_server_killed_takes_its_rg_with_it(tmp_path: Path) -> None:
    server, started = _serve(tmp_path)
    server.kill()
    server.wait(timeout=20)
    assert _all_gone(started), "rg runs on after the server was killed"
