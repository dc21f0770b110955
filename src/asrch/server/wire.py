"""Every request line on stdin gets JSON-RPC's answer, and no line changes another's fate.

The SDK's stdio reader hands a line it cannot read to the session as an exception, and
the session only logs it: a client that sent a malformed request waits forever for its
answer (issue 20, item 12). Each line is checked here first; one that is not a message
is answered with JSON-RPC 2.0's error, with the request's id when one can be read:
- not JSON, JSON holding a lone surrogate escape (`"\\ud800"`, not Unicode), or JSON the
  SDK's reader cannot read (nested 200 levels or more, issue 39, item 5): -32700 (parse
  error). The SDK's own reader judges the line here, so what passes is what it reads;
- JSON that is not one JSON-RPC 2.0 message (`[1,2,3]`, a batch, `"jsonrpc": "1.0"`, a
  request without a method): -32600 (invalid request);
- a request whose id is that of a request still in flight: -32600 naming the id. The
  client correlates answers by id; a second answer with it would be mistaken for the
  first's (issue 39, item 10);
- a request other than `initialize` and `ping` before `initialize` is answered, on a
  connection that opened with the handshake: -32000, "Server not initialized" (the
  TypeScript SDK's code and words; the Python SDK says -32602, invalid params).
Lines of JSON whitespace only are skipped. Every other line goes on to the SDK as it came.

Ids are matched as the SDK matches them (`mcp.shared.dispatcher`): a boolean is no id
(`true` is not request 1, issue 39, item 2), and `"7"` is 7.
"""

import json
import os
import re
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal, NamedTuple

import anyio
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.jsonrpc_dispatcher import cancelled_request_id_from_params
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    PROTOCOL_VERSION_META_KEY,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
)
from mcp_types import jsonrpc_message_adapter as _messages
from pydantic import ValidationError

from asrch.domain.text_safety import has_surrogate, quote_cut

NOT_INITIALIZED = -32000
"""A request before the handshake: JSON-RPC's range for a server's own errors, the code
the TypeScript SDK answers it with ("Server not initialized"). MCP gave -32002 to
"resource not found" (2025-06-18), so that code would say something else."""

BEFORE_INITIALIZE = frozenset({"initialize", "ping"})
"""The requests served before `initialize` is answered (MCP's lifecycle)."""

_JSON_SPACE = " \t\r\n"
"""JSON's whitespace: a line of anything else (U+2028, a form feed) is no blank line."""


def _readable_id(value: Any) -> int | str | None:
    """The request's id, if the value is an object with an id JSON-RPC allows."""
    if not isinstance(value, dict):
        return None
    ident = value.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return None
    return ident


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],]')
"""A string, or a character that opens, closes or separates."""


def _shallow_id(line: str) -> RequestId | None:
    """The top-level id of an object nested too deep for Python's reader, read by a scan
    that keeps no stack; None if there is none, or it is no id."""
    depth, key_next = 0, False
    for token in _TOKEN.finditer(line):
        text = token.group()
        if text in "{[":
            depth += 1
            key_next = text == "{" and depth == 1
        elif text in "}]":
            depth -= 1
        elif text == ",":
            key_next = depth == 1
        elif key_next:
            key_next = False
            if json.loads(text) != "id":  # a key may be spelled with escapes
                continue
            rest = line[token.end() :].lstrip(_JSON_SPACE)
            if not rest.startswith(":"):
                return None
            try:
                ident, _ = json.JSONDecoder().raw_decode(rest[1:].lstrip(_JSON_SPACE))
            except (ValueError, RecursionError):
                return None
            return _readable_id({"id": ident})
    return None


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


def _error(ident: RequestId | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=ident, error=ErrorData(code=code, message=message))


def refusal(line: str) -> JSONRPCError | None:
    """JSON-RPC's answer to `line` if it is not a JSON-RPC 2.0 message; else None."""
    return _read(line)[0]


def _read(line: str) -> tuple[JSONRPCError | None, JSONRPCMessage | None]:
    """`refusal`, and the message as the SDK reads it (None if refused)."""
    try:
        value = json.loads(line)
    except ValueError as exc:
        return _error(None, PARSE_ERROR, f"Parse error: the line is not JSON ({exc})"), None
    except RecursionError:
        return _error(
            _shallow_id(line),
            PARSE_ERROR,
            "Parse error: the server's JSON reader cannot read the line (nested too deep)",
        ), None
    answer = _refused(value)
    if answer is not None:
        return answer, None
    try:
        # The SDK's reader, on the same line: what it would fail on is answered here.
        return None, _messages.validate_json(line, by_name=False)
    except ValidationError as exc:
        return _unread(_readable_id(value), exc), None


def _unread(ident: RequestId | None, exc: ValidationError) -> JSONRPCError:
    """The answer to JSON that Python reads and the SDK's reader does not."""
    for error in exc.errors():
        if error["type"] == "json_invalid":
            why = error.get("ctx", {}).get("error") or error["msg"]
            return _error(
                ident,
                PARSE_ERROR,
                f"Parse error: the server's JSON reader cannot read the line ({why})",
            )
    return _error(
        ident,
        INVALID_REQUEST,
        "Invalid Request: not a JSON-RPC request, notification or response "
        '(a request needs "method" and an "id" that is a string or an integer)',
    )


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
    return None


def _shown(ident: RequestId) -> str:
    """An id as a message names it: as JSON writes it, a long one cut (the answer's
    `id` carries it whole)."""
    if isinstance(ident, int):
        return str(ident)
    shown = quote_cut(ident)  # escaped as every value asrch echoes (text_safety)
    return shown if shown.startswith(('"', "'")) else f'"{shown}"'


