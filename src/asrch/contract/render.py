"""A report as the one line of JSON that `--format json` prints (D27)."""

from asrch.contract.build import answer

# Valid in a JSON string as they are, but line breaks to `str.splitlines()` (U+0085,
# U+2028, U+2029) or terminal controls (DEL, C1): written as escapes, so the answer is
# one line to every reader and never drives a terminal.
_ESCAPES = {code: f"\\u{code:04x}" for code in (0x7F, *range(0x80, 0xA0), 0x2028, 0x2029)}


def render_json(report: object) -> str:
    """One compact JSON object and a newline."""
    return answer(report).model_dump_json().translate(_ESCAPES) + "\n"
