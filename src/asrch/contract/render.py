"""A report as the one line of JSON that `--format json` prints (D27), with the stdlib
alone: no pydantic on the command line's path (D41). tests/contract hold these bytes to
what the models would print (`model_dump_json`) and to the committed schemas."""

import json

from asrch.contract.build import answer

# Valid in a JSON string as they are, but line breaks to `str.splitlines()` (U+0085,
# U+2028, U+2029) or terminal controls (DEL, C1): written as escapes, so the answer is
# one line to every reader and never drives a terminal.
ESCAPES = {code: f"\\u{code:04x}" for code in (0x7F, *range(0x80, 0xA0), 0x2028, 0x2029)}

# Compact and UTF-8, as pydantic writes JSON; `check_circular` off: the values are trees.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def render_json(report: object) -> str:
    """One compact JSON object and a newline."""
    return _ENCODER.encode(answer(report)).translate(ESCAPES) + "\n"
