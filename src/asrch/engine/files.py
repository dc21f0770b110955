"""Single-file searches for `sample` and `show`: kept matches, counts, line windows.

Memory stays bounded: only the first `keep` matches (and their context lines) hold
text; past them rg is stopped and the total comes from `rg --count --max-count`,
which for one file is exactly what a path-ordered scan stopped at the cap counts (D9).
"""

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError, InputError
from asrch.domain.lines import Excerpt, FileScan, FileWindow, SourceLine, Span, excerpt_ranges
from asrch.domain.query import Query
from asrch.domain.text_safety import PATH_ECHO_MAX, quote, quote_cut
from asrch.engine.argv import count_argv, json_argv, listing_argv, numbers_argv, operand
from asrch.engine.counts import cut_at_cap, in_path_order, parse_counts
from asrch.engine.decoding import MARK_MAX, buffered_chunks, mark_of, utf16_as_utf8
from asrch.engine.json_events import (
    LINE_NUMBER,
    LINE_NUMBER_KEY,
    LONG_RECORD,
    LineEvent,
    last_line_number,
    parse_events,
    split_lines,
    stopped_at_nul,
)
from asrch.engine.process import HERE, Launch
from asrch.engine.transport import judged, run_to_end

_CHUNK = 1 << 20


def count_matches(
    rg: str, query: Query, file: str, *, cap: int, launch: Launch = HERE
) -> tuple[int, bool, int]:
    """Matching lines in one file, at most `cap`: (count, capped, skipped)."""
    argv = count_argv(rg, query, launch.operand(file))
    argv.insert(1, f"--max-count={cap}")
    output, said = run_to_end(argv, launch)
    total = sum(count for _path, count in parse_counts(output))
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
    argv = json_argv(rg, query, launch.operand(file), context=context)
    with launch.transport.start(argv, launch, stream=True) as run:
        tail = _Tail(run.chunks())
        for event in parse_events(split_lines(tail, first_submatch_only=True)):
            if event.is_match and kept >= keep:
                more = True
                run.stop()
                break
            lines.append(_source_line(event, file, launch))
            kept += event.is_match
        skipped = judged(argv, run.end()).skipped
        if not more:
            tail.check_summed()
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


def matching_lines(
    rg: str, query: Query, files: Sequence[str], *, keep: int, launch: Launch = HERE
) -> dict[str, tuple[SourceLine, ...]]:
    """The first `keep` matching lines of each of `files`, by file as given: one rg run
    for all of them (each named, so rg reads each as `scan_file` does), not one each."""
    handed = {file: launch.operand(file) for file in files}
    given = {operand(handed[file]): file for file in files}
    found: dict[str, list[SourceLine]] = {file: [] for file in files}
    argv = json_argv(rg, query, [handed[f] for f in files], max_count=keep)
    with launch.transport.start(argv, launch, stream=True) as run:
        tail = _Tail(run.chunks())
        for event in parse_events(split_lines(tail, first_submatch_only=True)):
            lines = found.get(given.get(event.path, ""))
            if lines is None:
                raise EngineError(
                    f"rg printed a line of {quote(event.path)}, a file asrch did not name"
                )
            if event.is_match and len(lines) < keep:
                lines.append(_source_line(event, given[event.path], launch))
        judged(argv, run.end())
        tail.check_summed()
    return {file: tuple(lines) for file, lines in found.items()}


# `numbers_argv`'s records of one file: each matching line's number, its text omitted.
_NUMBERED = re.compile(rb"(?:[0-9]+:\[Omitted long matching line\]\n)+")
_NUMBER = re.compile(rb"([0-9]+):")


def line_numbers(
    rg: str, query: Query, files: Sequence[str], *, keep: int, launch: Launch = HERE
) -> dict[str, tuple[int, ...]] | None:
    """The numbers of the first `keep` matching lines of each of `files`, by file as
    given, as `matching_lines` finds them but without their text (a line of 200 MB was
    read out as JSON once per term). None where rg printed anything else for a file (one
    that holds a NUL: rg says so in a line of its own): `matching_lines` reads it then."""
    handed = {file: launch.operand(file) for file in files}
    given = {os.fsencode(operand(handed[file])): file for file in files}
    output, _ = run_to_end(
        numbers_argv(rg, query, [handed[f] for f in files], max_count=keep), launch
    )
    found: dict[str, tuple[int, ...]] = dict.fromkeys(files, ())
    pos = 0
    while pos < len(output):
        nul = output.find(b"\0", pos)
        stop = output.find(b"\n\n", nul)
        end = len(output) if stop < 0 else stop + 1
        file = given.get(output[pos:nul]) if nul >= 0 else None
        if file is None or not _NUMBERED.fullmatch(output, nul + 1, end):
            return None
        found[file] = tuple(int(n) for n in _NUMBER.findall(output, nul + 1, end))[:keep]
        pos = end + 1
    return found


