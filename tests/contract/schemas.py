"""The committed schemas (schema/COMMAND.schema.json), as a real JSON Schema validator reads
them: answers are held to the published files, not to the shapes they came from."""

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schema"
COMMANDS = ("survey", "scout", "sample", "show")


@functools.cache
def validator(command: str) -> Draft202012Validator:
    schema = json.loads((SCHEMA_DIR / f"{command}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(answer: Any) -> list[str]:
    """Why `answer` is not a valid answer of its own `command`; empty when it is."""
    if not isinstance(answer, dict) or answer.get("command") not in COMMANDS:
        return [f"not an answer of one of {COMMANDS}: {str(answer)[:200]}"]
    found = validator(answer["command"]).iter_errors(answer)
    return sorted(f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in found)


def one_answer(stdout: str) -> Any:
    """The JSON answer: exactly one line, one object, valid against its schema."""
    assert stdout.endswith("\n") and stdout.count("\n") == 1, f"not one line: {stdout[:300]!r}"
    assert len(stdout.splitlines()) == 1, f"a reader would split it: {stdout[:300]!r}"
    answer = json.loads(stdout)
    problems = schema_errors(answer)
    assert not problems, "\n".join(problems)
    return answer


def as_pydantic_prints(stdout: str) -> str:
    """The answer `stdout` holds, validated against its command's shape and printed by
    pydantic (which writes a TypedDict's keys in declaration order): what
    `--format json` printed before D41 took pydantic off its path. The stdlib writer
    must print the same bytes, so its key order is the shape's."""
    from asrch.contract.schema import adapter
    from asrch.domain.text_safety import json_escapes

    shape = adapter(json.loads(stdout)["command"])
    return shape.dump_json(shape.validate_json(stdout)).decode().translate(json_escapes()) + "\n"
