"""Parse `rg --json` incrementally into the few events asrch uses."""

import base64
import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, NoReturn

from asrch.domain.errors import EngineError


class LineEvent(NamedTuple):
    """One matching (`is_match`) or context line; `text` keeps rg's raw bytes.

    A tuple, not a model: a scan may yield tens of thousands of these.
    """

    path: str
    line_number: int
    text: bytes
    is_match: bool
    first_match: tuple[int, int] | None = None
    """Byte offsets of the first submatch in `text` (match events only)."""
    offset: int | None = None
    """Set for a line too long to hold (`split_lines`): `text` is empty and the line is
    read from its file where it starts, this byte offset (rg's `absolute_offset`)."""


LONG_RECORD = 1 << 20
"""A record this long is looked into as it arrives (a match in a line of megabytes)."""

_HEAD = 1 << 16
"""The start of a long record kept: its type and path (a path's JSON is at most ~24 KB)."""
_CARRY = 128
# None of these can occur inside a JSON string (its quotes would be escaped): each is
# the record's own field.
_FIELDS = re.compile(rb'"line_number":([0-9]+),"absolute_offset":([0-9]+),"submatches":\[(\])?')
_FIRST_SPAN = re.compile(rb'"start":([0-9]+),"end":([0-9]+)\}')


class _Skim:
    """A record of a line too long to hold, read as it arrives and not kept (issue 32,
    item 10): its type and path from its head, then the fields after the line's text,
    found by searches that carry a few bytes from one chunk to the next. `feed` gives
    the record rebuilt without the text, marked `asrch_cut`, once its first submatch
    (or its empty list) has arrived."""

    def __init__(self) -> None:
        self._head = b""
        self._kind = b""
        self._path: bytes | None = None
        self._window = b""
        self._fields: tuple[int, int] | None = None

    def feed(self, chunk: bytes) -> bytes | None:
        if self._path is None:
            # The head, until its path has arrived whole (`"lines":` follows it).
            taken = _HEAD - len(self._head)
            self._head += chunk[:taken]
            start, end = self._head.find(b'"path":'), self._head.find(b',"lines":')
            if end < 0:
                if len(self._head) >= _HEAD:
                    _unreadable("a long record without its type or path")
                return None
            if not self._head.startswith(b'{"type":"') or start < 0:
                _unreadable("a long record without its type or path")
            self._kind = self._head[9 : self._head.index(b'"', 9)]
            self._path = self._head[start + 7 : end]
            chunk = self._head[end:] + chunk[taken:]
            self._head = b""
        window = self._window + chunk
        if self._fields is None:
            found = _FIELDS.search(window)
            if found is None or found.end() == len(window):
                self._window = window[-_CARRY:]
                return None
            self._fields = (int(found[1]), int(found[2]))
            if found[3] or self._kind != b"match":
                return self._record(b"")
            window = window[found.end() :]
        span = _FIRST_SPAN.search(window)
        if span is None:
            self._window = window[-_CARRY:]
            return None
        return self._record(b'{"match":{"text":""},"start":%s,"end":%s}' % (span[1], span[2]))

    def _record(self, submatch: bytes) -> bytes:
        assert self._fields is not None and self._path is not None
        number, offset = self._fields
        return (
            b'{"type":"%s","data":{"path":%s,"lines":{"text":""},"asrch_cut":true,'
            b'"line_number":%d,"absolute_offset":%d,"submatches":[%s]}}'
            % (self._kind, self._path, number, offset, submatch)
        )


