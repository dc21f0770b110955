"""A file's bytes as rg reads them (issue 32, items 4 and 7).

rg sniffs a byte-order mark at the start of each file it searches: after `FF FE` or
`FE FF` it decodes UTF-16 (little- or big-endian) and searches the text as UTF-8, a
malformed unit each one U+FFFD; after `EF BB BF` it drops the mark and reads the bytes
as they are. Its line numbers, match offsets and line text are those of what it read.
asrch's own readers (`show --line`'s window, the scope reader) read the same way, so a
line is the same line everywhere: `上` (`0A 4E` in UTF-16 LE) is no line break, and the
mark is not part of line 1.

rg's decoder drops a U+FEFF right after a UTF-16 mark too (`FF FE FF FE` starts with
nothing). And a file with a mark is read through rg's buffer, never memory-mapped, where
rg's binary rule for a file it is given turns each NUL into a line break (`a NUL b` is
2 lines; without a mark the file is mapped and NUL is a character of its line). Held
against rg itself on every mark and random units, NUL, lone surrogates and odd bytes
included (`tests/engine/test_decoding.py`).
"""

import codecs
from collections.abc import Iterable, Iterator

_UTF8_MARK = b"\xef\xbb\xbf"
_UTF16_MARKS = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
MARK_MAX = 3
"""The longest mark: how many bytes of a file's start `mark_of` needs."""


def mark_of(head: bytes) -> tuple[int, str | None]:
    """From a file's first bytes: how many bytes of mark to skip, and the UTF-16 codec to
    decode the rest with (None: the bytes are read as they are)."""
    if head.startswith(_UTF8_MARK):
        return len(_UTF8_MARK), None
    codec = _UTF16_MARKS.get(head[:2])
    return (2, codec) if codec else (0, None)


def utf16_as_utf8(chunks: Iterable[bytes], codec: str) -> Iterator[bytes]:
    """UTF-16 chunks (the mark skipped) as the UTF-8 rg searches, in chunks: a chunk may
    end inside a code unit or a surrogate pair."""
    decoder = codecs.getincrementaldecoder(codec)("replace")
    begun = False
    for chunk in chunks:
        text = decoder.decode(chunk)
        if not begun and text:
            begun = True
            text = text.removeprefix("\ufeff")
        if text:
            yield _buffered(text.encode("utf-8"))
    text = decoder.decode(b"", final=True)
    if not begun:
        text = text.removeprefix("\ufeff")
    if text:
        yield _buffered(text.encode("utf-8"))


def _buffered(data: bytes) -> bytes:
    """What rg's buffer holds of `data`: each NUL a line break."""
    return data.replace(b"\0", b"\n")


def buffered_chunks(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Chunks of a file with a UTF-8 mark (skipped) as rg's buffer holds them."""
    return map(_buffered, chunks)


def as_rg_reads(data: bytes) -> bytes:
    """A whole file's bytes as rg reads them."""
    skip, codec = mark_of(data[:MARK_MAX])
    if codec is None:
        return _buffered(data[skip:]) if skip else data
    return b"".join(utf16_as_utf8([data[skip:]], codec))
