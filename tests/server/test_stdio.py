"""End to end: `asrch mcp` started as the README says, spoken to over stdio by the SDK's
client, every tool answering as the command line does from the same directory."""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

from tests.server.helpers import run_cli, text_of, tool_text
from tests.support.jsonrpc import initialize

# The README's command line, as a client configuration runs it: `asrch mcp`.
ASRCH = shutil.which("asrch", path=str(Path(sys.executable).parent)) or "asrch"

QUESTIONS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("survey", {"terms": ["connect", "retry"]}, ["survey", "--term", "connect", "--term", "retry"]),
    ("scout", {"query": "connect", "path": "src"}, ["scout", "connect", "src"]),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt"},
        ["sample", "hit", "samples/clusters.txt"],
    ),
    (
        "show",
        {"query": "connect", "file": "src/net/client.py", "line": 3},
        ["show", "connect", "src/net/client.py", "--line", "3"],
    ),
    ("scout", {"query": "connect", "path": ".."}, ["scout", "connect", ".."]),
]


def test_asrch_mcp_over_stdio_answers_every_tool(corpus: Path) -> None:
    server = StdioServerParameters(command=ASRCH, args=["mcp"], cwd=str(corpus))
    names: list[str] = []
    results: list[CallToolResult] = []

    async def run() -> None:
        async with Client(server) as client:
            listed = await client.list_tools()
            names.extend(tool.name for tool in listed.tools)
            for tool, arguments, _ in QUESTIONS:
                results.append(await client.call_tool(tool, arguments))

    anyio.run(run)
    assert sorted(names) == ["sample", "scout", "show", "survey"]
    *answers, escape = results
    for (_, _, argv), result in zip(QUESTIONS, answers, strict=False):
        assert result.is_error is False
        assert text_of(result) == tool_text(run_cli(corpus, *argv).out)
    assert escape.is_error is True
    assert "outside the server's roots" in text_of(escape)


