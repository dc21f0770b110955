"""D53's cost on scout (issue 40): what ranking header comments and in-file tests last
adds to a scout, against the scout's own count and bare `rg --count` in the same run.

In process, interleaved per round: the count scout makes (`searcher.count`), then the
fold reading (`commands/scout_folds.folded_in`: the header comments of the 2,000 files
with the most lines read without a parse, the test regions of at most 10 marked Python
and Rust files parsed, 1-2 more rg searches for where those files match); and whole
processes, `rg --count` of the same term (parallel, unsorted: the fastest a user runs)
and `asrch scout` itself. Medians of wall and CPU time (this process's and its rg
children's, `resource`), and the ratios the goal reads: folds / count (target: at most
`GOAL` of the count, or `GOAL_MS`, so a scout with D53 costs at most 1 + `GOAL` times one
without on a tree where the count takes seconds).

Rows: the installed lib (941 MB here) for `Copyright` (2,916 lines in 2,641 files: the
header bound met) and `license`; `ASRCH_FOLD_TREE` adds a tree of your own, with its
term after a colon (`/tmp/lnav:binary`: the race's C++ tree, its licence headers).

    python -m bench.folds [--repeat N]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sysconfig
import time
from pathlib import Path

from asrch.commands.scout_folds import folded_in
from asrch.domain.counting import Tally
from asrch.domain.limits import SCAN_CAP
from asrch.domain.query import Query
from asrch.domain.scout_folds import FoldedLines
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from bench.run import ASRCH, rg_count

GOAL = 0.5
GOAL_MS = 100.0
"""The fold reading costs at most half the count it follows, or at most 100 ms on a
small tree whose count is fast (wall, medians)."""


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime) * 1000


class Clock:
    """Wall and CPU milliseconds since `start` (this process and its waited children)."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), _cpu()

    def read(self) -> tuple[float, float]:
        return (time.perf_counter() - self.wall) * 1000, _cpu() - self.cpu


def _process(argv: list[str]) -> tuple[float, float]:
    clock = Clock()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=False)
    return clock.read()


def rows() -> list[tuple[str, str]]:
    lib = sysconfig.get_paths()["stdlib"]
    found = [(lib, "Copyright"), (lib, "license")]
    extra = os.environ.get("ASRCH_FOLD_TREE")
    if extra:
        tree, _, term = extra.rpartition(":")
        found.append((tree, term))
    return found


def measure(tree: str, term: str, repeat: int) -> None:
    searcher, scopes = RipgrepSearcher(), ScopeReader()
    query = Query(term=term)
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in ("count", "folds", "rg", "scout")}
    folded: FoldedLines | None = None
    tally: Tally | None = None
    for _ in range(repeat):
        clock = Clock()
        tally = searcher.count(query, tree, cap=SCAN_CAP)
        times["count"].append(clock.read())
        clock = Clock()
        folded = folded_in(searcher, scopes, query, tree, tally)
        times["folds"].append(clock.read())
        times["rg"].append(_process(rg_count(term, tree)))
        times["scout"].append(_process([*ASRCH, "scout", term, tree]))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in times.items()}  # fmt: skip
    files = len(tally.files) if tally is not None else 0
    said = (
        f"header {folded.header}, tests {folded.tests}, headers unread in {folded.unread} files"
        if folded is not None
        else "none"
    )
    print(f"{Path(tree).name} {term}: {tally.matches if tally else 0} lines in {files} files; "
          f"folded: {said}")  # fmt: skip
    for key, (wall, cpu) in med.items():
        print(f"  {key:<6} wall {wall:>8.1f} ms  cpu {cpu:>8.1f} ms")
    ratio = med["folds"][0] / med["count"][0]
    met = ratio <= GOAL or med["folds"][0] <= GOAL_MS
    print(
        f"  folds / count: wall {ratio:.2f}, cpu {med['folds'][1] / med['count'][1]:.2f}; "
        f"scout / rg --count: wall {med['scout'][0] / med['rg'][0]:.2f}; "
        f"goal folds <= {GOAL:.1f} x count or {GOAL_MS:.0f} ms: {'yes' if met else 'NO'} "
        f"(load {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for tree, term in rows():
        measure(tree, term, args.repeat)


if __name__ == "__main__":
    main()
