"""`asrch mcp` as a process, spoken to in raw JSON-RPC lines: for what only the wire shows
(a line the SDK's client would never write, a request in flight when another comes)."""

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from asrch.engine.binary import resolve_rg
from tests.server.helpers import recorded, slow_rg, wait_for
from tests.support.jsonrpc import INITIALIZED, initialize

SLOW = "slowterm"
"""A query the rg stand-in holds until released (`Session.release`)."""


class Session:
    """`python -m asrch mcp` in `root`, its rg held on `SLOW` until `release()`."""

    def __init__(self, root: Path, scratch: Path) -> None:
        self._released = scratch / "release"
        rg, self._pids = slow_rg(
            scratch, resolve_rg(), slow_term=SLOW, seconds=60, until=self._released
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "asrch", "mcp"],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "ASRCH_RG": str(rg)},
        )
        self._answers: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._answers.put(line)
        self._answers.put(b"")

    def line(self, text: str | bytes) -> None:
        """One line as the client writes it (LF added)."""
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write((text.encode() if isinstance(text, str) else text) + b"\n")
        stdin.flush()

    def send(self, message: Any) -> None:
        self.line(json.dumps(message))

    def call(self, ident: Any, tool: str, arguments: dict[str, Any]) -> None:
        params = {"name": tool, "arguments": arguments}
        self.send({"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params})

    def ping(self, ident: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": ident, "method": "ping"})

    def cancel(self, request_id: Any) -> None:
        params = {"requestId": request_id}
        self.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})

    def handshake(self) -> None:
        self.send(initialize(0))
        assert self.receive()["id"] == 0
        self.send(INITIALIZED)

    def slow_call(self, ident: Any) -> None:
        """A scout whose rg is held: in flight until `release()`."""
        before = len(recorded(self._pids))
        self.call(ident, "scout", {"query": SLOW})
        wait_for(lambda: len(recorded(self._pids)) > before)

    def release(self) -> None:
        self._released.touch()

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        """The next answer; AssertionError if none comes in `timeout` seconds or the
        server's stdout ends."""
        try:
            line = self._answers.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer in {timeout} s") from None
        assert line, f"the server ended (exit {self.process.wait(timeout=30)}): {self.stderr()}"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def until(self, ident: Any) -> list[dict[str, Any]]:
        """The answers up to and with the one to `ident`."""
        answers = [self.receive()]
        while answers[-1].get("id") != ident:
            answers.append(self.receive())
        return answers

    def end(self) -> list[dict[str, Any]]:
        """Closes stdin: the answers still to come, then the exit status (0 asserted)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        rest = []
        while (line := self._answers.get(timeout=60)) != b"":
            rest.append(json.loads(line))
        status = self.process.wait(timeout=60)
        assert status == 0, (status, self.stderr())
        return rest

    def stderr(self) -> str:
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")

    def close(self) -> None:
        self.release()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