def test_asrch_mcp_with_roots_over_stdio(corpus: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.py").write_text("connect\n")
    server = StdioServerParameters(
        command=ASRCH,
        args=["mcp", "--structured", "--root", str(corpus), "--root", str(other)],
        cwd=str(tmp_path),
    )
    results: list[CallToolResult] = []

    async def run() -> None:
        async with Client(server) as client:
            results.append(await client.call_tool("scout", {"query": "connect", "path": "src"}))
            results.append(
                await client.call_tool("scout", {"query": "connect", "path": str(other)})
            )

    anyio.run(run)
    first, second = results
    assert text_of(first) == tool_text(run_cli(corpus, "scout", "connect", "src").out)
    assert second.structured_content is not None
    assert second.structured_content["matches"] == 1


def _readme_commands() -> list[tuple[str, list[str]]]:
    """Every server command line the README's "Use it from an agent" configures, as
    (client, argv): the Claude Code command, the Codex table, the JSON entries."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use it from an agent", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)\n```", section, re.S)
    found: list[tuple[str, list[str]]] = []
    for language, body in blocks:
        if language == "sh" and "claude mcp add" in body:
            words = shlex.split(body.strip())
            found.append(("claude", words[words.index("--") + 1 :]))
        elif language == "toml":
            entry = tomllib.loads(body)["mcp_servers"]["asrch"]
            found.append(("codex", [entry["command"], *entry["args"]]))
        elif language == "json":
            config = json.loads(body)
            entry = (config.get("mcpServers") or config["servers"])["asrch"]
            found.append(("json", [entry["command"], *entry["args"]]))
    return found


def test_every_client_configuration_of_the_readme_starts_a_working_server(corpus: Path) -> None:
    commands = _readme_commands()
    assert [client for client, _ in commands] == ["claude", "codex", "json", "json"]
    # A server sees only its command line and directory: one run per distinct command
    # line (~0.75 s of CPU each) covers every client configured with it.
    clients: dict[tuple[str, ...], list[str]] = {}
    for client, argv in commands:
        assert argv[:2] == ["asrch", "mcp"], (client, argv)
        clients.setdefault(tuple(argv), []).append(client)
    for words, named in clients.items():
        args = [a.replace("${workspaceFolder}", str(corpus)) for a in words[1:]]
        server = StdioServerParameters(command=ASRCH, args=args, cwd=str(corpus))

        async def run(params: StdioServerParameters = server) -> CallToolResult:
            async with Client(params) as client:
                return await client.call_tool("scout", {"query": "connect"})

        result = anyio.run(run)
        assert text_of(result) == tool_text(run_cli(corpus, "scout", "connect").out), named


def test_asrch_mcp_reads_a_stdin_that_cannot_be_polled(corpus: Path, tmp_path: Path) -> None:
    """/dev/null or a file of requests as stdin (`asrch mcp < requests.jsonl`): read
    directly, to its end, then the server ends as on a hang-up (exit 0)."""
    requests = tmp_path / "requests.jsonl"
    request = initialize(1)
    requests.write_text(json.dumps(request) + "\n")
    for stdin in (Path(os.devnull), requests):
        with stdin.open("rb") as source:
            done = subprocess.run(
                [ASRCH, "mcp"],
                cwd=corpus,
                stdin=source,
                capture_output=True,
                timeout=60,
                check=False,
            )
        assert done.returncode == 0, done.stderr
        assert b"Traceback" not in done.stderr and b"error:" not in done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert all(answer.get("id") == 1 for answer in answers), answers


# --- issue 32, item 3: what comes before the end of stdin, and lines that cannot be ---

SCRIPT = [
    initialize(1),
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "scout", "arguments": {"query": "connect"}},
    },
]


def _serve_bytes(corpus: Path, data: bytes, *, as_file: Path | None = None) -> tuple[Any, int]:
    """`asrch mcp` fed `data` (through a pipe, or from the file `as_file`) to its end:
    its answers, and its peak resident memory in KiB (by /usr/bin/time: a child forked
    from this process would carry this process's size in its own peak)."""
    if as_file is not None:
        as_file.write_bytes(data)
    with (as_file or Path(os.devnull)).open("rb") as source:
        process = subprocess.Popen(
            ["/usr/bin/time", "-f", "peak %M", ASRCH, "mcp"],
            cwd=corpus,
            stdin=source if as_file is not None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    if as_file is None:
        assert process.stdin is not None
        with process.stdin:
            process.stdin.write(data)
        process.stdin = None
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr, stderr
    answers = [json.loads(line) for line in stdout.splitlines()]
    return answers, int(stderr.decode().rsplit("peak ", 1)[1])


def _script(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def test_every_request_before_the_end_of_stdin_is_answered(corpus: Path, tmp_path: Path) -> None:
    """`asrch mcp < req.jsonl` (and the same through a pipe): initialize, tools/list and
    tools/call all answered, the call with its result, before the server exits."""
    for as_file in (tmp_path / "req.jsonl", None):
        answers, _ = _serve_bytes(corpus, _script(*SCRIPT), as_file=as_file)
        by_id = {answer["id"]: answer for answer in answers}
        assert sorted(by_id) == [1, 2, 3], answers
        assert "result" in by_id[3], by_id[3]
        text = by_id[3]["result"]["content"][0]["text"]
        assert text == tool_text(run_cli(corpus, "scout", "connect").out)


def test_a_line_that_is_not_utf8_is_a_parse_error_not_a_search(corpus: Path) -> None:
    bad = json.dumps(SCRIPT[3]).encode().replace(b"connect", b"conn\xffect")
    after = {**SCRIPT[2], "id": 4}
    answers, _ = _serve_bytes(corpus, _script(*SCRIPT[:3]) + bad + b"\n" + _script(after))
    refused = [a for a in answers if a["id"] is None]
    assert len(refused) == 1, answers
    assert refused[0]["error"]["code"] == -32700
    assert "not UTF-8 (byte 0xff at offset" in refused[0]["error"]["message"]
    assert [a["id"] for a in answers if a["id"] is not None] == [1, 2, 4]


def test_a_request_line_over_the_bound_is_refused_and_memory_stays_bounded(
    corpus: Path,
) -> None:
    """A 200 MB line (no LF for 200 MB, then the rest of a request) is answered with
    -32600 once it passes 1 MiB and skipped to its end, in chunks: the server's peak
    memory stays far below the line (issue 32: a 300 MB line took 992 MB)."""
    from asrch.server.stdio import REQUEST_LINE_MAX

    huge = b'{"jsonrpc":"2.0","id":9,"method":"tools/list","x":"' + b"a" * (200 << 20) + b'"}\n'
    # Before the fix, the line was read whole: the peak was about 3 times its size.
    answers, peak_kib = _serve_bytes(corpus, _script(*SCRIPT[:2]) + huge + _script(SCRIPT[2]))
    refused = [a for a in answers if a["id"] is None]
    assert len(refused) == 1, [a.get("error") for a in answers]
    assert refused[0]["error"]["code"] == -32600
    assert f"at most {REQUEST_LINE_MAX} bytes" in refused[0]["error"]["message"]
    assert [a["id"] for a in answers if a["id"] is not None] == [1, 2]
    assert 0 < peak_kib < 150 * 1024, f"peak {peak_kib} KiB"
