"""Every output line fits in 800 bytes and is valid UTF-8 (D8)."""

from asrch.domain.limits import LINE_CAP

MARKER = "…[+{} bytes]"


def cap_line(line: str, limit: int = LINE_CAP) -> str:
    """Cut `line` to at most `limit` UTF-8 bytes on a character boundary, marked.

    The marker sits inside the limit and says how many bytes were cut.
    """
    data = line.encode("utf-8", "surrogateescape")
    if len(data) <= limit:
        return line
    keep = limit - len(MARKER.format(len(data)).encode())
    # Back off continuation bytes (10xxxxxx) so the cut lands between characters.
    while keep > 0 and (data[keep] & 0xC0) == 0x80:
        keep -= 1
    head = data[:keep].decode("utf-8", "surrogateescape")
    return head + MARKER.format(len(data) - keep)


def cap_text(text: str, limit: int = LINE_CAP) -> str:
    """`cap_line` applied to each line of a block of text."""
    return "\n".join(cap_line(line, limit) for line in text.split("\n"))


def _picture(code: int) -> str:
    # Unicode Control Pictures: visible, one column, never a real control.
    return chr(0x2400 + code) if code < 0x20 else "\u2421"


def visible_text(raw: bytes) -> str:
    """Snippet text: the line ending stripped, controls and bad bytes made visible.

    Tabs stay (code is full of them); other C0 controls and DEL become Control
    Pictures (`␛` for ESC); C1 controls become `\\u0085`-style escapes; bytes that are
    not UTF-8 become `\\xNN`.
    """
    if raw.endswith(b"\r\n"):
        raw = raw[:-2]
    elif raw.endswith(b"\n"):
        raw = raw[:-1]
    text = raw.decode("utf-8", "surrogateescape")
    out: list[str] = []
    for char in text:
        code = ord(char)
        if char == "\t" or (0x20 <= code < 0x7F) or (code >= 0xA0 and not 0xD800 <= code < 0xE000):
            if code in (0x2028, 0x2029):
                out.append(f"\\u{code:04x}")
            else:
                out.append(char)
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x20 or code == 0x7F:
            out.append(_picture(code))
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out)
