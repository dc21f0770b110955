"""`scout`: one term's distribution over one path."""

from typing import NamedTuple

from asrch.domain.counting import Ranked, Tally, top_directories, top_files
from asrch.domain.limits import TOP_N
from asrch.domain.next_step import NO_STEP, Step, scout_step
from asrch.domain.notices import Notice, search_notices
from asrch.domain.query import Query


class ScoutReport(NamedTuple):
    query: Query
    path: str
    matches: int
    files: int
    capped: bool
    top_directories: tuple[Ranked, ...]
    top_files: tuple[Ranked, ...]
    notices: tuple[Notice, ...]
    next_step: Step = NO_STEP


def build_scout_report(query: Query, path: str, tally: Tally, *, directory: bool) -> ScoutReport:
    """`directory`: the path is a directory (walked), not a named file."""
    ranked = top_files(tally.files, path, TOP_N)
    return ScoutReport(
        query=query,
        path=path,
        matches=tally.matches,
        files=len(tally.files),
        capped=tally.capped,
        top_directories=top_directories(tally.files, path, TOP_N),
        top_files=ranked,
        notices=tuple(search_notices(query, tally, path, directory=directory)),
        next_step=scout_step(query, path, ranked[0].path if ranked else None, directory=directory),
    )
