"""Lines on stdin that are not JSON-RPC messages get JSON-RPC's answer, not silence.

The SDK's stdio reader hands a line it cannot read to the session as an exception, and
the session only logs it: a client that sent a malformed request waits forever for its
answer (issue 20, item 12). Each line is checked here first; one that is not a message
is answered with JSON-RPC 2.0's error, with the request's id when one can be read:
- not JSON, or JSON holding a lone surrogate escape (`"\\ud800"`, not Unicode):
  -32700 (parse error);
- JSON that is not one JSON-RPC 2.0 message (`[1,2,3]`, a batch, `"jsonrpc": "1.0"`, a
  request without a method): -32600 (invalid request).
Blank lines are skipped. Every other line goes on to the SDK as it came.
"""

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from mcp_types import jsonrpc_message_adapter as _messages
from pydantic import ValidationError

from asrch.domain.text_safety import has_surrogate


def _readable_id(value: Any) -> int | str | None:
    """The request's id, if the value is an object with an id JSON-RPC allows."""
    if not isinstance(value, dict):
        return None
    ident = value.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return None
    return ident


def _lone_surrogate(value: Any) -> bool:
    """Whether any string in `value` (keys included) holds half of a surrogate pair."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if has_surrogate(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _error(ident: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=ident, error=ErrorData(code=code, message=message))


def refusal(line: str) -> JSONRPCError | None:
    """JSON-RPC's answer to `line` if it is not a JSON-RPC 2.0 message; else None."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return _error(None, PARSE_ERROR, f"Parse error: the line is not JSON ({exc})")
    ident = _readable_id(value)
    if _lone_surrogate(value):
        return _error(
            ident,
            PARSE_ERROR,
            "Parse error: a string holds a lone surrogate escape (\\ud800-\\udfff), "
            "which is no Unicode character",
        )
    if not isinstance(value, dict):
        kind = "a batch" if isinstance(value, list) else f"a JSON {type(value).__name__}"
        return _error(
            None, INVALID_REQUEST, f"Invalid Request: a message is one JSON object, not {kind}"
        )
    if "id" in value and ident is None and "method" in value:
        return _error(None, INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer')
    if value.get("jsonrpc") != "2.0":
        return _error(ident, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    try:
        _messages.validate_python(value, by_name=False)
    except ValidationError:
        return _error(
            ident,
            INVALID_REQUEST,
            "Invalid Request: not a JSON-RPC request, notification or response "
            '(a request needs "method" and an "id" that is a string or an integer)',
        )
    return None


class CheckedLines:
    """The lines of `lines` that are JSON-RPC messages. Each other line is answered at
    once through the stream the SDK's writer serializes every answer from (`attach`):
    before the next line is read, so an answer is never lost to the end of input, and
    through the one writer, so lines never interleave."""

    def __init__(self, lines: AsyncIterator[str]) -> None:
        self._lines = lines
        self._write: Any = None
        self._attached = anyio.Event()

    def attach(self, write: Any) -> None:
        """The server's write stream, once the transport has made it."""
        self._write = write
        self._attached.set()

    def __aiter__(self) -> "CheckedLines":
        return self

    async def __anext__(self) -> str:
        from mcp.shared.message import SessionMessage  # noqa: PLC0415 (the SDK's own)

        while True:
            line = await self._lines.__anext__()
            if not line.strip():
                continue
            answer = refusal(line)
            if answer is None:
                return line
            await self._attached.wait()
            await self._write.send(SessionMessage(answer))
