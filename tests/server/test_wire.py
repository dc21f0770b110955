"""Issue 20, item 12: a line that is not a JSON-RPC message gets JSON-RPC's error.

Before, the SDK's reader dropped such a line and the client waited forever. Over a real
`asrch mcp` process: each malformed line is answered (-32700 parse error, -32600
invalid request) with its id when one can be read, in order, and the server goes on to
answer the next good request.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from asrch.server.wire import refusal
from tests.support.jsonrpc import INITIALIZED, initialize

INITIALIZE = initialize(100)

MALFORMED: list[tuple[str, Any, int]] = [
    ("not json", None, -32700),
    ('{"jsonrpc": "2.0", "id": 3, "method": "ping"', None, -32700),  # cut short
    ("[1,2,3]", None, -32600),
    ('[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]', None, -32600),  # a batch
    ('"a string"', None, -32600),
    ('{"jsonrpc": "1.0", "id": 5, "method": "ping"}', 5, -32600),
    ('{"id": "six", "method": "ping"}', "six", -32600),  # no jsonrpc
    ('{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": "\\ud800"}}', 7, -32700),
    (
        '{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "\\udfff"}}',
        8,
        -32700,
    ),
    ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', None, -32600),
    ('{"jsonrpc": "2.0", "id": 9}', 9, -32600),  # neither request nor response
]


@pytest.mark.parametrize(("line", "ident", "code"), MALFORMED, ids=[m[0][:30] for m in MALFORMED])
def test_each_malformed_line_is_refused_as_json_rpc_says(line: str, ident: Any, code: int) -> None:
    answer = refusal(line)
    assert answer is not None
    assert (answer.id, answer.error.code) == (ident, code)


def test_good_lines_pass() -> None:
    assert refusal(json.dumps(INITIALIZE)) is None
    assert refusal(json.dumps(INITIALIZED)) is None
    # A surrogate pair is one character, not a lone half.
    assert refusal('{"jsonrpc": "2.0", "id": 1, "method": "ping", "x": "\\ud83d\\ude00"}') is None


def test_the_server_answers_each_malformed_line_and_goes_on(tmp_path: Path) -> None:
    lines = [m[0] for m in MALFORMED] + ["", json.dumps(INITIALIZE)]
    done = subprocess.run(
        [sys.executable, "-m", "asrch", "mcp"],
        cwd=tmp_path,
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(MALFORMED) + 1
    for (_, ident, code), answer in zip(MALFORMED, answers, strict=False):
        assert answer["jsonrpc"] == "2.0"
        assert (answer["id"], answer["error"]["code"]) == (ident, code), answer
        assert answer["error"]["message"]
    assert answers[-1]["id"] == 100
    assert answers[-1]["result"]["serverInfo"]["name"] == "asrch"
