"""The published schemas are the code's, and every documented JSON answer fits them."""

import json
from pathlib import Path

import pytest

from asrch.contract.schema import schema_file, schema_text, write_schemas
from asrch.domain.notices import kinds as notice_kinds
from tests.contract.schemas import COMMANDS, SCHEMA_DIR, one_answer, schema_errors
from tests.golden.examples import parse_examples
from tests.golden.runner import spec_pairs

REGENERATE = "nox -s update (or: python -m asrch.contract.schema schema)"


@pytest.mark.parametrize("command", COMMANDS)
def test_the_committed_schema_is_the_code_s(command: str) -> None:
    committed = schema_file(SCHEMA_DIR, command)
    assert committed.exists(), f"{committed} is missing; run {REGENERATE}"
    assert committed.read_text(encoding="utf-8") == schema_text(command), (
        f"{committed.name} differs from the answers' shapes; run {REGENERATE} and review the diff"
    )


def test_schema_dir_holds_one_schema_per_command_and_nothing_else() -> None:
    assert sorted(p.name for p in SCHEMA_DIR.iterdir()) == sorted(
        f"{c}.schema.json" for c in COMMANDS
    )


def test_the_check_fails_on_a_changed_schema(tmp_path: Path) -> None:
    write_schemas(tmp_path)
    path = schema_file(tmp_path, "scout")
    assert path.read_text(encoding="utf-8") == schema_text("scout")
    path.write_text(path.read_text(encoding="utf-8").replace('"files"', '"file_count"'))
    assert path.read_text(encoding="utf-8") != schema_text("scout")
    assert write_schemas(tmp_path) == [path], "regenerating rewrites exactly the changed file"


def test_every_domain_notice_kind_is_in_the_committed_schemas() -> None:
    for command in COMMANDS:
        schema = json.loads(schema_file(SCHEMA_DIR, command).read_text(encoding="utf-8"))
        assert schema["$defs"]["Notice"]["properties"]["kind"]["enum"] == list(notice_kinds())


def _documented_answers() -> list[tuple[str, str]]:
    found = []
    for pair in spec_pairs():
        for example in parse_examples(pair[0]):
            if "--format json" in example.command and not example.on_stderr:
                found.append((example.location, "\n".join(example.expected) + "\n"))
    return found


DOCUMENTED = _documented_answers()


def test_the_spec_documents_a_json_answer_for_every_command() -> None:
    commands = {json.loads(stdout)["command"] for _, stdout in DOCUMENTED}
    assert commands == set(COMMANDS)


@pytest.mark.parametrize(("where", "stdout"), DOCUMENTED, ids=[w for w, _ in DOCUMENTED])
def test_every_documented_json_answer_fits_its_schema(where: str, stdout: str) -> None:
    one_answer(stdout)


def test_the_validator_rejects_what_the_schema_forbids() -> None:
    answer = json.loads(DOCUMENTED[0][1])
    assert schema_errors(answer) == []
    assert schema_errors({**answer, "extra": 1}), "unknown fields are refused"
    assert schema_errors({**answer, "matches": -1}), "counts are not negative"
    assert schema_errors({**answer, "capped": "no"}), "capped is a boolean"
    assert schema_errors({**answer, "schema_version": "2"}), "the version is fixed"
    broken = {**answer, "notices": [{"kind": "surprise", "message": "x"}]}
    assert schema_errors(broken), "notice kinds are listed"
