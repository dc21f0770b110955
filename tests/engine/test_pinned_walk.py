"""An MCP call's walk of a pinned directory: rg starts in the pinned directory itself and
is handed `.` (`Launch.walking`), not `/proc/PID/fd/N`, which procfs resolves for every
file rg opens (1.12x rg's CPU on the stdlib, issue 34). The counts, the paths spelled
back, the filters, the binary files and the unreadable ones are those of the same
search by name; an `ASRCH_RG` stand-in records where each rg ran and what it was handed.
"""

import os
import shlex
from pathlib import Path

import pytest

from asrch.domain.filters import make_filters
from asrch.domain.query import Query
from asrch.engine import pins
from asrch.engine.binary import resolve_rg
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


def _recording_rg(tmp_path: Path) -> tuple[str, Path]:
    log = tmp_path / "runs.log"
    script = tmp_path / "recording-rg"
    rg = shlex.quote(resolve_rg())
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\t%s\\n" "$(pwd -P)" "$*" >> {shlex.quote(str(log))}\n'
        f'exec {rg} "$@"\n'
    )
    script.chmod(0o755)
    return str(script), log


@pytest.mark.parametrize("target", ["d", "d/", ".", "d/sub"])
@pytest.mark.parametrize("census", [False, True])
def test_a_pinned_walk_runs_in_the_directory_and_counts_as_by_name(
    tmp_path: Path, target: str, census: bool
) -> None:
    root = tmp_path / "root"
    _tree(root)
    rg, log = _recording_rg(tmp_path)
    held = pins.Pins([str(root)])
    try:
        pinned = RipgrepSearcher(rg, cwd=str(root), pins=held)
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
    runs = [line.split("\t") for line in log.read_text().splitlines()]
    assert runs
    for where, argv in runs:
        assert os.path.samefile(where, walked)
        assert "/proc/" not in argv
        assert argv.endswith(("-- .", "-- ./"))


def test_a_pinned_survey_walks_in_the_directory(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _tree(root)
    rg, log = _recording_rg(tmp_path)
    held = pins.Pins([str(root)])
    queries = [Query(term="alpha"), Query(term="beta")]
    try:
        got = RipgrepSearcher(rg, cwd=str(root), pins=held).count_terms(queries, "d", cap=CAP)
    finally:
        held.close()
    assert got == RipgrepSearcher(cwd=str(root)).count_terms(queries, "d", cap=CAP)
    walks = [line.split("\t") for line in log.read_text().splitlines() if "-- ." in line]
    assert walks, log.read_text()
    assert all(os.path.samefile(where, root / "d") for where, _ in walks)
