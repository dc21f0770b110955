"""A report as the one line of JSON that `--format json` prints (D27), with the stdlib
alone: no pydantic on the command line's path (D41). tests/contract hold these bytes to
what pydantic prints from the answer's shape (`dump_json`: the shape's key order) and to
the committed schemas."""

import json

from asrch.contract.build import answer
from asrch.domain.text_safety import json_escapes

# Compact and UTF-8, as pydantic writes JSON; `check_circular` off: the values are trees.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def render_json(report: object, *, index: str | None = None) -> str:
    """One compact JSON object and a newline; `index`: whether the searches read the
    index's candidates (D58), where an index covers a searched directory."""
    built: dict[str, object] = dict(answer(report))
    if index is not None:
        built["index"] = index
    return _ENCODER.encode(built).translate(json_escapes()) + "\n"
