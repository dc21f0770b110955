"""What the JSON answer's strings and constants are, without pydantic: shared by the
builders (the `--format json` path, which must not import pydantic, D41) and the models
(the schemas and the MCP boundary)."""

from typing import Literal

from asrch.domain.notices import kinds as notice_kinds

SCHEMA_VERSION: Literal["1"] = "1"

NOTICE_KINDS: tuple[str, ...] = notice_kinds()
"""Every notice the domain can raise (`refused` and `past_end` last, as they were added)."""


def printable(value: str) -> str:
    """A term or a path as a JSON string holds it.

    A name may hold bytes that are not UTF-8 (os.fsdecode keeps them as surrogate
    escapes); a JSON string cannot. Each such byte is written `\\xNN`, as the text
    format shows it."""
    if value.isascii():
        return value
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else c for c in value)


def printable_path(path: str) -> str:
    """A path as a JSON string holds it, one spelling per name: `printable`, with each
    `\\` of the name written `\\\\` first, so a name holding the four characters `\\xe9`
    and a name holding the byte E9 never print alike (issue 20, item 8), as in the text's
    quoted form; docs/json.md says how to read a path back."""
    return printable(path.replace("\\", "\\\\")) if "\\" in path else printable(path)
