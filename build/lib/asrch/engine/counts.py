"""Parse `rg --count --with-filename --null` as it streams."""

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


def rg_path_order(path: bytes) -> list[bytes]:
    """rg's `--sort=path` order: Rust's `Path` comparison, component by component."""
    return path.split(b"/")


def count_files(rg: str, query: Query, target: str, *, cap: int) -> Tally:
    """Counts in rg's path order, cut at `cap` as a path-ordered scan would stop.

    rg runs without `--sort=path` (which would make it single-threaded) and every file
    is counted; sorting the counts by path and cutting at the cap gives exactly the
    Tally of a path-ordered scan stopped at the cap (tests hold it to `tally_from_json`).
    """
    with RgRun(count_argv(rg, query, target, sort=False)) as run:
        found = list(parse_count_records(run.chunks()))
        skipped = run.finish()
    found.sort(key=lambda item: rg_path_order(item[0]))
    files: list[FileCount] = []
    total = 0
    capped = False
    for path, n in found:
        kept = min(n, cap - total)
        # os.fsdecode's scheme (surrogate escapes for undecodable bytes), minus its cost.
        files.append(FileCount(path.decode("utf-8", "surrogateescape"), kept))
        total += kept
        if total >= cap:
            capped = True
            break
    return Tally.model_construct(files=tuple(files), capped=capped, skipped=skipped)
