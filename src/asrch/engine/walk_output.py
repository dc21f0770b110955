"""What both survey plans read the same way from a walk that printed a file's matches
grouped under its path (`--heading`): rg's warning that ends a binary file, how the
walk ended, and each term's files cut at the cap."""

import re
from collections.abc import Callable, Iterable

from asrch.domain.counting import Tally
from asrch.domain.errors import EngineError
from asrch.engine.counts import cut_at_cap, rg_path_order
from asrch.engine.stderr import RgSaid
from asrch.engine.transport import Ended, judged

# rg's line printer, on a binary file it stopped reading at a NUL after some matching
# lines, ends the file's lines with this one (`PATH: WARNING: …`).
BINARY_WARNING = re.compile(
    rb': WARNING: stopped searching binary file after match \(found "\\0" byte around '
    rb"offset [0-9]+\)"
)


def looks_binary_after_match(path: bytes, lines: bytes) -> bool:
    """Whether a file's printed lines (LF-ended) end with rg's binary warning for `path`
    (which may hold a LF itself)."""
    head = path + b": WARNING: "
    at = lines.rfind(b"\n" + head)
    start = at + 1 if at >= 0 else 0 if lines.startswith(head) else -1
    return (
        start >= 0
        and BINARY_WARNING.fullmatch(lines, start + len(path), len(lines) - 1) is not None
    )


def said_by_walk(argv: list[str], ended: Ended, *, printed: bool, log: bool) -> RgSaid:
    """rg's stderr judged (`judged`), once the walk is known to be rg's own: its status
    agrees with what it printed, and asked for its log, it wrote one."""
    said = judged(argv, ended)
    if not ended.stopped and ended.status in (0, 1) and (ended.status == 0) != printed:
        # rg exits 0 when it printed a matching line, 1 when it found none (2: errors,
        # with or without matches): a run that says otherwise is no rg's
        # (`ASRCH_RG=/bin/true`; issue 39, item 9).
        raise EngineError(
            f"rg ended with status {ended.status} but printed "
            f"{'a line' if printed else 'nothing'}; check that ASRCH_RG points at ripgrep 14"
        )
    if log and not ended.stopped and b"rg: DEBUG|" not in ended.stderr[:4096]:
        # Asked for its log, rg always writes one (its first line says why it read no
        # configuration file): a silent run is no rg's, whatever its status. Without the
        # log, a silent status 1 is rg finding nothing; that answer is 0 everywhere,
        # so the plan walks again with the log and lands here (issue 39, item 9).
        raise EngineError(
            "rg printed no log under --debug; check that ASRCH_RG points at ripgrep 14"
        )
    return said


def cut_each(
    found: Iterable[Iterable[tuple[bytes, int]]],
    target: str,
    said: RgSaid,
    binary: list[bytes],
    *,
    kept: Callable[[bytes], bool] | None,
    cap: int,
    given: str,
) -> list[Tally]:
    """Each term's files (path, matching lines; in path order) cut at the cap as
    `cut_at_cap` cuts one scan; `binary`: the binary files rg met (read from its log
    once), the filters' share of them (`kept`) put in path order once for every term."""
    binary_kept = None if kept is None else [p for p in binary if kept(p)]
    order = sorted(map(rg_path_order, binary if binary_kept is None else binary_kept))
    return [
        cut_at_cap(
            files,
            target,
            said,
            cap=cap,
            binary=binary_kept,
            binary_order=order,
            given=given,
        )
        for files in found
    ]
