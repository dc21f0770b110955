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
import os
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

import anyio
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, JSONRPCResponse
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
    return _read(line)[0]


def _read(line: str) -> tuple[JSONRPCError | None, Any]:
    """`refusal`, and the message as read (None if refused)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return _error(None, PARSE_ERROR, f"Parse error: the line is not JSON ({exc})"), None
    answer = _refused(value)
    return answer, (None if answer is not None else value)


def _refused(value: Any) -> JSONRPCError | None:
    ident = _readable_id(value)
    if _lone_surrogate(value):
        return _error(
            ident,
            PARSE_ERROR,
            "Parse error: a string holds a lone surrogate escape (\\ud800-\\udfff), "
            "which is no Unicode character",
        )
    if not isinstance(value, dict):
        what = "a batch" if isinstance(value, list) else f"a JSON {type(value).__name__}"
        return _error(
            None, INVALID_REQUEST, f"Invalid Request: a message is one JSON object, not {what}"
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


DRAIN_SECONDS = 10.0
"""How long requests read before the end of stdin may still take to be answered."""


class Rejected(NamedTuple):
    """A line the reader would not hand on (too long, not UTF-8): JSON-RPC's answer."""

    code: int
    message: str


class CheckedLines:
    """The lines of `lines` that are JSON-RPC messages. Each other line is answered at
    once through the stream the SDK's writer serializes every answer from (`attach`):
    before the next line is read, so an answer is never lost to the end of input, and
    through the one writer, so lines never interleave.

    At the end of input, the end is held back until every request read has been
    answered (`asrch mcp < requests.jsonl` answers them all, issue 32, item 3): the
    answers are seen on their way out (`observed`). A client that has gone away cannot
    be answered: when `watch` (a descriptor of stdout, a pipe) says nothing reads it
    any more, the end comes at once and the calls still running are cancelled."""

    def __init__(self, lines: AsyncIterator["str | Rejected"], watch: int | None = None) -> None:
        self._lines = lines
        self._write: Any = None
        self._attached = anyio.Event()
        self._waiting: set[int | str] = set()
        """The ids of the requests read and not yet answered."""
        self._settled = anyio.Event()
        self._watch = watch

    def attach(self, write: Any) -> None:
        """The server's write stream, once the transport has made it."""
        self._write = write
        self._attached.set()

    def observed(self, write: Any) -> "_Observed":
        """`write`, noting each answer that goes out through it."""
        return _Observed(write, self)

    def answered(self, ident: Any) -> None:
        self._waiting.discard(ident)
        if not self._waiting:
            self._settled.set()

    def close(self) -> None:
        if self._watch is not None:
            os.close(self._watch)
            self._watch = None

    def __aiter__(self) -> "CheckedLines":
        return self

    async def __anext__(self) -> str:
        from mcp.shared.message import SessionMessage  # noqa: PLC0415 (the SDK's own)

        while True:
            try:
                line = await self._lines.__anext__()
            except StopAsyncIteration:
                await self._all_answered()
                raise
            if isinstance(line, Rejected):
                answer = _error(None, line.code, line.message)
            elif not line.strip():
                continue
            else:
                refused, value = _read(line)
                if refused is None:
                    self._note(value)
                    return line
                answer = refused
            await self._attached.wait()
            await self._write.send(SessionMessage(answer))

    def _note(self, value: dict[str, Any]) -> None:
        """A request to wait for at the end of input; a cancelled one is not answered."""
        method = value.get("method")
        if method is None:
            return
        if "id" in value:
            self._waiting.add(value["id"])
            self._settled = anyio.Event()
        elif method == "notifications/cancelled":
            params = value.get("params")
            if isinstance(params, dict):
                self.answered(params.get("requestId"))

    async def _all_answered(self) -> None:
        if not self._waiting:
            return
        # Bounded: a client that closed stdin and still reads stdout may wait for its
        # answers, but a call that runs on past the bound is cancelled (the server
        # exits when stdin closes, even while a call runs; a signal ends it at once).
        with anyio.move_on_after(DRAIN_SECONDS):
            await self._settled_or_gone()

    async def _settled_or_gone(self) -> None:
        async with anyio.create_task_group() as group:
            if self._watch is not None:

                async def client_gone() -> None:
                    assert self._watch is not None
                    await anyio.wait_readable(self._watch)
                    group.cancel_scope.cancel()

                group.start_soon(client_gone)
            await self._settled.wait()
            group.cancel_scope.cancel()


class _Observed:
    """The server's write stream, telling `CheckedLines` of each answer sent."""

    def __init__(self, write: Any, lines: CheckedLines) -> None:
        self._write = write
        self._lines = lines

    async def send(self, item: Any) -> None:
        await self._write.send(item)
        message = getattr(item, "message", None)
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            self._lines.answered(message.id)

    async def aclose(self) -> None:
        await self._write.aclose()

    async def __aenter__(self) -> "_Observed":
        await self._write.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> bool | None:
        result: bool | None = await self._write.__aexit__(*exc)
        return result
