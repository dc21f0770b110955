"""Parse `rg --count --with-filename --null` as it streams."""

import os
from collections.abc import Iterable, Iterator

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import EngineError
from asrch.domain.query import Query
from asrch.engine.argv import count_argv
from asrch.engine.process import RgRun


def parse_count_records(chunks: Iterable[bytes]) -> Iterator[tuple[bytes, int]]:
    """`path NUL count LF` records; a path may hold any byte but NUL, newlines too."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        start = 0
        while True:
            nul = buffer.find(b"\0", start)
            if nul < 0:
                break
            end = buffer.find(b"\n", nul)
            if end < 0:
                break
            digits = buffer[nul + 1 : end]
            if not digits.isdigit():
                raise EngineError(
                    "error: rg printed a count record asrch cannot read; "
                    "check that ASRCH_RG points at ripgrep 14"
                )
            yield buffer[start:nul], int(digits)
            start = end + 1
        buffer = buffer[start:]
    if buffer:
        raise EngineError("error: rg output ended inside a count record")


def count_files(rg: str, query: Query, target: str, *, cap: int) -> Tally:
    """Counts in path order; at `cap` the child is stopped and the last count cut."""
    files: list[FileCount] = []
    total = 0
    capped = False
    with RgRun(count_argv(rg, query, target)) as run:
        for raw_path, found in parse_count_records(run.chunks()):
            kept = min(found, cap - total)
            capped = total + found >= cap
            files.append(FileCount(path=os.fsdecode(raw_path), matches=kept))
            total += kept
            if capped:
                run.stop()
                break
        skipped = run.finish()
    return Tally(files=tuple(files), capped=capped, skipped=skipped)
