"""Issue 39, one class beyond the reproductions: what a client may send that asks for no
answer (notifications, and responses to requests the server never made) with random JSON
in every field, around a call held in flight. Seeded, one server process, bounded.

Holds: every ping between them is answered once with its result, the held call is
answered with its own result after the end of stdin, and the server exits 0."""

import json
import random
from pathlib import Path
from typing import Any

from mcp.shared.dispatcher import as_request_id, coerce_request_id

from tests.server.stdio_session import SLOW, Session

SEED = 39
LINES = 400
HELD = 1
"""The id of the call held in flight: no fuzzed line may name it (a cancel of it would
cancel it, which is a cancel's job, not a fault)."""

METHODS = [
    "notifications/cancelled",
    "notifications/progress",
    "notifications/initialized",
    "notifications/roots/list_changed",
    "notifications/message",
    "",
    "initialize",  # a notification (no id) with a request's name
    "tools/call",
]


def _text(rng: random.Random) -> str:
    alphabet = ['"', "\\", "/", "a", "é", "\u2028", "\x00", "\x1f", "😀", "\ufeff", "1", " "]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def _value(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["null", "bool", "int", "big", "float", "text"]
    if depth < 4:
        kinds += ["list", "object"]
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.randint(-3, 3)
    if kind == "big":
        return rng.choice([2**63, -(2**70), 10**30])
    if kind == "float":
        return rng.choice([0.5, 1.0, -0.0, 1e300, 2.5e-300])
    if kind == "text":
        return _text(rng)
    if kind == "list":
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {_text(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _names_held(value: Any) -> bool:
    request = as_request_id(value)
    return request is not None and coerce_request_id(request) == HELD


def _message(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.25:  # a response to a request the server never made
        ident = _value(rng)
        while _names_held(ident):
            ident = _value(rng)
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": ident}
        answer["result" if rng.random() < 0.5 else "error"] = _value(rng)
        return answer
    method = rng.choice(METHODS)
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if method == "notifications/cancelled":
        request_id = _value(rng)
        while _names_held(request_id):
            request_id = _value(rng)
        message["params"] = {"requestId": request_id, "reason": _value(rng)}
    elif rng.random() < 0.8:
        message["params"] = _value(rng)
    return message


def _line(rng: random.Random) -> str:
    line = json.dumps(_message(rng), ensure_ascii=rng.random() < 0.5)
    roll = rng.random()
    if roll < 1 / 16:  # cut short
        return line[: rng.randint(1, max(1, len(line) - 1))]
    if roll < 1 / 8:  # nested past the SDK's reader, or past Python's
        depth = rng.choice([200, 1500])
        return line[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    return line


def test_random_notifications_and_stray_responses_change_no_answer(
    corpus: Path, tmp_path: Path
) -> None:
    (corpus / "held.txt").write_text(f"{SLOW}\n")
    session = Session(corpus, tmp_path)
    rng = random.Random(SEED)
    pings = []
    try:
        session.handshake()
        session.slow_call(HELD)
        for n in range(LINES):
            session.line(_line(rng))
            if n % 10 == 9:
                pings.append(f"ping-{n}")
                session.ping(pings[-1])
        session.ping("last")
        seen = session.until("last")
        assert session.process.stdin is not None
        session.process.stdin.close()
        session.release()
        rest = session.end()
    finally:
        session.close()
    answers = seen + rest
    by_id: dict[Any, list[dict[str, Any]]] = {}
    for answer in answers:
        by_id.setdefault(json.dumps(answer.get("id")), []).append(answer)
    for ping in [*pings, "last"]:
        assert by_id.pop(json.dumps(ping), None) == [{"jsonrpc": "2.0", "id": ping, "result": {}}]
    (held,) = by_id.pop(json.dumps(HELD))
    assert "held.txt" in held["result"]["content"][0]["text"], held
    # What is left are refusals of lines that are no message (cut short, nested too
    # deep, an id of no JSON-RPC type): errors, never a result.
    left = [answer for answers in by_id.values() for answer in answers]
    assert all(a["error"]["code"] in (-32700, -32600) for a in left), left
    assert len(left) >= LINES // 16, len(left)  # the cut and the deep ones at least
