"""Counting a directory by reading only its candidate files (D58).

rg is handed the candidates by name, as the walk spelled them, instead of the
directory: what it prints for a file it reads is the same either way, since every
candidate holds no NUL byte as rg reads it (the binary ones are counted, never
handed), so rg's binary rule for a named file never applies. What rg says on
stderr about a named file would differ from a walk's, so any message there sends the
search back to a scan (None), which says it as a scan says it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from asrch.domain.counting import Tally
from asrch.domain.ports import CandidateFiles
from asrch.domain.query import Query
from asrch.engine.argv import BASE_FLAGS, pattern_args
from asrch.engine.counts import cut_at_cap, in_path_order, kept_by_filters, parse_count_records
from asrch.engine.process import Launch
from asrch.engine.stderr import RgSaid
from asrch.engine.transport import run_to_end

_ARGV_BYTES = 512 << 10
"""The paths handed to one rg run, at most: far below Linux's limit for all arguments."""


def count_chosen(
    rg: str,
    query: Query,
    target: str,
    chosen: CandidateFiles,
    *,
    cap: int,
    launch: Launch,
    census: bool,
) -> Tally | None:
    """The Tally of a scan of `target`, from rg's counts of the chosen files alone;
    None when rg said anything on stderr (the scan says it)."""
    launch = launch.walking(target)
    given = launch.operand(target)
    head = [rg, *BASE_FLAGS, "--count", "--with-filename", "--null", *pattern_args(query), "--"]
    found: list[tuple[bytes, int]] = []
    for batch in path_batches(chosen.files):
        output, said = run_to_end([*head, *batch], launch)
        if said.skipped or said.complaint is not None or said.log:
            return None
        found += parse_count_records(output)
    binary = [os.fsencode(path) for path in chosen.binary] if census else []
    if query.filters.active:
        kept = kept_by_filters(query, target, given)
        found = [item for item in found if kept(item[0])]
        binary = [path for path in binary if kept(path)]
    return cut_at_cap(in_path_order(found), target, RgSaid(), cap=cap, binary=binary, given=given)


def path_batches(paths: Sequence[str]) -> list[list[str]]:
    """`paths` in batches for one rg run each (argv far below the system's limit)."""
    batches: list[list[str]] = []
    size = 0
    for path in paths:
        if not batches or size > _ARGV_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += len(path) + 1
    return batches