def count_and_lines(
    rg: str, query: Query, target: str, *, cap: int, keep: int, launch: Launch = HERE
) -> tuple[Tally, dict[str, tuple[SourceLine, ...]]] | None:
    """A directory's count (as `counts.count_files` without the census) and the matching
    lines of each file counted (as `matching_lines`), from one walk (`listing_argv`);
    None once rg has printed more than `keep` matching lines: rg is stopped, and the
    caller counts and reads the lines apart (issue 41, item 5: a small answer's second
    rg run was most of a warm MCP call).

    The count is the walk's own: a file rg stopped reading at a NUL byte (its `end`
    record says where) is dropped, as `rg --count` prints none for it; binary files are
    not counted (`binary` 0). Output that is not rg's JSON gives None too: the count
    plan then says what is wrong, in the words every answer uses."""
    walking = launch.walking(target)
    given = walking.operand(target)
    argv = listing_argv(rg, query, given)
    found: dict[bytes, list[LineEvent]] = {}
    stopped: set[bytes] = set()
    matched = 0
    with walking.transport.start(argv, walking, stream=True) as run:
        tail = _Tail(run.chunks())
        try:
            for record in split_lines(tail, first_submatch_only=True):
                if record.startswith(b'{"type":"match"'):
                    matched += 1
                    if matched > keep:
                        run.stop()
                        return None
                    for event in parse_events((record,)):
                        found.setdefault(os.fsencode(event.path), []).append(event)
                elif (binary := stopped_at_nul(record)) is not None:
                    stopped.add(binary)
        except EngineError:
            run.stop()  # not rg's JSON: the count plan reads rg as ever, and says so
            return None
        said = judged(argv, run.end())
        try:
            tail.check_summed()
        except EngineError:
            return None
    counted = in_path_order(
        [(path, len(lines)) for path, lines in found.items() if path not in stopped]
    )
    tally = cut_at_cap(counted, target, said._replace(binary=0), cap=cap, binary=[], given=given)
    # The tally's files are the first of those counted (all, short of the cap).
    lines_of = {
        file.path: tuple(_source_line(event, file.path, launch) for event in found[path])
        for (path, _), file in zip(counted, tally.files, strict=False)
    }
    return tally, lines_of


def _source_line(event: LineEvent, file: str, launch: Launch) -> SourceLine:
    """The line of `event`; one too long to hold (`event.offset`) as its `Excerpt`,
    read from the file where rg said the line starts."""
    if event.offset is None:
        return SourceLine(event.line_number, event.text, event.is_match, event.first_match)
    text, excerpt = read_excerpt(file, event.offset, event.first_match, launch)
    return SourceLine(event.line_number, text, event.is_match, event.first_match, excerpt=excerpt)


def read_excerpt(
    file: str, offset: int, first_match: Span | None, launch: Launch = HERE
) -> tuple[bytes, Excerpt]:
    """What can be printed of the line that starts at byte `offset` of `file` as rg reads
    it (after a byte-order mark; UTF-16 decoded, `engine/decoding.py`), D8: its
    `Excerpt` and the kept bytes. The line's length is found by reading on to its LF in
    chunks; nothing but the excerpt is held."""
    fd = _open_regular(file, launch)
    try:
        skip, codec = mark_of(os.pread(fd, MARK_MAX, 0))
        if codec is None:
            size = _line_size(_chunks_at(fd, skip + offset))
            ranges = excerpt_ranges(size, first_match)
            text = b"".join(os.pread(fd, e - s, skip + offset + s) for s, e in ranges)
            return text, Excerpt(size, ranges)
        # Decoded text cannot be read at an offset: read on to it, twice (its length
        # first, then the kept ranges), holding only those.
        size = _line_size(_from(_decoded(fd, skip, codec), offset))
        ranges = excerpt_ranges(size, first_match)
        kept = _ranges_of(_from(_decoded(fd, skip, codec), offset), ranges)
        return kept, Excerpt(size, ranges)
    finally:
        os.close(fd)


