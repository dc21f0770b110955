"""Issue 39: what a client writes on the wire never kills the server, never goes
unanswered, and never changes another request's fate. Over a real `asrch mcp` process
and its stdio, with a call held in flight by an rg stand-in (`stdio_session`)."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import run_cli, tool_text
from tests.server.stdio_session import SLOW, Session
from tests.support.jsonrpc import initialize


@pytest.fixture
def session(corpus: Path, tmp_path: Path) -> Iterator[Session]:
    (corpus / "held.txt").write_text(f"{SLOW}\n")
    served = Session(corpus, tmp_path)
    yield served
    served.close()


def _held_result(answer: dict[str, Any]) -> None:
    """The held scout's own answer: its result, the one match."""
    assert "result" in answer, answer
    text = answer["result"]["content"][0]["text"]
    assert "matches: 1\n" in text and "held.txt" in text, text


# Item 2: a `notifications/cancelled` whose requestId is no id. Before, a list or an
# object killed the server (exit 70: the wait list took it as a key), and `true` (== 1 in
# Python) took request 1 off the wait list, so the end of stdin cancelled it.
NO_IDS: list[Any] = [[1], {"a": 1}, True, False, 1.0, None, [], {}, [[1]], "", 1.5e300]


def test_a_cancel_naming_no_request_neither_kills_the_server_nor_touches_a_call(
    session: Session,
) -> None:
    session.handshake()
    session.slow_call(1)
    for n, request_id in enumerate(NO_IDS, start=2):
        session.cancel(request_id)
        session.ping(n)
        assert session.receive() == {"jsonrpc": "2.0", "id": n, "result": {}}, request_id
    # Malformed params, and none at all.
    for malformed in ([1], "x", 7):
        session.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": malformed})
    session.line('{"jsonrpc":"2.0","method":"notifications/cancelled"}')
    # The end of stdin waits for request 1, still in flight: released after the end.
    assert session.process.stdin is not None
    session.process.stdin.close()
    session.release()
    rest = []
    while (answer := session.receive(timeout=60)).get("id") != 1:
        rest.append(answer)
    _held_result(answer)
    assert all(a.get("id") is None for a in rest), rest  # refusals of the malformed lines
    assert session.process.wait(timeout=60) == 0


def test_a_cancel_naming_true_is_not_request_1(session: Session) -> None:
    """`true == 1` in Python: the wait list took `true` for request 1, and the end of
    stdin then cancelled request 1 as answered ("Connection closed")."""
    session.handshake()
    session.slow_call(1)
    session.cancel(True)
    assert session.process.stdin is not None
    session.process.stdin.close()
    session.release()
    _held_result(session.receive(timeout=60))
    assert session.process.wait(timeout=60) == 0


def test_a_cancel_of_the_call_in_flight_still_cancels_it(session: Session) -> None:
    """The rule is the SDK's: `"1"` names request 1 (as the SDKs match ids), and a
    cancelled request is not answered, nor waited for at the end of stdin."""
    session.handshake()
    session.slow_call(1)
    session.cancel("1")
    session.ping(2)
    assert session.until(2) == [{"jsonrpc": "2.0", "id": 2, "result": {}}]
    assert session.end() == []


# Item 10: two requests in flight with one id. Before, the second ran beside the first,
# the first's answer took the id off the wait list, and the second got "Connection
# closed" at the end of stdin (or, live, a second answer the client cannot place).


def test_a_request_with_the_id_of_one_in_flight_is_refused_naming_it(session: Session) -> None:
    session.handshake()
    session.slow_call(1)
    session.call(1, "scout", {"query": "connect"})
    refused = session.receive()
    assert refused["id"] == 1 and refused["error"]["code"] == -32600, refused
    assert "id 1 is that of a request still in flight" in refused["error"]["message"]
    # "1" is request 1 as the SDK matches ids; a string id of its own is not.
    session.call("1", "scout", {"query": "connect"})
    assert session.receive()["error"]["code"] == -32600
    session.call("one", "scout", {"query": "connect"})
    assert "result" in session.receive()
    # A long id is carried whole and named cut.
    long_id = "x" * 100_000
    session.slow_call(long_id)
    session.call(long_id, "scout", {"query": "connect"})
    refused = session.receive()
    assert refused["id"] == long_id and len(refused["error"]["message"]) < 400, refused["error"]
    session.release()
    _held_result(session.receive())
    _held_result(session.receive())
    # Answered, the id is free again.
    session.call(1, "scout", {"query": "connect"})
    again = session.receive()
    assert again["id"] == 1 and "result" in again, again
    assert session.end() == []


