"""Every output line fits in 800 bytes and is valid UTF-8 (D8)."""

from typing import cast, overload

from asrch.domain.limits import LINE_CAP, MATCH_LEAD
from asrch.domain.lines import Excerpt, Span
from asrch.domain.text_safety import visible, visible_line

MARKER = "…[+{} bytes]"
LEFT_MARKER = "[+{} bytes]…"


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


def printed(text: str) -> bytes:
    """The bytes asrch prints for `text`: every line capped, never invalid UTF-8 (D8).

    The command line writes them; the MCP server sends them, decoded, as its text.
    """
    return cap_text(text).encode("utf-8", "backslashreplace")


def strip_ending(raw: bytes) -> bytes:
    return raw[: content_end(raw)]


def content_end(raw: bytes) -> int:
    """Where the line's text ends: before its LF or CR LF, if any. An index, not a
    slice: a slice copies the line (300 MB for a minified one)."""
    if raw.endswith(b"\r\n"):
        return len(raw) - 2
    if raw.endswith(b"\n"):
        return len(raw) - 1
    return len(raw)


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def visible_text(raw: bytes) -> str:
    """Snippet text: the line ending stripped, each character `visible`
    (domain/text_safety.py: tabs stay, controls become Control Pictures, bytes that are
    not UTF-8 `\\xNN`)."""
    return visible_line(_decode(strip_ending(raw)))


def _source_size(char: str) -> int:
    """Bytes of the line one decoded character stands for (a byte that is not UTF-8:
    one, as it decoded)."""
    return len(char.encode("utf-8", "surrogateescape"))


def _char_start(raw: bytes, pos: int, total: int) -> int:
    """`pos` (within `raw[:total]`), moved back to the start of the UTF-8 character it
    falls inside.

    A byte that is not a continuation byte never lies inside a character, so a split
    before it decodes the two halves exactly as the whole. If the 3 bytes before `pos`
    are continuation bytes too, no lead byte can reach `pos`: it is a split already.
    """
    pos = max(0, min(pos, total))
    back = pos
    for _ in range(3):
        if back == 0 or back >= total or (raw[back] & 0xC0) != 0x80:
            return back
        back -= 1
    return back if back < total and (raw[back] & 0xC0) != 0x80 else pos


def _forward(raw: bytes, start: int, room: int, total: int) -> tuple[str, int]:
    """The visible text of `raw[:total]` from `start` that fits in `room` bytes, and
    where it ends.

    Each character prints whole or not at all (an escape such as `\\xe9` is never
    split). A printed character is never shorter than the bytes it stands for, so
    `room` bytes of the line (plus one character) are all that need decoding.
    """
    out: list[str] = []
    used = 0
    end = start
    for char in _decode(raw[start : min(start + room + 4, total)]):
        shown = visible(char)
        size = len(shown.encode("utf-8"))
        if used + size > room or end >= total:
            break
        out.append(shown)
        used += size
        end += _source_size(char)
    return "".join(out), end


def _backward(raw: bytes, end: int, room: int) -> tuple[str, int]:
    """The visible text of `raw` ending at `end` that fits in `room` bytes, and its start."""
    start = _char_start(raw, end - room - 4, end)
    out: list[str] = []
    used = 0
    for char in reversed(_decode(raw[start:end])):
        shown = visible(char)
        size = len(shown.encode("utf-8"))
        if used + size > room:
            break
        out.append(shown)
        used += size
        end -= _source_size(char)
    return "".join(reversed(out)), end


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


class _Kept:
    """A line of which only an `Excerpt` is held, read as the whole line's bytes are:
    its length, a byte, a slice, its ending; every read `fit_line` makes lies in a
    kept range (`EXCERPT_MARGIN`)."""

    def __init__(self, text: bytes, excerpt: Excerpt) -> None:
        self._size = excerpt.size
        self._pieces: list[tuple[int, int, bytes]] = []
        at = 0
        for start, end in excerpt.ranges:
            self._pieces.append((start, end, text[at : at + end - start]))
            at += end - start

    def __len__(self) -> int:
        return self._size

    def _piece(self, start: int, end: int) -> tuple[int, bytes]:
        for first, last, data in self._pieces:
            if first <= start and end <= last:
                return first, data
        raise IndexError(f"bytes {start}-{end} of a long line were not kept")

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> bytes: ...
    def __getitem__(self, index: int | slice) -> int | bytes:
        if isinstance(index, int):
            first, data = self._piece(index, index + 1)
            return data[index - first]
        start, stop, _ = index.indices(self._size)
        stop = max(start, stop)
        first, data = self._piece(start, stop)
        return data[start - first : stop - first]

    def endswith(self, suffix: bytes) -> bool:
        return len(suffix) <= self._size and self[self._size - len(suffix) :] == suffix


def held(raw: bytes, excerpt: Excerpt | None) -> bytes:
    """A line's bytes as `fit_text` reads them: `raw` itself, or, where only `excerpt`
    of the line is held, a view that reads as the whole line."""
    return raw if excerpt is None else cast("bytes", _Kept(raw, excerpt))


def fit_excerpt(prefix: str, raw: bytes, first_match: Span | None, excerpt: Excerpt) -> str:
    """`fit_line` of a line of which only `excerpt` is held: the same text."""
    return fit_line(prefix, held(raw, excerpt), first_match)


def fit_line(
    prefix: str,
    raw: bytes,
    first_match: Span | None = None,
    *,
    cap: int = LINE_CAP,
    lead: int = MATCH_LEAD,
) -> str:
    """`prefix` and the visible text of one source line, in at most `cap` bytes (D8)."""
    return prefix + fit_text(raw, first_match, room=cap - _size(prefix), lead=lead)


def fit_text(
    raw: bytes, first_match: Span | None = None, *, room: int = LINE_CAP, lead: int = MATCH_LEAD
) -> str:
    """The visible text of one source line, in at most `room` bytes (D8): what a line
    prints after its prefix (`N:`), which takes the rest of the line's cap.

    A line that does not fit is cut on a character boundary and marked with the bytes
    of the line left out: `…[+N bytes]` at the end, and `[+N bytes]…` at the start when
    the cut is made around the first match. That happens when the match would not show
    whole in the head of the line: the kept part then starts up to `lead` printed bytes
    before the match, or earlier when the rest of the line fits, so the room is used. A
    scope line (D55) passes its own room and the definition's name as `first_match`.
    """
    total = content_end(raw)
    if total <= room:
        text = visible_text(raw)
        if _size(text) <= room:
            return text
    right = _size(MARKER.format(total))
    head, head_end = _forward(raw, 0, room - right, total)
    if first_match is not None and first_match[1] > head_end:
        match = _char_start(raw, first_match[0], total)
        before, start = _backward(raw, match, lead)
        if start > 0:
            left = LEFT_MARKER.format(start)
            after, end = _forward(raw, match, room - _size(left) - _size(before) - right, total)
            if end < total:
                return left + before + after + MARKER.format(total - end)
            text, start = _backward(raw, total, room - _size(LEFT_MARKER.format(total)))
            return LEFT_MARKER.format(start) + text
    return head + MARKER.format(total - head_end)
