"""A term too long for one argument goes to rg in a pattern file of the run's own
(issue 39, item 6): the same term twice, two long terms, concurrent calls over one
term, none of them racing another's file or the exit's clean-up."""

import json
import random
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.end_to_end.helpers import asrch, check_invariants

_RNG = random.Random(39)


def _term() -> str:
    """A term of 120,000 bytes no earlier test searched for (a process that had written
    a term's file before never raced on it again)."""
    return "".join(_RNG.choice("abcdefghijklmnop") for _ in range(120_000))


_T = _U = ""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    global _T, _U
    _T, _U = _term(), _term()
    (tmp_path / "f.txt").write_text(f"x {_T} y\n{_U}\nnothing\n{_T}\n")
    return tmp_path


def test_the_same_long_term_twice(tree: Path) -> None:
    """Both terms' runs wrote one content-named `.part` file: one renamed it away from
    the other (exit 70 FileNotFoundError, 6 of 6 on 71ae67e)."""
    ran = asrch(
        "survey", "--format", "json", "--term", _T, "--term", _T, "f.txt", cold=True, cwd=tree
    )
    assert (ran.status, ran.err) == (0, "")
    terms = json.loads(ran.out)["overall"]
    assert [(t["matches"], t["files"]) for t in terms] == [(2, 1), (2, 1)]


def test_two_long_terms(tree: Path) -> None:
    ran = asrch("survey", "--term", _T, "--term", _U, "f.txt", cold=True, cwd=tree)
    check_invariants(ran, frozenset({0}))
    assert "Traceback" not in ran.err and ran.err == ""


def test_a_long_terms_row_keeps_its_counts(tree: Path) -> None:
    """A row's term is cut in its cell (200 bytes and the marker), not the row at the
    800-byte line cap, which took the counts with it."""
    ran = asrch("survey", "--term", _T, "--term", _U, "f.txt", cwd=tree)
    check_invariants(ran, frozenset({0}))
    rows = ran.out.splitlines()[1:3]
    assert rows == [
        f"  {_T[:200]}…[+119800 bytes],2,1,f.txt:1 f.txt:4",
        f"  {_U[:200]}…[+119800 bytes],1,1,f.txt:2",
    ]


def test_concurrent_mcp_scouts_over_one_long_term(tree: Path) -> None:
    """Calls side by side in one process each write and close their own file (55 of
    240 internal errors on 71ae67e, where they shared one)."""
    pytest.importorskip("mcp")
    from mcp import Client

    from asrch.server.app import build_server

    server = build_server([str(tree)])
    texts: list[str] = []

    async def call(client: Any) -> None:
        result = await client.call_tool("scout", {"query": _T})
        texts.append(result.content[0].text)

    async def run() -> None:
        async with Client(server) as client, anyio.create_task_group() as group:
            for _ in range(8):
                group.start_soon(call, client)

    anyio.run(run)
    assert len(texts) == 8
    assert all("matches: 2" in text for text in texts), [t[:200] for t in texts]
