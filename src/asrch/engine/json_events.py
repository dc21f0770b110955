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


LONG_RECORD = 1 << 20
"""A record this long is looked into as it arrives (a match in a line of megabytes)."""

# Neither key can occur inside a JSON string (its quotes would be escaped), so the
# first of each is the record's own field.
_SUBMATCHES = b'"submatches":['
_FIRST_SUBMATCH_END = re.compile(rb'"end":[0-9]+\}')


def _first_submatch_only(record: bytes, since: int) -> bytes | None:
    """`record` (a match record in arrival, from byte `since` not yet looked at) cut
    after its first submatch and closed, or None while that has not arrived."""
    at = record.find(_SUBMATCHES, max(0, since - len(_SUBMATCHES)))
    if at < 0:
        return None
    first = _FIRST_SUBMATCH_END.search(record, at)
    return None if first is None else record[: first.end()] + b"]}}"


def split_lines(chunks: Iterable[bytes], *, first_submatch_only: bool = False) -> Iterator[bytes]:
    """JSON Lines: rg escapes newlines inside values, so LF ends every record.

    Only each new chunk is split: a record of a 50 MB line spans hundreds of chunks,
    and re-splitting the growing record at every chunk took seconds.

    `first_submatch_only` (for `parse_events`, which reads no other): a match in a line
    of 200 MB is a record of twice that (rg lists every submatch, millions of them), so
    once a long record's first submatch has arrived the record is cut there and the rest
    of it skipped unread. Memory is then the line, not the record, and no time goes to
    decoding submatches nobody reads.
    """
    pending: list[bytes] = []
    size = 0
    looked = 0
    """How much of the pending record was looked into (at sizes doubling from
    LONG_RECORD, so joining it costs twice its size at most)."""
    skipping = False
    for arrived in chunks:
        chunk = arrived
        if skipping:
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
            if first_submatch_only and size >= max(LONG_RECORD, 2 * looked):
                record = b"".join(pending)
                short = _first_submatch_only(record, looked)
                if short is None:
                    pending, looked = [record], size
                    continue
                yield short
                pending, size, looked, skipping = [], 0, 0, True
            continue
        first, *complete, last = chunk.split(b"\n")
        if pending:
            pending.append(first)
            first = b"".join(pending)
        yield first
        yield from complete
        pending = [last] if last else []
        size, looked = len(last), 0
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
            kind = record["type"]
            if kind not in ("match", "context"):
                continue
            data = record["data"]
            raw_path = _data(data["path"])
            path = paths.get(raw_path)
            if path is None:
                path = paths[raw_path] = os.fsdecode(raw_path)
            first = data["submatches"][0] if kind == "match" and data["submatches"] else None
            yield LineEvent(
                path=path,
                line_number=int(data["line_number"]),
                text=_data(data["lines"]),
                is_match=kind == "match",
                first_match=None if first is None else (int(first["start"]), int(first["end"])),
            )
        except (ValueError, KeyError, TypeError) as exc:
            _unreadable(type(exc).__name__)


# Inside a JSON string every `"` is escaped, so this key cannot occur in a path or a
# line's text: each occurrence is a record's own field, and without context lines only
# match records have one.
_KEY = b'"line_number":'
_LINE_NUMBER = re.compile(rb'"line_number":([0-9]+)')


def last_line_number(block: bytes) -> int | None:
    """The line number of the block's last match record (None: it has none)."""
    at = block.rfind(_KEY)
    if at < 0:
        return None
    found = _LINE_NUMBER.match(block, at)
    if found is None:
        _unreadable("a line number that is not a number")
    return int(found[1])


def _unreadable(why: str) -> NoReturn:
    raise EngineError(
        f"rg printed JSON asrch cannot read ({why}); check that ASRCH_RG points at ripgrep 14"
    ) from None