def _enveloped(params: dict[str, Any] | None) -> bool:
    """Whether a request carries MCP 2026-07-28's per-request envelope: a client that
    opens with one speaks without the handshake (the SDK serves it so)."""
    meta = (params or {}).get("_meta")
    return isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta


DRAIN_SECONDS = 10.0
"""How long requests read before the end of stdin may still take to be answered."""


class Rejected(NamedTuple):
    """A line the reader would not hand on (too long, not UTF-8): JSON-RPC's answer."""

    code: int
    message: str


class CheckedLines:
    """The lines of `lines` that are JSON-RPC messages the server is to take. Each other
    line is answered at once through the stream the SDK's writer serializes every answer
    from (`attach`): before the next line is read, so an answer is never lost to the end
    of input, and through the one writer, so lines never interleave.

    The requests read and not yet answered are known by their ids: the answers are seen
    on their way out (`observed`). So a second request with the id of one in flight is
    refused, and so is a request before the handshake (`serves`: the methods the server
    has, which are refused until then; any other is the SDK's "method not found"). Like
    the SDK, which answers `initialize` before it reads on, the next line is read once
    `initialize` is answered.

    At the end of input, the end is held back until every request read has been
    answered (`asrch mcp < requests.jsonl` answers them all, issue 32, item 3). A
    client that has gone away cannot be answered: when `watch` (a descriptor of stdout,
    a pipe) says nothing reads it any more, the end comes at once and the calls still
    running are cancelled."""

    def __init__(
        self,
        lines: AsyncIterator["str | Rejected"],
        watch: int | None = None,
        serves: Callable[[str], bool] | None = None,
    ) -> None:
        self._lines = lines
        self._write: Any = None
        self._attached = anyio.Event()
        self._waiting: set[RequestId] = set()
        """The ids (as the SDK matches them) of the requests read and not yet answered."""
        self._settled = anyio.Event()
        self._watch = watch
        self._serves = serves or (lambda method: True)
        self._era: Literal["", "handshake", "enveloped"] = ""
        """How the client opened: with `initialize`, or with enveloped requests."""
        self._initialized = False
        self._initializing: RequestId | None = None
        self._initialize_answered = anyio.Event()

    def attach(self, write: Any) -> None:
        """The server's write stream, once the transport has made it."""
        self._write = write
        self._attached.set()

    def observed(self, write: Any) -> "_Observed":
        """`write`, noting each answer that goes out through it."""
        return _Observed(write, self)

    def answered(self, ident: Any, *, result: bool = False) -> None:
        """The request `ident` is answered (with a result, or not), or cancelled."""
        request = as_request_id(ident)
        if request is None:
            return
        key = coerce_request_id(request)
        self._waiting.discard(key)
        if self._initializing is not None and key == self._initializing:
            self._initializing = None
            self._initialized = self._initialized or result
            self._initialize_answered.set()
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
            if self._initializing is not None:
                with anyio.move_on_after(DRAIN_SECONDS):
                    await self._initialize_answered.wait()
            try:
                line = await self._lines.__anext__()
            except StopAsyncIteration:
                await self._all_answered()
                raise
            if isinstance(line, Rejected):
                answer = _error(None, line.code, line.message)
            elif not line.strip(_JSON_SPACE):
                continue
            else:
                refused = self._refusal(line)
                if refused is None:
                    return line
                answer = refused
            await self._attached.wait()
            await self._write.send(SessionMessage(answer))

    def _refusal(self, line: str) -> JSONRPCError | None:
        """The answer that refuses `line`, or None if the SDK is to have it."""
        refused, message = _read(line)
        return refused if message is None else self._admitted(message)

    def _admitted(self, message: JSONRPCMessage) -> JSONRPCError | None:
        """None if the SDK is to have `message`, else the answer that refuses it."""
        if isinstance(message, JSONRPCNotification):
            if message.method == "notifications/cancelled":
                # The SDK's reading of the id; a request it cancels is never answered.
                self.answered(cancelled_request_id_from_params(message.params))
            return None
        if not isinstance(message, JSONRPCRequest):
            return None
        key = coerce_request_id(message.id)
        if key in self._waiting:
            return _error(
                message.id,
                INVALID_REQUEST,
                f"Invalid Request: id {_shown(message.id)} is that of a request still "
                "in flight; give each request an id of its own",
            )
        # The first request the SDK gets decides how the connection speaks, for it too.
        era = self._era or (
            "enveloped"
            if message.method != "initialize" and _enveloped(message.params)
            else "handshake"
        )
        if (
            era == "handshake"
            and not self._initialized
            and message.method not in BEFORE_INITIALIZE
            and self._serves(message.method)
        ):
            return _error(
                message.id,
                NOT_INITIALIZED,
                f"Server not initialized: send initialize first ({message.method} "
                "comes after its answer)",
            )
        self._era = era
        if message.method == "initialize":
            self._initializing = key
            self._initialize_answered = anyio.Event()
        self._waiting.add(key)
        self._settled = anyio.Event()
        return None

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
            self._lines.answered(message.id, result=isinstance(message, JSONRPCResponse))

    async def aclose(self) -> None:
        await self._write.aclose()

    async def __aenter__(self) -> "_Observed":
        await self._write.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> bool | None:
        result: bool | None = await self._write.__aexit__(*exc)
        return result
