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
from mcp_types import INVALID_REQUEST, PARSE_ERROR

from asrch.engine.process import STOPPING_SIGNALS, kill_all
from asrch.server.app import build_server
from asrch.server.roots import Roots
from asrch.server.wire import CheckedLines, Rejected

_CHUNK = 1 << 16


REQUEST_LINE_MAX = 1 << 20
"""Bytes in one request line (issue 32, item 3): a longer one is answered with an error
and skipped to its end, never held (a 300 MB line without LF took 992 MB)."""


class StdinLines:
    """The lines of a file descriptor, read as they come and cancellable; a line that
    cannot be a message (longer than `limit`, not UTF-8) comes as its `Rejected`.

    A pipe, socket or terminal is waited on in the event loop; a regular file or
    /dev/null (`asrch mcp < requests.jsonl`) cannot be polled, and a read of one never
    blocks, so it is read directly.
    """

    def __init__(self, fd: int = 0, limit: int = REQUEST_LINE_MAX) -> None:
        self._fd = fd
        self._limit = limit
        self._pending = bytearray()
        self._scanned = 0
        """How much of `_pending` is known to hold no LF."""
        self._skipping = False
        """A line over the limit was answered: what is left of it is dropped."""
        self._ended = False
        mode = os.fstat(fd).st_mode
        self._pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)

    def __aiter__(self) -> "StdinLines":
        return self

    async def __anext__(self) -> "str | Rejected":
        while True:
            end = self._pending.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._pending[: end + 1])
                del self._pending[: end + 1]
                self._scanned = 0
                if self._skipping:
                    self._skipping = False
                    continue
                return self._decoded(line)
            self._scanned = len(self._pending)
            if self._skipping:
                self._pending.clear()
                self._scanned = 0
            elif len(self._pending) > self._limit:
                self._pending.clear()
                self._scanned = 0
                self._skipping = True
                return Rejected(
                    INVALID_REQUEST,
                    f"Invalid Request: a request line is at most {self._limit} bytes; "
                    "this one is longer, and was skipped",
                )
            if self._ended:
                if not self._pending:
                    raise StopAsyncIteration
                line = bytes(self._pending)
                self._pending.clear()
                return self._decoded(line)
            if self._pollable:
                await anyio.wait_readable(self._fd)
            else:
                await anyio.lowlevel.checkpoint()
            data = os.read(self._fd, _CHUNK)
            self._ended = not data
            self._pending += data

    def _decoded(self, line: bytes) -> "str | Rejected":
        if len(line) > self._limit + 1:
            return Rejected(
                INVALID_REQUEST,
                f"Invalid Request: a request line is at most {self._limit} bytes; "
                f"this one has {len(line)}",
            )
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Rejected(
                PARSE_ERROR,
                f"Parse error: the line is not UTF-8 (byte 0x{line[exc.start]:02x} at "
                f"offset {exc.start})",
            )


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
        # A second descriptor of stdout, watched for the client going away once stdin
        # has ended (the SDK points fd 1 elsewhere while it serves).
        lines = CheckedLines(
            StdinLines(),
            watch=_stdout_watch(),
            serves=lambda method: server.get_request_handler(method) is not None,
        )
        stdin = cast("anyio.AsyncFile[str]", lines)
        try:
            async with stdio_server(stdin=stdin) as (read_stream, write_stream):
                lines.attach(write_stream)
                await server.run(
                    read_stream,
                    lines.observed(write_stream),
                    server.create_initialization_options(),
                )
        finally:
            lines.close()
        group.cancel_scope.cancel()


def _stdout_watch(fd: int = 1) -> int | None:
    """A second descriptor of stdout if it is a pipe, whose going away can be told: the
    write end of a pipe whose reader closed polls as readable (an error), and a pipe's
    write end never does otherwise. None for anything else."""
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
        return os.dup(fd)
    except OSError:
        return None
