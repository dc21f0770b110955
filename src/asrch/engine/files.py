"""Single-file searches for `sample` and `show`: kept matches, counts, line windows.

Memory stays bounded: only the first `keep` matches (and their context lines) hold
text; past them rg is stopped and the total comes from `rg --count --max-count`,
which for one file is exactly what a path-ordered scan stopped at the cap counts (D9).
"""

import os
import stat
import subprocess

from asrch.domain.errors import EngineError, InputError
from asrch.domain.lines import FileScan, FileWindow, SourceLine
from asrch.domain.query import Query
from asrch.domain.values import quote
from asrch.engine.argv import count_argv, json_argv
from asrch.engine.counts import parse_count_records
from asrch.engine.json_events import parse_events, split_lines
from asrch.engine.process import RgRun, judge_exit, run_to_end

_CHUNK = 1 << 20


def count_matches(rg: str, query: Query, file: str, *, cap: int) -> tuple[int, bool, int]:
    """Matching lines in one file, at most `cap`: (count, capped, skipped)."""
    argv = count_argv(rg, query, file)
    argv.insert(1, f"--max-count={cap}")
    output, skipped = run_to_end(argv)
    total = sum(count for _path, count in parse_count_records(output))
    return min(total, cap), total >= cap, skipped


def scan_file(rg: str, query: Query, file: str, *, context: int, keep: int, cap: int) -> FileScan:
    """The first `keep` matches of `file` with `context` lines around them, and the total.

    Context lines after the last kept match are kept too; the next match stops rg.
    """
    lines: list[SourceLine] = []
    kept = 0
    more = False
    with RgRun(json_argv(rg, query, file, context=context)) as run:
        for event in parse_events(split_lines(run.chunks())):
            if event.is_match and kept >= keep:
                more = True
                run.stop()
                break
            lines.append(
                SourceLine(event.line_number, event.text, event.is_match, event.first_match)
            )
            kept += event.is_match
        skipped = run.finish()
    if not more:
        return FileScan(lines=tuple(lines), kept=kept, matches=kept, skipped=skipped)
    total, capped, skipped = count_matches(rg, query, file, cap=cap)
    return FileScan(
        lines=tuple(lines),
        kept=kept,
        matches=max(total, kept + 1),
        capped=capped,
        skipped=skipped,
    )


def _open_regular(file: str) -> int:
    """Open for reading without ever blocking on a FIFO that replaced the file."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"error: cannot read {quote(file)}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"error: {quote(file)} is not a regular file; give one file")
    return fd


def read_lines(file: str, start: int, end: int) -> tuple[list[tuple[int, bytes]], int]:
    """Lines `start..end` (raw, LF kept) and the number of the file's last line.

    Streams the file in chunks: memory is the window, not the file. Window lines are
    kept whole, as rg's JSON hands them to `show`: whether a line matches, and how many
    bytes the 800-byte cap cuts, depend on all of it. A last line without LF still
    counts; an empty file has last line 0.
    """
    fd = _open_regular(file)
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
    rg: str, query: Query, raw: list[tuple[int, bytes]]
) -> dict[int, tuple[int, int] | None]:
    """Which of the window's lines match (with the span of each one's first match):
    rg reads just those lines on stdin.

    rg matches line by line, so a line matches on its own exactly as inside the
    file; this keeps `show --line` independent of the matches before the window.
    """
    if not raw:
        return {}
    data = b"".join(text if text.endswith(b"\n") else text + b"\n" for _, text in raw)
    try:
        done = subprocess.run(
            json_argv(rg, query, "-"), input=data, capture_output=True, check=False
        )
    except OSError as exc:
        raise EngineError(
            f"error: cannot run rg at {quote(rg)}: {exc.strerror or exc}; "
            "reinstall asrch or set ASRCH_RG"
        ) from None
    judge_exit(done.returncode, done.stderr)
    offset = raw[0][0] - 1
    events = parse_events(split_lines([done.stdout]))
    return {offset + e.line_number: e.first_match for e in events if e.is_match}


def read_window(rg: str, query: Query, file: str, *, line: int, context: int) -> FileWindow:
    start, end = max(1, line - context), line + context
    raw, last = read_lines(file, start, end)
    if not 1 <= line <= last:
        return FileWindow(last_line=last)
    found = window_matches(rg, query, raw)
    lines = tuple(SourceLine(n, text, n in found, found.get(n)) for n, text in raw)
    return FileWindow(lines=lines, last_line=last)
