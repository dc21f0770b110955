"""Calls overlap, and a call that ends early leaves no rg behind: real processes.

The rg here is the real one behind a shell script that, for one slow term, records its
pid and sleeps before it becomes rg (exec); its `sleep` child stands for anything rg
itself might start. Each call's rg leads its own process group, so "nothing left
behind" is checked as "no process (zombies included) in that group", via /proc.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult

from asrch.engine.binary import resolve_rg
from asrch.server.app import build_server
from tests.server.helpers import (
    group_members,
    left_behind,
    recorded,
    run_cli,
    slow_rg,
    text_of,
    tool_text,
    wait_for,
)
from tests.support.jsonrpc import INITIALIZED, initialize

SLOW = "slowterm"


def _gone(pids: list[int], owner: int | None = None) -> bool:
    """No rg group of `pids` left behind by `owner` (default: this process, where the
    in-memory server runs)."""
    return all(not left_behind(pid, owner or os.getpid()) for pid in pids)


def test_overlapping_calls_run_their_rg_side_by_side(corpus: Path, tmp_path: Path) -> None:
    release = tmp_path / "release"
    rg, pids = slow_rg(tmp_path, resolve_rg(), slow_term=SLOW, until=release)
    server = build_server([str(corpus)], rg=str(rg))
    results: list[CallToolResult] = []
    both_running: list[bool] = []

    async def run() -> None:
        async with Client(server) as client:

            async def one(path: str) -> None:
                results.append(await client.call_tool("scout", {"query": SLOW, "path": path}))

            async with anyio.create_task_group() as group:
                group.start_soon(one, "src")
                group.start_soon(one, "docs")
                with anyio.fail_after(20):
                    while len(recorded(pids)) < 2:
                        await anyio.sleep(0.02)
                both_running.append(not results and all(group_members(p) for p in recorded(pids)))
                release.touch()

    anyio.run(run)
    assert both_running == [True], "the second rg started only after the first ended"
    assert [r.is_error for r in results] == [False, False]
    assert _gone(recorded(pids))


def test_a_cancelled_call_leaves_no_rg_behind_and_the_server_goes_on(
    corpus: Path, tmp_path: Path
) -> None:
    rg, pids = slow_rg(tmp_path, resolve_rg(), slow_term=SLOW, seconds=60)
    server = build_server([str(corpus)], rg=str(rg))
    after: list[CallToolResult] = []

    async def run() -> None:
        async with Client(server) as client:
            with anyio.move_on_after(30) as scope:

                async def cancel_once_rg_runs() -> None:
                    while not recorded(pids):
                        await anyio.sleep(0.02)
                    scope.cancel()

                async with anyio.create_task_group() as group:
                    group.start_soon(cancel_once_rg_runs)
                    await client.call_tool(
                        "survey", {"terms": [SLOW, "connect"], "paths": ["src", "docs"]}
                    )
            assert scope.cancelled_caught
            after.append(await client.call_tool("scout", {"query": "connect"}))

    started = time.monotonic()
    anyio.run(run)
    assert time.monotonic() - started < 30, "the call was not cancelled"
    wait_for(lambda: _gone(recorded(pids)), timeout=5)
    assert recorded(pids)
    assert text_of(after[0]) == tool_text(run_cli(corpus, "scout", "connect").out)


# --- the server as a process, spoken to in JSON-RPC lines over its stdin and stdout ---


# `python -m asrch` with the end-of-stdin bound (`wire.DRAIN_SECONDS`) set first.
_DRAINING = (
    "import sys; from asrch.server import wire; wire.DRAIN_SECONDS = float(sys.argv.pop(1)); "
    "from asrch.entry import main; raise SystemExit(main())"
)


class Served:
    """`python -m asrch mcp --structured` with the slow rg, initialized, one slow call in
    flight; `drain`: the server's bound on answering after the end of stdin, in seconds,
    instead of its own (10 s)."""

    def __init__(self, corpus: Path, tmp_path: Path, drain: float | None = None) -> None:
        rg, self.pids = slow_rg(tmp_path, resolve_rg(), slow_term=SLOW, seconds=60)
        python = ["-m", "asrch"] if drain is None else ["-c", _DRAINING, str(drain)]
        self.process = subprocess.Popen(
            [sys.executable, *python, "mcp", "--structured"],
            cwd=corpus,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "ASRCH_RG": str(rg)},
        )
        self.send(initialize(1))
        assert self.receive()["id"] == 1
        self.send(INITIALIZED)
        self.call(2, "scout", {"query": SLOW})
        wait_for(lambda: bool(recorded(self.pids)))

    def send(self, message: dict[str, Any]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps(message).encode() + b"\n")
        stdin.flush()

    def call(self, request_id: int, tool: str, arguments: dict[str, Any]) -> None:
        params = {"name": tool, "arguments": arguments}
        self.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})

    def receive(self) -> dict[str, Any]:
        stdout: IO[bytes] | None = self.process.stdout
        assert stdout is not None
        message: dict[str, Any] = json.loads(stdout.readline())
        return message

    def stderr(self) -> str:
        assert self.process.stderr is not None
        return self.process.stderr.read().decode()


@pytest.fixture
def served(corpus: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """A `Served`; a test marked `@pytest.mark.parametrize("served", [S], indirect=True)`
    gets one whose bound after the end of stdin is S seconds."""
    server = Served(corpus, tmp_path, drain=getattr(request, "param", None))
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def test_a_cancel_notification_stops_the_call_and_its_rg(served: Served) -> None:
    served.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
    wait_for(lambda: _gone(recorded(served.pids), served.process.pid), timeout=10)
    served.call(3, "scout", {"query": "connect"})
    answer = served.receive()
    assert answer["id"] == 3, "a cancelled request gets no answer; the next one does"
    assert answer["result"]["structuredContent"]["matches"] == 22
    assert served.process.poll() is None


@pytest.mark.parametrize("served", [0.5], indirect=True, ids=["drain-0.5s"])
def test_a_client_that_hangs_up_leaves_no_rg_behind(served: Served) -> None:
    """The call's rg runs on past the bound on answering after the end of stdin, so the
    server cancels it and exits. The bound is lowered to 0.5 s for this server: with
    its own 10 s, the test waited 10 s for nothing (`..._goes_away_...` below keeps the
    server's own bound)."""
    assert served.process.stdin is not None
    served.process.stdin.close()
    assert served.process.wait(timeout=20) == 0
    wait_for(lambda: _gone(recorded(served.pids), served.process.pid), timeout=5)
    assert "Traceback" not in served.stderr()


def test_a_client_that_goes_away_ends_the_server_at_once(served: Served) -> None:
    """Issue 32, item 3: at the end of stdin the server answers what it has read
    (within `DRAIN_SECONDS`), but a client that no longer reads stdout cannot be
    answered: the running call is cancelled and the server exits well before the bound."""
    from asrch.server.wire import DRAIN_SECONDS

    assert served.process.stdin is not None and served.process.stdout is not None
    served.process.stdout.close()
    served.process.stdin.close()
    assert served.process.wait(timeout=DRAIN_SECONDS / 2) == 0
    wait_for(lambda: _gone(recorded(served.pids), served.process.pid), timeout=5)
    assert "Traceback" not in served.stderr()


def test_sigterm_ends_the_server_cleanly_and_its_rg_with_it(served: Served) -> None:
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=20) == 0
    wait_for(lambda: _gone(recorded(served.pids), served.process.pid), timeout=5)
    assert "Traceback" not in served.stderr()


