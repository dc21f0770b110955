"""D37, end to end over stdio with the SDK's client: what an agent's host reads and
sends. The real `asrch mcp` process, its real `initialize` and `tools/list` answers.

A server process costs ~0.75 s of CPU to start (the SDK's imports), so the module starts
four: the two handshakes read as bytes, one `--structured` session and one plain session
that makes every other call of the module (the tools keep no state between calls)."""

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, ListToolsResult

from asrch.commands.table import SCOUT
from tests.server.conftest import CORPUS
from tests.server.helpers import Call, cli_json, text_of
from tests.support.jsonrpc import INITIALIZED, initialize

ASRCH = shutil.which("asrch", path=str(Path(sys.executable).parent)) or "asrch"
FOOTPRINT_LIMIT = 4096


class Session:
    """What one stdio session saw: the server's instructions and capabilities, its tools,
    and the answers to `calls`."""

    def __init__(
        self, corpus: Path, *calls: tuple[str, dict[str, Any]], options: tuple[str, ...] = ()
    ) -> None:
        self.results: list[CallToolResult] = []
        server = StdioServerParameters(command=ASRCH, args=["mcp", *options], cwd=str(corpus))

        async def run() -> None:
            async with Client(server) as client:
                self.instructions = client.instructions
                self.capabilities = client.server_capabilities.model_dump(
                    mode="json", by_alias=True, exclude_none=True
                )
                self.listed: ListToolsResult = await client.list_tools()
                for name, arguments in calls:
                    self.results.append(await client.call_tool(name, arguments))

        anyio.run(run)


def handshake(corpus: Path, *options: str) -> list[bytes]:
    """The lines `asrch mcp OPTIONS` writes for `initialize` and `tools/list`, as a
    client reads them from its stdout."""
    process = subprocess.Popen(
        [ASRCH, "mcp", *options],
        cwd=corpus,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    lines = []
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    for requests in ([initialize(1)], [INITIALIZED, listing]):
        process.stdin.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
        process.stdin.flush()
        lines.append(process.stdout.readline())
    process.stdin.close()
    assert process.wait(timeout=20) == 0
    assert [json.loads(line)["id"] for line in lines] == [1, 2]
    return lines


MISTAKES: list[tuple[str, dict[str, Any], str]] = [
    (
        "scout",
        {"query": "needle", "paht": "docs", "ignoreCase": True},
        "error: unknown argument paht for scout; did you mean path? its arguments are "
        f"{', '.join(a.tool_key for a in SCOUT.tool_arguments)}\n",
    ),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "clusters": 9},
        "error: clusters 9 is out of range; allowed: 1-5\n",
    ),
    (
        "survey",
        {"terms": [f"t{i}" for i in range(13)]},
        "error: terms has 13 items; at most 12 are allowed\n",
    ),
    (
        "show",
        {"query": "x", "file": "README.md", "context": "2"},
        'error: context must be an integer, 0-5, not the string "2"\n',
    ),
    (
        "scout",
        {"query": "x", "mode": "fuzzy"},
        'error: mode must be one of fixed, word, identifier, regex, not the string "fuzzy"\n',
    ),
    ("survey", {"paths": ["src"]}, "error: survey needs terms; give terms\n"),
    (
        "survey",
        {"terms": []},
        'error: survey needs at least one term in terms (1-12), e.g. terms: ["connect"]\n',
    ),
]


GLOBS: list[Call] = [
    ("scout", {"query": "connect", "path": "src", "glob": "net/**"}),
    ("scout", {"query": "connect", "path": "src", "glob": ["!tests/**"]}),
]

NEXT_STEPS: list[tuple[Call, list[str]]] = [
    (
        ("scout", {"query": "connect", "type": ["py", "md"]}),
        ["scout", "--type", "py", "--type", "md", "connect"],
    ),
    (
        ("sample", {"query": "hit", "file": "samples/clusters.txt"}),
        ["sample", "hit", "samples/clusters.txt"],
    ),
    (
        ("survey", {"terms": ["connect", "retry"]}),
        ["survey", "--term", "connect", "--term", "retry"],
    ),
    (
        ("show", {"query": "item", "file": "samples/twentyone.txt"}),
        ["show", "item", "samples/twentyone.txt"],
    ),
]
"""Each a first call with a next step; the text writes it only after the refusal (D54)."""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One copy of fixtures/corpus for the module: its servers only read it."""
    root = tmp_path_factory.mktemp("agents") / "corpus"
    shutil.copytree(CORPUS, root, symlinks=True)
    yield root


@pytest.fixture(scope="module")
def listing(corpus: Path) -> list[bytes]:
    return handshake(corpus)


@pytest.fixture(scope="module")
def structured(corpus: Path) -> Session:
    """`asrch mcp --structured`, each next-step case's first call."""
    return Session(corpus, *(first for first, _ in NEXT_STEPS), options=("--structured",))