def test_a_duplicate_id_at_the_end_of_stdin_is_refused_not_closed(session: Session) -> None:
    session.handshake()
    session.slow_call(7)
    session.call(7, "scout", {"query": "connect"})
    assert session.process.stdin is not None
    session.process.stdin.close()
    session.release()
    first, second = session.receive(timeout=60), session.receive(timeout=60)
    assert first["error"]["code"] == -32600, first
    _held_result(second)
    assert session.end() == []


# Item 10: a request before `initialize`. Before, the SDK's -32602 "Invalid request
# parameters", which names no parameter and sends the client looking for one.


def test_a_request_before_initialize_is_told_the_server_is_not_initialized(
    session: Session,
) -> None:
    session.call(1, "scout", {"query": "connect"})
    session.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    session.ping(3)
    session.send({"jsonrpc": "2.0", "id": 4, "method": "no/such"})
    answers = [session.receive() for _ in range(4)]
    for answer, method in zip(answers[:2], ("tools/call", "tools/list"), strict=True):
        assert answer["error"] == {
            "code": -32000,
            "message": f"Server not initialized: send initialize first ({method} comes "
            "after its answer)",
        }
    assert answers[2] == {"jsonrpc": "2.0", "id": 3, "result": {}}
    assert answers[3]["error"]["code"] == -32601  # the SDK's answer, initialized or not
    # A client that sends its first call right behind initialize (no wait) is served.
    session.send(initialize(5))
    session.call(6, "scout", {"query": "connect"})
    assert session.receive()["id"] == 5
    served = session.receive()
    assert served["id"] == 6
    assert served["result"]["content"][0]["text"].startswith("scout:\n")
    assert session.end() == []


def test_a_refused_initialize_leaves_the_server_not_initialized(session: Session) -> None:
    session.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
    assert session.receive()["error"]["code"] == -32602  # the SDK's: no protocolVersion
    session.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert session.receive()["error"]["code"] == -32000
    assert session.end() == []


def test_a_client_that_opens_with_an_enveloped_request_needs_no_handshake(
    session: Session,
) -> None:
    """MCP 2026-07-28 drops the handshake: each request carries its protocol version in
    `_meta` (the SDK serves such a connection so), and is not refused as too early."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    # A request the server refuses as too early never reached the SDK: it decides nothing.
    session.send({"jsonrpc": "2.0", "id": 0, "method": "tools/list"})
    assert session.receive()["error"]["code"] == -32000
    session.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}})
    listed = session.receive()
    assert [tool["name"] for tool in listed["result"]["tools"]] == [
        "survey",
        "scout",
        "sample",
        "show",
    ]
    assert session.end() == []


# Item 5: JSON that Python reads and the SDK's reader does not (an array nested 200
# levels deep in params). Before, no answer at all: the SDK only logged it.


def test_a_request_nested_past_the_sdks_reader_is_answered(corpus: Path, session: Session) -> None:
    session.handshake()
    for n, depth in enumerate((198, 199, 200, 500, 985, 5000, 100_000), start=1):
        nested = "[" * depth + "]" * depth
        session.line(f'{{"jsonrpc":"2.0","id":{n},"method":"ping","params":{{"x":{nested}}}}}')
        answer = session.receive()
        if depth < 200:
            assert answer == {"jsonrpc": "2.0", "id": n, "result": {}}, depth
            continue
        assert answer["error"]["code"] == -32700, (depth, answer)
        assert answer["id"] == n, (depth, answer)  # read past Python's ~1,000 levels too
    # The server goes on: the next call is answered as the command line answers.
    session.call(99, "scout", {"query": "connect"})
    done = session.receive()
    assert done["id"] == 99
    expected = tool_text(run_cli(corpus, "scout", "connect").out)
    assert done["result"]["content"][0]["text"] == expected
    assert session.end() == []


def test_lines_the_two_readers_could_read_apart_are_read_once(session: Session) -> None:
    """Where Python's `json` and the SDK's reader differ (a repeated key, NaN, a number
    past a float, whitespace JSON does not know), what the server answers is what the
    SDK read: one answer, to the id the SDK saw."""
    session.handshake()
    session.line('{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}')
    assert session.receive() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    session.line('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":NaN,"y":1e400}}')
    assert session.receive() == {"jsonrpc": "2.0", "id": 3, "result": {}}
    session.line("\u2028")  # no JSON whitespace: not a blank line
    assert session.receive()["error"]["code"] == -32700
    session.line("\ufeff" + json.dumps({"jsonrpc": "2.0", "id": 4, "method": "ping"}))
    assert session.receive()["error"]["code"] == -32700
    session.line(" \t\r")  # JSON whitespace only: a blank line, skipped
    session.ping(5)
    assert session.receive() == {"jsonrpc": "2.0", "id": 5, "result": {}}
    assert session.end() == []
