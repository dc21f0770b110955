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
    for client, argv in commands:
        assert argv[:2] == ["asrch", "mcp"], (client, argv)
        args = [a.replace("${workspaceFolder}", str(corpus)) for a in argv[1:]]
        server = StdioServerParameters(command=ASRCH, args=args, cwd=str(corpus))

        async def run(params: StdioServerParameters = server) -> CallToolResult:
            async with Client(params) as client:
                return await client.call_tool("scout", {"query": "connect"})

        result = anyio.run(run)
        assert text_of(result) == tool_text(run_cli(corpus, "scout", "connect").out), client


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
