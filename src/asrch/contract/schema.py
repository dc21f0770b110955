"""The contract's pydantic side: the published JSON Schemas, one per command, and the
check of an answer, both derived from the answers' one declaration (`answers.py`): each
declared object becomes a TypedDict of its keys, in order, which pydantic reads.

    python -m asrch.contract.schema [DIR]     (re)write DIR/COMMAND.schema.json (default schema/)

`nox -s update` runs it; tests/contract/test_schema.py fails when the committed files
and the declarations differ. Loaded by the schema generator, the MCP server and the tests,
never on a command line's path (D41).
"""

import json
import sys
from functools import cache
from pathlib import Path
from typing import Annotated, Any, NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from asrch.contract.answers import ANSWERS
from asrch.contract.objects import Field, Kind, Many, Maybe, Obj
from asrch.contract.values import Doc

DIALECT = "https://json-schema.org/draft/2020-12/schema"


_TYPED_DICT: Any = TypedDict
"""typing_extensions' TypedDict, whose items pydantic reads on Python 3.11 (its functional
form, for a name known at run time)."""


@cache
def typed(obj: Obj) -> Any:
    """The object as a TypedDict: its keys in order, closed where it is (pydantic reads
    `__pydantic_config__` from the class), its description its docstring. One class per
    object, so that an object in several places is one definition of the schema."""
    shape = _TYPED_DICT(obj.name, {f.name: _field(f) for f in obj.fields})
    shape.__doc__ = obj.doc
    shape.__module__ = __name__
    if obj.closed:
        shape.__pydantic_config__ = {"extra": "forbid", "strict": True}
    return shape


def _field(field: Field) -> Any:
    typed = _annotation(field.kind)
    if field.doc is not None:
        typed = Annotated[typed, Doc(field.doc)]
    return typed if field.required else NotRequired[typed]


def _annotation(kind: Kind) -> Any:
    if isinstance(kind, Obj):
        return typed(kind)
    if isinstance(kind, Many):
        return tuple[_annotation(kind.item), ...]  # type: ignore[misc]
    if isinstance(kind, Maybe):
        return _annotation(kind.kind) | None
    return kind.annotation


@cache
def adapter(command: str) -> TypeAdapter[Any]:
    """pydantic's reading of the command's answer, built once per process."""
    return TypeAdapter(typed(ANSWERS[command][1]))


def validated(values: dict[str, Any]) -> dict[str, Any]:
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
