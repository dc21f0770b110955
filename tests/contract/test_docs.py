"""docs/json.md shows documented answers, pretty-printed: each is still the spec's."""

import json
import re
from pathlib import Path

from tests.contract.schemas import COMMANDS, schema_errors
from tests.golden.examples import parse_examples
from tests.golden.runner import ROOT, SPEC_DIR

_EXAMPLE = re.compile(r"^`\$ (asrch [^`]+)`[^\n]*\n\n```json\n(.*?)\n```$", re.M | re.S)


def test_every_json_example_of_the_docs_is_a_documented_answer() -> None:
    docs = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    spec = {
        ex.command: json.loads(ex.expected[0])
        for ex in parse_examples(SPEC_DIR / "json.en.md")
        if not ex.on_stderr
    }
    found = _EXAMPLE.findall(docs)
    assert {json.loads(body)["command"] for _, body in found} == set(COMMANDS)
    assert docs.count("```json") == len(found), "every json block follows its command"
    for command, body in found:
        assert command in spec, f"docs/json.md: {command!r} is not an example of spec/json.en.md"
        assert json.loads(body) == spec[command], f"docs/json.md: {command!r} drifted from the spec"
        assert schema_errors(json.loads(body)) == []


def test_the_docs_name_every_schema_file() -> None:
    docs = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"schema/{command}.schema.json" in docs
    assert Path(ROOT / "schema").is_dir()
