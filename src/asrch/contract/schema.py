"""The contract's pydantic side: the published JSON Schemas, one per command, and the
check of an answer, both derived from the answers' one declaration (`shapes.py`).

    python -m asrch.contract.schema [DIR]     (re)write DIR/COMMAND.schema.json (default schema/)

`nox -s update` runs it; tests/contract/test_schema.py fails when the committed files
and the shapes differ. Loaded by the schema generator, the MCP server and the tests,
never on a command line's path (D41).
"""

import json
import sys
import warnings
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from asrch.contract.shapes import ANSWERS, Answer

DIALECT = "https://json-schema.org/draft/2020-12/schema"


@cache
def adapter(command: str) -> TypeAdapter[Answer]:
    """pydantic's reading of the command's answer shape, built once per process."""
    with warnings.catch_warnings():
        # pydantic warns that it does not keep a `ReadOnly` item from being changed; the
        # shapes use `ReadOnly` only so that each answer narrows `command` (PEP 705), and
        # nothing changes an answer once built.
        warnings.filterwarnings("ignore", r".*`ReadOnly` qualifier", UserWarning)
        return TypeAdapter(ANSWERS[command])


def validated(values: Answer) -> dict[str, Any]:
    """A builder's answer (`build.answer`) held to its command's shape, as JSON values
    (what the MCP server sends as structured content): a negative count, an unknown
    notice kind, a missing or extra field, an unprintable name fail here."""
    checking = adapter(values["command"])
    return checking.dump_python(checking.validate_python(values), mode="json")  # type: ignore[no-any-return]


def schema(command: str) -> dict[str, Any]:
    """The schema of what `asrch COMMAND --format json` prints."""
    generated = adapter(command).json_schema(mode="serialization")
    return {"$schema": DIALECT, **generated}


def schema_text(command: str) -> str:
    return json.dumps(schema(command), indent=2, ensure_ascii=False) + "\n"


def schema_file(directory: Path, command: str) -> Path:
    return directory / f"{command}.schema.json"


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema that changed; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for command in ANSWERS:
        path = schema_file(directory, command)
        text = schema_text(command)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str]) -> None:
    directory = Path(argv[0]) if argv else Path("schema")
    for path in write_schemas(directory):
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