def _chunks_at(fd: int, at: int) -> Iterator[bytes]:
    while chunk := os.pread(fd, _CHUNK, at):
        yield chunk
        at += len(chunk)


def _decoded(fd: int, skip: int, codec: str) -> Iterator[bytes]:
    os.lseek(fd, skip, os.SEEK_SET)
    return utf16_as_utf8(_chunks(fd), codec)


def _from(chunks: Iterable[bytes], offset: int) -> Iterator[bytes]:
    """`chunks` from byte `offset` of what they hold on."""
    for chunk in chunks:
        if offset >= len(chunk):
            offset -= len(chunk)
            continue
        yield chunk[offset:]
        offset = 0


def _line_size(chunks: Iterable[bytes]) -> int:
    """Bytes up to and including the first LF of `chunks` (all of them if none)."""
    size = 0
    for chunk in chunks:
        end = chunk.find(b"\n")
        if end >= 0:
            return size + end + 1
        size += len(chunk)
    return size


def _ranges_of(chunks: Iterable[bytes], ranges: Sequence[Span]) -> bytes:
    """The bytes of `ranges` (sorted, disjoint) of what `chunks` hold, joined."""
    parts: list[bytes] = []
    at = 0
    for chunk in chunks:
        for start, end in ranges:
            low, high = max(start, at), min(end, at + len(chunk))
            if low < high:
                parts.append(chunk[low - at : high - at])
        at += len(chunk)
        if at >= ranges[-1][1]:
            break
    return b"".join(parts)


