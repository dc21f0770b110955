"""`asrch mcp`: serve the tools over stdio until the client hangs up or a signal comes.

SIGTERM and SIGINT cancel the server like a hang-up does: every call in flight is
cancelled, which stops and reaps its rg children, and the process exits 0.
"""

import signal
from collections.abc import Sequence

import anyio
from mcp.server.mcpserver import MCPServer

from asrch.engine.process import kill_all
from asrch.server.app import build_server
from asrch.server.roots import Roots


def serve(roots: Sequence[str]) -> int:
    """Serve the roots named by `--root` (default: the working directory); 0 when done."""
    server = build_server(Roots.of(roots))
    try:
        anyio.run(_serve, server)
    finally:
        kill_all()  # a backstop: each call has stopped its own children already
    return 0


async def _serve(server: MCPServer) -> None:
    async with anyio.create_task_group() as group:

        async def stop_on_signal() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for _ in signals:
                    group.cancel_scope.cancel()
                    return

        group.start_soon(stop_on_signal)
        await server.run_stdio_async()
        group.cancel_scope.cancel()