def split_lines(chunks: Iterable[bytes], *, first_submatch_only: bool = False) -> Iterator[bytes]:
    """JSON Lines: rg escapes newlines inside values, so LF ends every record.

    Only each new chunk is split: a record of a 50 MB line spans hundreds of chunks,
    and re-splitting the growing record at every chunk took seconds.

    `first_submatch_only` (for `parse_events`, which reads no other): a record longer
    than LONG_RECORD (a line of megabytes; rg lists every submatch too, millions of them)
    is not held: it is read as it arrives for its type, path, line number, offset and
    first submatch, and given back without its text (`_Skim`), the rest skipped unread.
    Whoever prints the line reads what can be printed of it from the file (D8), so memory
    stays that of short lines (issue 32, item 10: a 200 MB line took 818 MiB).
    """
    pending: list[bytes] = []
    size = 0
    skim: _Skim | None = None
    skipping = False
    whole = False
    """The pending record is held whole whatever its length (not a line's)."""
    for arrived in chunks:
        chunk = arrived
        if skim is not None:
            record = skim.feed(chunk)
            if record is None:
                continue
            yield record
            skim, skipping = None, True
        if skipping:
            # The record's own LF is the first in this chunk (none came before it).
            end = chunk.find(b"\n")
            if end < 0:
                continue
            skipping = False
            chunk = chunk[end + 1 :]
            if not chunk:
                continue
        if b"\n" not in chunk:
            pending.append(chunk)
            size += len(chunk)
            if first_submatch_only and size >= LONG_RECORD and not whole:
                record = b"".join(pending)
                if not record.startswith((b'{"type":"match"', b'{"type":"context"')):
                    pending, whole = [record], True  # not a line's record: held whole
                    continue
                pending, size = [], 0
                skim = _Skim()
                short = skim.feed(record)
                if short is not None:
                    yield short
                    skim, skipping = None, True
            continue
        first, *complete, last = chunk.split(b"\n")
        if pending:
            pending.append(first)
            first = b"".join(pending)
        yield first
        yield from complete
        pending = [last] if last else []
        size, whole = len(last), False
    if pending:
        yield b"".join(pending)


def _data(field: dict[str, Any]) -> bytes:
    # rg writes valid UTF-8 as {"text": …} and anything else as {"bytes": base64}.
    if "text" in field:
        return str(field["text"]).encode("utf-8")
    return base64.b64decode(field["bytes"])


# rg's JSON is always UTF-8 (other bytes travel as base64), so each record is decoded
# as text first: `json.loads` on bytes would sniff the encoding of every line.
_decode_json = json.JSONDecoder().decode


def parse_events(lines: Iterable[bytes]) -> Iterator[LineEvent]:
    paths: dict[bytes, str] = {}
    for line in lines:
        if not line:
            continue
        try:
            record = _decode_json(line.decode("utf-8"))
            record_type = record["type"]
            if record_type not in ("match", "context"):
                continue
            data = record["data"]
            raw_path = _data(data["path"])
            path = paths.get(raw_path)
            if path is None:
                path = paths[raw_path] = os.fsdecode(raw_path)
            first = data["submatches"][0] if record_type == "match" and data["submatches"] else None
            yield LineEvent(
                path=path,
                line_number=int(data["line_number"]),
                text=_data(data["lines"]),
                is_match=record_type == "match",
                first_match=None if first is None else (int(first["start"]), int(first["end"])),
                offset=int(data["absolute_offset"]) if data.get("asrch_cut") else None,
            )
        except (ValueError, KeyError, TypeError) as exc:
            _unreadable(type(exc).__name__)


def stopped_at_nul(record: bytes) -> bytes | None:
    """The path (rg's bytes) of an `end` record whose file rg stopped reading at a NUL
    byte (`binary_offset` set), else None: any other record, or a file read whole."""
    if not record.startswith(b'{"type":"end"'):
        return None
    try:
        data = _decode_json(record.decode("utf-8"))["data"]
        return None if data["binary_offset"] is None else _data(data["path"])
    except (ValueError, KeyError, TypeError) as exc:
        _unreadable(type(exc).__name__)


# Inside a JSON string every `"` is escaped, so this key cannot occur in a path or a
# line's text: each occurrence is a record's own field, and without context lines only
# match records have one. Public: `files.py` reads the same fields of the same records.
LINE_NUMBER_KEY = b'"line_number":'
LINE_NUMBER = re.compile(rb'"line_number":([0-9]+)')


def last_line_number(block: bytes) -> int | None:
    """The line number of the block's last match record (None: it has none)."""
    at = block.rfind(LINE_NUMBER_KEY)
    if at < 0:
        return None
    found = LINE_NUMBER.match(block, at)
    if found is None:
        _unreadable("a line number that is not a number")
    return int(found[1])


def _unreadable(why: str) -> NoReturn:
    raise EngineError(
        f"rg printed JSON asrch cannot read ({why}); check that ASRCH_RG points at ripgrep 14"
    ) from None