def _open_regular(file: str, launch: Launch) -> int:
    """Open for reading without ever blocking on a FIFO that replaced the file."""
    try:
        fd = os.open(launch.here(file), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(
            f"cannot read {quote_cut(file, PATH_ECHO_MAX)}: {exc.strerror or exc}"
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"{quote(file)} is not a regular file; give one file")
    return fd


class Unheld(NamedTuple):
    """A window line longer than `read_lines` was told to hold: where it starts in the
    file, and its size (its LF included)."""

    offset: int
    size: int


def _whole(fd: int, begun: int, size: int, hold: int | None) -> bytes | Unheld:
    """The line at `begun` of `size` bytes, read in one piece, or where it lies if it is
    longer than `hold`."""
    if hold is not None and size > hold:
        return Unheld(begun, size)
    return os.pread(fd, size, begun)


def read_lines(
    file: str, start: int, end: int, launch: Launch = HERE, *, hold: int | None = None
) -> tuple[list[tuple[int, bytes | Unheld]], int]:
    """Lines `start..end` (LF kept) and the number of the file's last line, as rg reads
    the file: after a byte-order mark, the text rg decodes (`engine/decoding.py`), so
    every line number is rg's.

    Streams the file in chunks: memory is the window, not the file. Window lines are
    kept whole, as rg's JSON hands them to `show`: whether a line matches, and how many
    bytes the 800-byte cap cuts, depend on all of it; in a file without a byte-order
    mark, a line longer than `hold` is not read at all but said where it lies
    (`Unheld`), so the caller reads what can be printed of it (issue 32, item 10). A
    last line without LF still counts; an empty file has last line 0.
    """
    fd = _open_regular(file, launch)
    try:
        skip, codec = mark_of(os.pread(fd, MARK_MAX, 0))
        os.lseek(fd, skip, os.SEEK_SET)
        if codec is not None or skip:
            stream = utf16_as_utf8(_chunks(fd), codec) if codec else buffered_chunks(_chunks(fd))
            return _walk_window(stream, start, end, reread=None)
        # The bytes as they are (rg maps the file: a NUL is no break), at the offsets
        # `pread` takes.
        return _walk_window(
            _chunks(fd), start, end, reread=lambda at, size: _whole(fd, at, size, hold)
        )
    finally:
        os.close(fd)


def _chunks(fd: int) -> Iterator[bytes]:
    while chunk := os.read(fd, _CHUNK):
        yield chunk


def _walk_window(
    chunks: Iterable[bytes],
    start: int,
    end: int,
    *,
    reread: Callable[[int, int], bytes | Unheld] | None,
) -> tuple[list[tuple[int, bytes | Unheld]], int]:
    """`read_lines`' one walk over `chunks`. A window line that spans chunks is got back
    by `reread(offset, size)` once its end is known, in one piece of exactly its size
    (a line of 300 MB is held once, never grown), where the file can be read at an
    offset; a stream that cannot be read again (decoded text, `reread` None) holds its
    parts until its end."""
    found: list[tuple[int, bytes | Unheld]] = []
    offset = 0
    """Where in the stream `chunk` starts."""
    number = 1
    begun: int | None = None
    """Where the window line being read began, if in an earlier chunk."""
    held: list[bytes] = []
    """Its parts so far, when there is no `reread`."""
    tail_open = False
    for chunk in chunks:
        size = len(chunk)
        tail_open = chunk[-1:] != b"\n"
        newlines = chunk.count(b"\n")
        if begun is None and (number > end or number + newlines < start):
            # Nothing of this chunk is in the window: only count its lines.
            number += newlines
            offset += size
            continue
        pos = 0
        if number < start:
            # The window starts in this chunk (`newlines` says so): its first line is
            # found at C speed, not a Python step per line before it.
            pos = size - len(chunk.split(b"\n", start - number)[-1])
            number = start
        while pos < size:
            if number > end:
                number += chunk.count(b"\n", pos)
                break
            nl = chunk.find(b"\n", pos)
            if nl < 0:
                if begun is None:
                    begun = offset + pos
                if reread is None:
                    held.append(chunk[pos:])
                break
            if begun is None:
                found.append((number, chunk[pos : nl + 1]))
            elif reread is not None:
                found.append((number, reread(begun, offset + nl + 1 - begun)))
            else:
                found.append((number, b"".join([*held, chunk[pos : nl + 1]])))
            begun, held = None, []
            number += 1
            pos = nl + 1
        offset += size
    if tail_open and begun is not None:
        # The last line, without LF, in the window.
        found.append((number, reread(begun, offset - begun) if reread else b"".join(held)))
    if tail_open:
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
    argv = json_argv(rg, query, launch.operand(file))
    with launch.transport.start(argv, launch, stream=True) as run:
        tail = _Tail(run.chunks())
        stopped = False
        for number, span in _match_fields(tail, start):
            if number > end:
                run.stop()
                stopped = True
                break
            if number >= start:
                found[number] = span
        judged(argv, run.end())
        if not stopped:
            tail.check_summed()
    return found


class _Tail:
    """Chunks passed on as they come, the last few bytes kept: rg's `--json` output
    ends in its summary record whatever it found, so output without one is no rg's
    (`ASRCH_RG=/bin/true` printed nothing, read as no match; issue 39, item 9). Checked
    once rg is judged (a pattern rg refused is its reason, not this) and only when it
    ran to its end."""

    _KEEP = 4096

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks = chunks
        self._tail = b""

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._chunks:
            self._tail = (self._tail + chunk)[-self._KEEP :]
            yield chunk

    def check_summed(self) -> None:
        last = self._tail.rstrip(b"\n").rpartition(b"\n")[2]
        if not last.endswith(b'"type":"summary"}'):
            raise EngineError(
                "rg printed JSON asrch cannot read (no summary at its end); check that "
                "ASRCH_RG points at ripgrep 14"
            )


def _match_fields(chunks: Iterable[bytes], start: int) -> Iterator[tuple[int, Span | None]]:
    """Each match record's line number and first match, in rg's order, from line
    `start` on (earlier ones may be skipped a block at a time). A record that spans
    chunks (the line of a minified file) is never joined: its head and the fields
    after its text are all that is read of it."""
    pending: _LongRecord | None = None
    for chunk in chunks:
        pos = 0
        if pending is not None:
            nl = chunk.find(b"\n")
            if nl < 0:
                pending.feed(chunk)
                continue
            pending.feed(chunk[:nl])
            yield from pending.fields()
            pending = None
            pos = nl + 1
        cut = chunk.rfind(b"\n", pos) + 1
        if cut > pos:
            block = chunk[pos:cut]
            last = last_line_number(block)
            if last is not None and last >= start:
                yield from _matches(block)
            pos = cut
        if pos < len(chunk):
            pending = _LongRecord()
            pending.feed(chunk[pos:])
    if pending is not None:
        yield from pending.fields()


class _LongRecord:
    """One record of rg's JSON read in parts: whether it is a match, then its line
    number, then its first match's span, each found by a search that carries a few
    bytes from one part to the next; nothing else of the record is kept."""

    _CARRY = 64

    def __init__(self) -> None:
        self._head = b""
        self._carry = b""
        self._number: int | None = None
        self._span: Span | None = None

    def feed(self, part: bytes) -> None:
        if len(self._head) < len(_MATCH):
            self._head += part[: len(_MATCH) - len(self._head)]
        if not _MATCH.startswith(self._head) or self._span is not None:
            return  # not a match record (begin, end, summary), or all found
        window = self._carry + part
        at = 0
        if self._number is None:
            numbered = LINE_NUMBER.search(window)
            # Digits at the very end may go on in the next part.
            if numbered is None or numbered.end() == len(window):
                self._carry = window[-self._CARRY :]
                return
            self._number = int(numbered[1])
            at = numbered.end()
        found = _SPAN.search(window, at)
        if found is None or found.end() == len(window):
            self._carry = window[max(at, len(window) - self._CARRY) :]
            return
        self._span = (int(found[1]), int(found[2]))

    def fields(self) -> Iterator[tuple[int, Span | None]]:
        """At the record's end: its line number and first match, if a match record."""
        if not self._head.startswith(_MATCH):
            return
        window = self._carry
        if self._number is None:
            numbered = LINE_NUMBER.search(window)
            if numbered is None:
                raise EngineError(
                    "rg printed JSON asrch cannot read (a match record without its line "
                    "number); check that ASRCH_RG points at ripgrep 14"
                )
            self._number = int(numbered[1])
            window = window[numbered.end() :]
        if self._span is None and (found := _SPAN.search(window)) is not None:
            self._span = (int(found[1]), int(found[2]))
        yield self._number, self._span


# Inside a JSON string every `"` is escaped, so none of these can occur in a path, a
# line's text or a match's text: each is a field of rg's own record.
_MATCH = b'{"type":"match",'
_FIRST_SUBMATCH = re.compile(rb'"submatches":\[(?:\{"match":\{"(?:text|bytes)":)?')
_SPAN = re.compile(rb'"start":([0-9]+),"end":([0-9]+)')


def _matches(block: bytes) -> Iterator[tuple[int, Span | None]]:
    """Each match record's line number and first match, read where they lie in the
    record: a line's text (300 MB for a minified line) is never decoded."""
    at = 0
    while (at := block.find(_MATCH, at)) >= 0:
        key = block.find(LINE_NUMBER_KEY, at)
        numbered = LINE_NUMBER.match(block, key)
        listed = _FIRST_SUBMATCH.search(block, key)
        if numbered is None or listed is None:
            raise EngineError(
                "rg printed JSON asrch cannot read (a match record without its fields); "
                "check that ASRCH_RG points at ripgrep 14"
            )
        span = None
        if listed.end() > listed.start() + len(b'"submatches":['):
            found = _SPAN.search(block, listed.end())
            span = None if found is None else (int(found[1]), int(found[2]))
        yield int(numbered[1]), span
        at = listed.end()


def read_window(
    rg: str,
    query: Query,
    file: str,
    *,
    line: int,
    context: int,
    span: Span | None = None,
    launch: Launch = HERE,
) -> FileWindow:
    """Lines `line - context .. line + context`, or `span`; no query term: none marked."""
    start, end = span or (max(1, line - context), line + context)
    # rg's labels first: its output for a long line is gone before the window's text
    # is read (peak memory about twice the line, not four or five times, issue 20).
    found = window_matches(rg, query, file, start, end, launch=launch) if query.term else {}
    raw, last = read_lines(file, start, end, launch, hold=LONG_RECORD)
    if not 1 <= line <= last:
        return FileWindow(last_line=last)
    lines = []
    for n, text in raw:
        if isinstance(text, Unheld):
            kept, excerpt = read_excerpt(file, text.offset, found.get(n), launch)
            lines.append(SourceLine(n, kept, n in found, found.get(n), excerpt=excerpt))
        else:
            lines.append(SourceLine(n, text, n in found, found.get(n)))
    return FileWindow(lines=tuple(lines), last_line=last)
