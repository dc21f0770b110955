"""The MCP handshake as the raw JSON-RPC lines a client writes, for tests that speak to
`asrch mcp` over its stdio without the SDK's client."""

from typing import Any

PROTOCOL_VERSION = "2025-11-25"

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
"""The notification a client sends once `initialize` is answered."""


def initialize(request_id: int = 1) -> dict[str, Any]:
    """An `initialize` request from a client with no capabilities."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
