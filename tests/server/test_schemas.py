"""What a client sees of each tool: names, descriptions, annotations, input schema and
(from `asrch mcp --structured`, D47) output schema. The schemas are snapshots, so a
change is a visible diff; the output schema is the committed contract itself
(schema/COMMAND.schema.json)."""

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import Tool
from syrupy.assertion import SnapshotAssertion

from asrch.server.app import build_server

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schema"
TOOLS = ["survey", "scout", "sample", "show"]


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Tool]:
    server = build_server([str(tmp_path_factory.mktemp("root"))], structured=True)

    async def run() -> list[Tool]:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    return {tool.name: tool for tool in anyio.run(run)}


def test_the_server_lists_the_four_tools(listed: dict[str, Tool]) -> None:
    assert sorted(listed) == sorted(TOOLS)


@pytest.mark.parametrize("name", TOOLS)
def test_each_tool_is_read_only_and_closed_world(listed: dict[str, Tool], name: str) -> None:
    annotations = listed[name].annotations
    assert annotations is not None
    assert annotations.read_only_hint is True
    assert annotations.open_world_hint is False
    # Read only: MCP reads destructiveHint and idempotentHint only when readOnlyHint is
    # false; they are not sent (D47's 4 KB).
    assert annotations.idempotent_hint is None
    assert annotations.destructive_hint is None


@pytest.mark.parametrize("name", TOOLS)
def test_each_description_teaches_the_next_step_in_two_or_three_sentences(
    listed: dict[str, Tool], name: str
) -> None:
    description = listed[name].description or ""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", description.strip()) if s]
    assert 2 <= len(sentences) <= 3, sentences
    following = {"survey": "scout", "scout": "sample", "sample": "show", "show": "sample"}
    assert following[name] in description
    if name == "survey":
        # D36: next scouts a pair of the answer, not a term's dominant path (issue 32: the
        # words said one thing and next did another).
        assert "scout a pair" in description and "scout the dominant path" not in description


@pytest.mark.parametrize("name", TOOLS)
def test_the_output_schema_is_the_committed_contract(listed: dict[str, Tool], name: str) -> None:
    committed = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert listed[name].output_schema == committed


@pytest.mark.parametrize("name", TOOLS)
def test_the_input_schema_is_snapshotted(
    listed: dict[str, Tool], name: str, snapshot: SnapshotAssertion
) -> None:
    schema: dict[str, Any] = listed[name].input_schema
    assert schema == snapshot


@pytest.mark.parametrize("name", TOOLS)
def test_the_output_schema_is_snapshotted(
    listed: dict[str, Tool], name: str, snapshot: SnapshotAssertion
) -> None:
    assert listed[name].output_schema == snapshot


@pytest.mark.parametrize("name", ["sample", "scout", "show"])
def test_every_mode_is_offered_and_fixed_is_the_default(listed: dict[str, Tool], name: str) -> None:
    mode = listed[name].input_schema["properties"]["mode"]
    assert mode["enum"] == ["fixed", "word", "identifier", "regex"]
    assert mode["default"] == "fixed"


def test_survey_offers_no_regex(listed: dict[str, Tool]) -> None:
    mode = listed["survey"].input_schema["properties"]["mode"]
    assert mode["enum"] == ["fixed", "word", "identifier"]