@pytest.fixture(scope="module")
def plain(corpus: Path, structured: Session) -> Session:
    """`asrch mcp`: the mistakes, the globs, each next-step case's first call and then
    the call its structured answer names, made as it is."""
    assert all(r.structured_content is not None for r in structured.results)
    steps: list[Call] = [
        (r.structured_content["next_call"]["tool"], r.structured_content["next_call"]["arguments"])
        for r in structured.results
        if r.structured_content is not None and r.structured_content["next_call"] is not None
    ]
    calls = [(tool, arguments) for tool, arguments, _ in MISTAKES]
    return Session(corpus, *calls, *GLOBS, *(first for first, _ in NEXT_STEPS), *steps)


def _results(plain: Session) -> dict[str, list[CallToolResult]]:
    """The plain session's answers, by the group of calls they answer."""
    results = iter(plain.results)
    groups = {
        "mistakes": [next(results) for _ in MISTAKES],
        "globs": [next(results) for _ in GLOBS],
        "firsts": [next(results) for _ in NEXT_STEPS],
    }
    groups["steps"] = list(results)
    return groups


def test_what_initialize_and_tools_list_return_by_default_is_under_4_kb(
    listing: list[bytes],
) -> None:
    """D47 (D37's 4 KB): every byte of the two answers, the server's instructions, its
    capabilities, the tools' names, descriptions, annotations and input schemas."""
    size = sum(len(line) for line in listing)
    assert size <= FOOTPRINT_LIMIT, f"{size} bytes"


def test_by_default_no_tool_has_an_output_schema_and_structured_adds_them(
    corpus: Path, listing: list[bytes]
) -> None:
    plain = json.loads(listing[1])["result"]["tools"]
    assert [t for t in plain if "outputSchema" in t] == []
    structured = json.loads(handshake(corpus, "--structured")[1])["result"]["tools"]
    assert all(t["outputSchema"]["type"] == "object" for t in structured)
    assert len(structured) == len(plain) == 4


def test_only_tools_are_offered(plain: Session, structured: Session) -> None:
    assert set(plain.capabilities) == {"tools"}, plain.capabilities
    assert set(structured.capabilities) == {"tools"}, structured.capabilities


def test_the_input_schemas_are_strict(plain: Session) -> None:
    tools = {t.name: t.input_schema for t in plain.listed.tools}
    for name, schema in tools.items():
        assert schema["additionalProperties"] is False, name
        assert "title" not in json.dumps(schema), name
        for key in ("type", "glob"):
            assert schema["properties"][key]["type"] == ["array", "string"], (name, key)
    survey = tools["survey"]["properties"]
    assert (survey["terms"]["maxItems"], survey["paths"]["maxItems"]) == (12, 8)
    assert survey["mode"]["enum"] == ["fixed", "word", "identifier"]
    clusters = tools["sample"]["properties"]["clusters"]
    assert (clusters["minimum"], clusters["maximum"], clusters["default"]) == (1, 5, 3)
    context = tools["show"]["properties"]["context"]
    assert (context["minimum"], context["maximum"]) == (0, 5)
    assert tools["show"]["properties"]["line"]["minimum"] == 1
    assert tools["sample"]["properties"]["page"]["minimum"] == 1


def test_a_mistaken_call_is_refused_in_the_tools_words(plain: Session) -> None:
    for (tool, arguments, said), result in zip(MISTAKES, _results(plain)["mistakes"], strict=True):
        assert result.is_error is True, (tool, arguments)
        assert text_of(result) == said
        assert "--" not in text_of(result)


@pytest.mark.parametrize("case", range(len(NEXT_STEPS)), ids=[c[0] for c, _ in NEXT_STEPS])
def test_the_next_step_is_a_call_the_agent_makes_as_it_is(
    corpus: Path, structured: Session, plain: Session, case: int
) -> None:
    argv = NEXT_STEPS[case][1]
    first = structured.results[case]
    assert first.structured_content is not None
    answers = _results(plain)
    plain_first = answers["firsts"][case]
    assert plain_first.structured_content is None
    assert text_of(plain_first) == text_of(first)
    call = first.structured_content["next_call"]
    assert call is not None
    # After a refusal (D54), the text's last line is the same call, written as the agent
    # makes it; elsewhere the text has no step.
    lines = text_of(first).splitlines()
    written = ", ".join(f"{k}={json.dumps(v)}" for k, v in call["arguments"].items())
    if any(ln.startswith("note: refused: ") for ln in lines):
        assert lines[-1] == f"next: {call['tool']}({written})"
    else:
        assert not any(ln.startswith("next: ") for ln in lines), text_of(first)
    # The command line's JSON carries the same call beside its `next`.
    assert cli_json(corpus, argv)["next_call"] == call
    # Made as it is (in the plain session), the call is answered.
    assert len(answers["steps"]) == len(NEXT_STEPS)
    made = answers["steps"][case]
    assert made.is_error is False, text_of(made)


def test_a_glob_that_does_nothing_is_said_with_how_it_is_anchored(plain: Session) -> None:
    """D38 over MCP: globs are matched from the first root, not from `path`."""
    nothing, everything = (text_of(r) for r in _results(plain)["globs"])
    assert (
        'note: glob "net/**" matched no file under src; a glob with a / is matched from the '
        'working directory, as rg matches it; from src write "src/net/**"\n'
    ) in nothing
    assert 'note: glob "!tests/**" removed no file under src;' in everything
