"""Single-file searches for `sample` and `show`: kept matches, counts, line windows.

Memory stays bounded: only the first `keep` matches (and their context lines) hold
text; past them rg is stopped and the total comes from `rg --count --max-count`,
which for one file is exactly what a path-ordered scan stopped at the cap counts (D9).
"""

import os
import stat

from asrch.domain.errors import InputError
from asrch.domain.lines import FileScan, FileWindow, SourceLine, Span
from asrch.domain.query import Query
from asrch.domain.values import quote
from asrch.engine.argv import count_argv, json_argv
from asrch.engine.counts import parse_count_records
from asrch.engine.json_events import (
    last_line_number,
    parse_events,
    record_blocks,
    split_lines,
)
from asrch.engine.process import HERE, Launch, RgRun, run_to_end

_CHUNK = 1 << 20


def count_matches(
    rg: str, query: Query, file: str, *, cap: int, launch: Launch = HERE
) -> tuple[int, bool, int]:
    """Matching lines in one file, at most `cap`: (count, capped, skipped)."""
    argv = count_argv(rg, query, file)
    argv.insert(1, f"--max-count={cap}")
    output, said = run_to_end(argv, launch)
    total = sum(count for _path, count in parse_count_records(output))
    return min(total, cap), total >= cap, said.skipped


def scan_file(
    rg: str,
    query: Query,
    file: str,
    *,
    context: int,
    keep: int,
    cap: int,
    launch: Launch = HERE,
) -> FileScan:
    """The first `keep` matches of `file` with `context` lines around them, and the total.

    Context lines after the last kept match are kept too; the next match stops rg.
    """
    lines: list[SourceLine] = []
    kept = 0
    more = False
    with RgRun(json_argv(rg, query, file, context=context), launch) as run:
        for event in parse_events(split_lines(run.chunks())):
            if event.is_match and kept >= keep:
                more = True
                run.stop()
                break
            lines.append(
                SourceLine(event.line_number, event.text, event.is_match, event.first_match)
            )
            kept += event.is_match
        skipped = run.finish().skipped
    if not more:
        return FileScan(lines=tuple(lines), kept=kept, matches=kept, skipped=skipped)
    total, capped, skipped = count_matches(rg, query, file, cap=cap, launch=launch)
    return FileScan(
        lines=tuple(lines),
        kept=kept,
        matches=max(total, kept + 1),
        capped=capped,
        skipped=skipped,
    )


def _open_regular(file: str, launch: Launch) -> int:
    """Open for reading without ever blocking on a FIFO that replaced the file."""
    try:
        fd = os.open(launch.here(file), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"cannot read {quote(file)}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"{quote(file)} is not a regular file; give one file")
    return fd


def read_lines(
    file: str, start: int, end: int, launch: Launch = HERE
) -> tuple[list[tuple[int, bytes]], int]:
    """Lines `start..end` (raw, LF kept) and the number of the file's last line.

    Streams the file in chunks: memory is the window, not the file. Window lines are
    kept whole, as rg's JSON hands them to `show`: whether a line matches, and how many
    bytes the 800-byte cap cuts, depend on all of it. A last line without LF still
    counts; an empty file has last line 0.
    """
    fd = _open_regular(file, launch)
    found: list[tuple[int, bytes]] = []
    number = 1
    current = bytearray()
    tail_open = False
    try:
        while chunk := os.read(fd, _CHUNK):
            size = len(chunk)
            tail_open = chunk[-1:] != b"\n"
            newlines = chunk.count(b"\n")
            if number > end or number + newlines < start:
                # Nothing of this chunk is in the window: only count its lines.
                number += newlines
                continue
            pos = 0
            while pos < size:
                nl = chunk.find(b"\n", pos)
                if number < start:
                    if nl < 0:
                        break
                    number += 1
                    pos = nl + 1
                    continue
                if number > end:
                    number += chunk.count(b"\n", pos)
                    break
                stop = size if nl < 0 else nl + 1
                current += chunk[pos:stop]
                if nl < 0:
                    break
                found.append((number, bytes(current)))
                current.clear()
                number += 1
                pos = stop
    finally:
        os.close(fd)
    if tail_open:
        if start <= number <= end:
            found.append((number, bytes(current)))
        return found, number
    return found, number - 1


def window_matches(
    rg: str, query: Query, file: str, start: int, end: int, *, launch: Launch = HERE
) -> dict[int, Span | None]:
    """Which of lines `start..end` match, with the span of each one's first match:
    rg's own answer on the whole file.

    rg searches the file itself, as `sample` and `show` do, and is stopped past `end`:
    whatever rg makes of a NUL byte, a CR or a byte-order mark before the window, the
    labels are its. Records are decoded only in the blocks of output that reach the
    window; before it, only each block's last line number is read.
    """
    found: dict[int, Span | None] = {}
    with RgRun(json_argv(rg, query, file), launch) as run:
        for block in record_blocks(run.chunks()):
            last = last_line_number(block)
            if last is None or last < start:
                continue
            for event in parse_events(block.split(b"\n")):
                if event.is_match and start <= event.line_number <= end:
                    found[event.line_number] = event.first_match
            if last > end:
                run.stop()
                break
        run.finish()
    return found


def read_window(
    rg: str, query: Query, file: str, *, line: int, context: int, launch: Launch = HERE
) -> FileWindow:
    start, end = max(1, line - context), line + context
    raw, last = read_lines(file, start, end, launch)
    if not 1 <= line <= last:
        return FileWindow(last_line=last)
    found = window_matches(rg, query, file, start, end, launch=launch)
    lines = tuple(SourceLine(n, text, n in found, found.get(n)) for n, text in raw)
    return FileWindow(lines=lines, last_line=last)
