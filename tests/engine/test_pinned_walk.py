"""An MCP call's walk of a pinned directory (`Launch.walking`): of the root, rg starts
in the pinned directory itself and is handed `.`, not `/proc/PID/fd/N`, which procfs
resolves for every file rg opens (1.12x rg's CPU on the stdlib, issue 34); below the
root, rg starts in a directory of asrch's own and is handed the path from the root, its
last component a link to the pinned object (issue 39, item 4: the root's ignore rules
are rebased to that path). The counts, the paths spelled back, the filters, the binary
files and the unreadable ones are those of the same search by name; a recording
transport keeps where each rg ran and what its operand was then.
"""

import os
from pathlib import Path

import pytest

from asrch.domain.filters import make_filters
from asrch.domain.query import Query
from asrch.engine import pins
from asrch.engine.mock_rg import MockRg, Reply, Request, recorded
from asrch.engine.searcher import RipgrepSearcher

pytestmark = pytest.mark.skipif(not pins.SUPPORTED, reason="pinning needs Linux's /proc")

CAP = 50_000


def _tree(root: Path) -> None:
    (root / "d" / "sub").mkdir(parents=True)
    (root / ".gitignore").write_text("ignored.txt\n")
    (root / "d" / "a.py").write_text("alpha\nalpha beta\n")
    (root / "d" / "ignored.txt").write_text("alpha\n")
    (root / "d" / "sub" / "b.txt").write_text("beta alpha\n")
    (root / "d" / "sub" / "bin.dat").write_bytes(b"alpha\x00\x01")
    (root / "d" / "name: odd").write_text("alpha\n")
    locked = root / "d" / "locked.txt"
    locked.write_text("alpha\n")
    locked.chmod(0)
    (root / "top.py").write_text("alpha\n")


def _recording() -> tuple[MockRg, list[Request]]:
    """The real rg, each run's request kept with its working directory resolved as rg
    ran (a pinned one names a descriptor that is closed once the pins are)."""
    runs: list[Request] = []

    def run(request: Request) -> Reply:
        # Where the operand led as rg ran: the farm below a root is gone afterwards.
        led = os.path.realpath(os.path.join(request.cwd or ".", request.argv[-1]))
        runs.append(request._replace(cwd=led))
        return recorded(request)

    return MockRg(run), runs


@pytest.mark.parametrize("target", ["d", "d/", ".", "d/sub"])
@pytest.mark.parametrize("census", [False, True])
def test_a_pinned_walk_runs_in_the_directory_and_counts_as_by_name(
    tmp_path: Path, target: str, census: bool
) -> None:
    root = tmp_path / "root"
    _tree(root)
    recording, runs = _recording()
    held = pins.Pins([str(root)])
    try:
        pinned = RipgrepSearcher(cwd=str(root), pins=held, transport=recording)
        by_name = RipgrepSearcher(cwd=str(root))
        for query in (
            Query(term="alpha"),
            Query(term="alpha", filters=make_filters((), ["!*.txt"], {}, cwd=str(root))),
        ):
            got = pinned.count(query, target, cap=CAP, census=census)
            assert got == by_name.count(query, target, cap=CAP, census=census)
        assert by_name.count(Query(term="alpha"), target, cap=1, census=census) == (
            pinned.count(Query(term="alpha"), target, cap=1, census=census)
        )
    finally:
        held.close()
    walked = (root / target).resolve()
    assert runs
    spelled = "." if target == "." else target.rstrip("/")
    for request in runs:
        assert request.cwd is not None and os.path.samefile(request.cwd, walked)
        assert not any("/proc/" in word for word in request.argv if not word.startswith("--"))
        assert request.argv[-2:] in (("--", spelled), ("--", spelled + "/"))


def test_a_pinned_survey_walks_in_the_directory(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _tree(root)
    recording, runs = _recording()
    held = pins.Pins([str(root)])
    queries = [Query(term="alpha"), Query(term="beta")]
    searcher = RipgrepSearcher(cwd=str(root), pins=held, transport=recording)
    try:
        got = searcher.count_terms(queries, "d", cap=CAP)
    finally:
        held.close()
    assert got == RipgrepSearcher(cwd=str(root)).count_terms(queries, "d", cap=CAP)
    walks = [r for r in runs if r.argv[-2:] == ("--", "d")]
    assert walks, runs
    assert all(r.cwd is not None and os.path.samefile(r.cwd, root / "d") for r in walks)
