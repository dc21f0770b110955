"""The published JSON Schemas: one per command, generated from the contract models.

    python -m asrch.contract.schema [DIR]     (re)write DIR/COMMAND.schema.json (default schema/)

`nox -s update` runs it; tests/contract/test_schema.py fails when the committed files
and the models differ.
"""

import json
import sys
from pathlib import Path
from typing import Any

from asrch.contract.models import ANSWERS

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema(command: str) -> dict[str, Any]:
    """The schema of what `asrch COMMAND --format json` prints."""
    generated = ANSWERS[command].model_json_schema(mode="serialization")
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
