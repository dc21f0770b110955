"""Why asrch missed: for each task a policy missed, per candidate term, where the answer
sits in what asrch would print — the answer file's rank among files (scout prints the
top 5), its matching lines, and which sample page (3 clusters a page) or `show` (at most
20 matches) prints a line of the answer's range.

    python -m bench.context.diagnose [--json bench/results/context.json]

Counts come from rg run with asrch's own arguments (exclusions included), so ranks are
the ones scout computes; clusters follow D18 (matches at most 2 lines apart).
"""

import argparse
import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from asrch.domain.query import Query
from asrch.engine.argv import count_argv
from asrch.engine.binary import resolve_rg
from bench.context import answers, tree
from bench.context.tasks import TASKS

CLUSTERS_PER_PAGE = 3
SHOW_LIMIT = 20
SHOW_CONTEXT = 2
SAMPLE_CONTEXT = 1


@dataclass(frozen=True, slots=True)
class TermFacts:
    term: str
    matches: int
    files: int
    rank: int | None
    """1-based rank of the answer's file by matching lines (ties by path); None: no match."""
    file_matches: int
    in_range: int
    """Matching lines inside the answer's range."""
    page: int | None
    """The first sample page that prints a line of the range; None: no page does."""
    pages: int
    by_show: bool
    """`show TERM FILE` (no --line) prints a line of the range."""


def file_counts(rg: str, term: str, root: Path) -> dict[str, int]:
    argv = count_argv(rg, Query(term=term), ".", log_binary=False)
    out = subprocess.run(argv, cwd=root, capture_output=True, check=False).stdout
    counts = {}
    for record in out.split(b"\n"):
        if b"\0" in record:
            path, _, n = record.partition(b"\0")
            counts[path.decode("utf-8", "surrogateescape").removeprefix("./")] = int(n)
    return counts


def matching_lines(rg: str, term: str, file: Path) -> list[int]:
    argv = [rg, "--no-config", "-n", "-F", "--no-filename", "-e", term, "--", str(file)]
    out = subprocess.run(argv, capture_output=True, check=False).stdout
    return [int(line.split(b":", 1)[0]) for line in out.splitlines() if line[:1].isdigit()]


def clusters(lines: list[int]) -> list[tuple[int, int]]:
    groups: list[list[int]] = []
    for n in lines:
        if groups and n - groups[-1][-1] <= 2:
            groups[-1].append(n)
        else:
            groups.append([n])
    return [(g[0], g[-1]) for g in groups]


def facts(rg: str, term: str, location: answers.Location, root: Path) -> TermFacts:
    counts = file_counts(rg, term, root)
    ranked = sorted(counts, key=lambda p: (-counts[p], p))
    rank = ranked.index(location.path) + 1 if location.path in ranked else None
    lines = matching_lines(rg, term, root / location.path) if rank else []

    def near(centre: int, context: int) -> bool:
        return location.start - context <= centre <= location.end + context

    groups = clusters(lines)
    page = None
    for index, (first, last) in enumerate(groups):
        if near(first, SAMPLE_CONTEXT) or near(last, SAMPLE_CONTEXT):
            page = index // CLUSTERS_PER_PAGE + 1
            break
    by_show = len(lines) <= SHOW_LIMIT and any(near(n, SHOW_CONTEXT) for n in lines)
    return TermFacts(
        term,
        sum(counts.values()),
        len(counts),
        rank,
        len(lines),
        sum(location.start <= n <= location.end for n in lines),
        page,
        -(-len(groups) // CLUSTERS_PER_PAGE),
        by_show,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, default=Path("bench/results/context.json"))
    parser.add_argument("--policy", default="asrch")
    args = parser.parse_args()
    data = json.loads(args.json.read_text())
    missed = [t["id"] for t in data["tasks"] if not t["policies"][args.policy]["found"]]
    by_id = {t.id: t for t in TASKS}
    rg = resolve_rg()
    with tempfile.TemporaryDirectory(prefix="asrch-context-") as tmp:
        root = tree.build(Path(tmp) / "stdlib")
        for task_id in missed:
            task = by_id[task_id]
            location = answers.resolve(root, task.answer)
            print(f"{task_id}: {location.path} {location.start}-{location.end}")
            for term in task.candidates:
                f = facts(rg, term, location, root)
                print(
                    f"  {term!r}: {f.matches} lines in {f.files} files; answer file rank "
                    f"{f.rank}, {f.file_matches} lines there, {f.in_range} in the range; "
                    f"sample page {f.page} of {f.pages}; show prints it: {f.by_show}"
                )


if __name__ == "__main__":
    main()
