"""`asrch mcp`: serve the tools over stdio until the client hangs up or a signal comes.

SIGTERM, SIGINT, SIGHUP, SIGQUIT and SIGUSR1 cancel the server as a hang-up does:
every call in flight is cancelled, which stops and reaps its rg children, and the
process exits 0. A SIGKILL cannot be caught: each rg child dies with the server
(`engine.process`, the parent-death signal).

Requests are read from stdin by `StdinLines`, which waits for input in the event loop:
the SDK's own reader blocks a worker thread in `readline`, which no cancellation can
interrupt, so a server told to stop would wait for its client's next line.
"""

import os
import signal
import stat
from typing import Any, cast

import anyio
import anyio.lowlevel
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from asrch.engine.process import STOPPING_SIGNALS, kill_all
from asrch.server.app import build_server
from asrch.server.roots import Roots
from asrch.server.wire import CheckedLines

_CHUNK = 1 << 16


class StdinLines:
    """The lines of a file descriptor, read as they come and cancellable.

    A pipe, socket or terminal is waited on in the event loop; a regular file or
    /dev/null (`asrch mcp < requests.jsonl`) cannot be polled, and a read of one never
    blocks, so it is read directly.
    """

    def __init__(self, fd: int = 0) -> None:
        self._fd = fd
        self._pending = bytearray()
        self._ended = False
        mode = os.fstat(fd).st_mode
        self._pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)

    def __aiter__(self) -> "StdinLines":
        return self

    async def __anext__(self) -> str:
        while True:
            end = self._pending.find(b"\n")
            if end >= 0:
                line = bytes(self._pending[: end + 1])
                del self._pending[: end + 1]
                return line.decode("utf-8", "replace")
            if self._ended:
                if not self._pending:
                    raise StopAsyncIteration
                line = bytes(self._pending)
                self._pending.clear()
                return line.decode("utf-8", "replace")
            if self._pollable:
                await anyio.wait_readable(self._fd)
            else:
                await anyio.lowlevel.checkpoint()
            data = os.read(self._fd, _CHUNK)
            self._ended = not data
            self._pending += data


def serve(roots: Roots, *, structured: bool = False) -> int:
    """Serve `roots` until the client hangs up or a signal comes; 0 when done.
    `structured`: results carry structured content, tools their output schemas (D47)."""
    server = build_server(roots, structured=structured)
    try:
        anyio.run(_serve, server)
    finally:
        kill_all()  # a backstop: each call has stopped its own children already
    return 0


async def _serve(server: Server[Any]) -> None:
    async with anyio.create_task_group() as group:

        async def stop_on_signal() -> None:
            stopping = (signal.SIGINT, *STOPPING_SIGNALS)
            with anyio.open_signal_receiver(*stopping) as signals:
                async for _ in signals:
                    group.cancel_scope.cancel()
                    return

        group.start_soon(stop_on_signal)
        # Read by `async for` only; a line that is no JSON-RPC message is answered
        # here (`asrch.server.wire`), not dropped by the SDK's reader.
        lines = CheckedLines(StdinLines())
        stdin = cast("anyio.AsyncFile[str]", lines)
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):
            lines.attach(write_stream)
            await server.run(read_stream, write_stream, server.create_initialization_options())
        group.cancel_scope.cancel()
