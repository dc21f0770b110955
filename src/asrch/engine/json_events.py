"""Parse `rg --json` incrementally into the few events asrch uses."""

import base64
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, NoReturn

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import json_argv
from asrch.engine.process import RgRun


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


def split_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """JSON Lines: rg escapes newlines inside values, so LF ends every record.

    Only each new chunk is split: a record of a 50 MB line spans hundreds of chunks,
    and re-splitting the growing record at every chunk took seconds.
    """
    pending: list[bytes] = []
    for chunk in chunks:
        if b"\n" not in chunk:
            pending.append(chunk)
            continue
        first, *complete, last = chunk.split(b"\n")
        if pending:
            pending.append(first)
            first = b"".join(pending)
        yield first
        yield from complete
        pending = [last] if last else []
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


def _unreadable(why: str) -> NoReturn:
    raise EngineError(
        f"error: rg printed JSON asrch cannot read ({why}); "
        "check that ASRCH_RG points at ripgrep 14"
    ) from None


def tally_from_json(rg: str, query: Query, target: str, *, cap: int) -> Tally:
    """The reference count: a path-ordered JSON scan stopped at the cap (D9).

    `count_files` must give the same Tally; tests hold the two to that.
    """
    counts: dict[str, int] = {}
    total = 0
    with RgRun(json_argv(rg, query, target)) as run:
        for event in parse_events(split_lines(run.chunks())):
            if not event.is_match:
                continue
            counts[event.path] = counts.get(event.path, 0) + 1
            total += 1
            if total >= cap:
                run.stop()
                break
        skipped = run.finish()
    files = tuple(FileCount(path=p, matches=n) for p, n in counts.items())
    return Tally(files=files, capped=total >= cap, skipped=skipped)