def test_a_failing_call_stops_its_own_rg_only(corpus: Path, tmp_path: Path) -> None:
    """A survey whose sibling search fails stops its other searches: its own, not the
    rg of a call running beside it."""
    pids = tmp_path / "rg-pids"
    release = tmp_path / "release"
    script = tmp_path / "failing-or-slow-rg"
    script.write_text(
        "#!/bin/sh\n"
        'case "$*" in\n'
        f"  *{SLOW}*) echo $$ >> {pids}; n=0\n"
        f"    while [ ! -e {release} ] && [ $n -lt 6000 ]; do sleep 0.01; n=$((n+1)); done ;;\n"
        "  *failterm*) echo 'rg: broken' >&2; exit 3 ;;\n"
        "esac\n"
        f'exec {resolve_rg()} "$@"\n'
    )
    script.chmod(0o755)
    server = build_server([str(corpus)], rg=str(script), structured=True)
    results: dict[str, CallToolResult] = {}

    async def run() -> None:
        async with Client(server) as client:

            async def slow() -> None:
                results["slow"] = await client.call_tool("scout", {"query": SLOW})

            async with anyio.create_task_group() as group:
                group.start_soon(slow)
                with anyio.fail_after(20):
                    while not recorded(pids):
                        await anyio.sleep(0.02)
                # A file as the path: one rg per term, side by side, one of them failing.
                results["failing"] = await client.call_tool(
                    "survey", {"terms": ["failterm", "connect"], "paths": ["README.md"]}
                )
                assert "slow" not in results, "the slow call ended early"
                release.touch()

    anyio.run(run)
    assert results["failing"].is_error is True
    assert text_of(results["failing"]).startswith("error: rg failed with exit status 3")
    assert results["slow"].is_error is False, text_of(results["slow"])
    assert results["slow"].structured_content is not None
    assert results["slow"].structured_content["matches"] == 0
