"""How one value is written so that it stays one token on one line (D2).

Values are bare when non-empty and made only of ASCII letters, digits and
`_ - . / =`; otherwise they are double-quoted with `"` and `\\` escaped, control
characters written `\\n`, `\\r`, `\\t` or `\\uXXXX`, and bytes that are not UTF-8
(file names carry them as surrogate escapes) written `\\xNN`. The quoted form
round-trips: every escape decodes to exactly one code point or byte.
"""

import re

_BARE = re.compile(r"[A-Za-z0-9_\-./=]+")
_NAMED = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        # A surrogate escape: os.fsdecode's stand-in for one undecodable byte.
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0 or 0xD800 <= code < 0xE000:
        return f"\\u{code:04x}"
    if code in (0x2028, 0x2029, 0x85):
        return f"\\u{code:04x}"
    return char


def quote(value: str) -> str:
    """The D2 form of one value."""
    if _BARE.fullmatch(value):
        return value
    return '"' + "".join(_escape_char(c) for c in value) + '"'
