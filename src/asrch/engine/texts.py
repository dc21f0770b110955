"""Which lines of texts asrch already holds a query matches: one rg over them all, as
survey's one pass judges the lines it gathered (`engine/one_pass.py`), so that the
matching is rg's own (modes, case, boundaries) and no file is read twice.

D53 in scout: the header comments read from the files' first bytes are judged here, not
by a second search of the whole files (on lnav's 553 files of `binary`, that search
read every file again: 300 ms of the 450 the fold reading took)."""

from bisect import bisect_right
from collections.abc import Mapping

from asrch.domain.limits import SCAN_CAP
from asrch.domain.query import Query
from asrch.engine.argv import judge_lines_argv
from asrch.engine.one_pass import judged_lines
from asrch.engine.process import HERE, Launch, scratch_for_child
from asrch.engine.transport import run_to_end


def lines_matching(
    rg: str, query: Query, texts: Mapping[str, bytes], *, launch: Launch = HERE
) -> dict[str, list[int]]:
    """For each text (lines as rg read them in their files, each with its line end), the
    numbers of its lines that `query` matches, from 1, in order; at most `SCAN_CAP` in
    all. One scratch file holds the texts one after another; rg numbers its lines, and
    each number is mapped back to its text."""
    names = list(texts)
    found: dict[str, list[int]] = {name: [] for name in names}
    if not names:
        return found
    starts: list[int] = []
    line = 1
    scratch, path = scratch_for_child()
    with scratch:
        for name in names:
            data = texts[name]
            if data and not data.endswith(b"\n"):
                data += b"\n"
            starts.append(line)
            scratch.write(data)
            line += data.count(b"\n")
        scratch.flush()
        output, _ = run_to_end(judge_lines_argv(rg, query, path, cap=SCAN_CAP), launch)
    for number in judged_lines(output):
        index = bisect_right(starts, number) - 1
        found[names[index]].append(number - starts[index] + 1)
    return found
