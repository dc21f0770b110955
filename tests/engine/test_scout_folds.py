"""D53 in scout over the real engine: rg's matching lines, the lexical headers and the
parse of test regions; what is read stays within its bounds whatever the tree."""

from collections.abc import Sequence
from pathlib import Path

from asrch.commands.scout import run_scout
from asrch.domain.limits import TEST_FILES_MAX
from asrch.domain.notices import FoldedNotice
from asrch.domain.query import SearchOptions
from asrch.domain.regions import Header, Region
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher

SEARCHER = RipgrepSearcher()
LICENCE = "# Copyright 2026 A.\n# Licensed: no warranty for the pool.\n# See LICENSE.\n\n"


class Recording(ScopeReader):
    """The real reader, counting what scout asks of it."""

    def __init__(self) -> None:
        super().__init__()
        self.headers_asked: list[str] = []
        self.tests_asked: list[str] = []

    def headers(self, files: Sequence[str]) -> dict[str, Header]:
        self.headers_asked += files
        return super().headers(files)

    def tests(self, file: str) -> tuple[Region, ...]:
        self.tests_asked.append(file)
        return super().tests(file)


def test_scout_ranks_by_the_lines_outside_headers_and_tests(tmp_path: Path) -> None:
    for i in range(30):
        (tmp_path / f"m{i:02d}.py").write_text(LICENCE + "x = 1\n")
    code = "def take(pool):\n    return pool.pop()\n"
    methods = "".join(f"    def t{i}(self):\n        pool()\n" for i in range(5))
    tests = "\n\nclass TestPool:\n" + methods
    (tmp_path / "core.py").write_text(LICENCE + code + tests)
    scopes = Recording()
    report = run_scout(SEARCHER, "pool", str(tmp_path), SearchOptions(), scopes=scopes)
    # 31 header lines; 8 in core.py (1 header, 2 code, 5 tests; `TestPool` is no match).
    assert report.matches == 38
    assert report.top_files[0].path == "core.py" and report.top_files[0].matches == 8
    notice = next(n for n in report.notices if isinstance(n, FoldedNotice))
    assert (notice.header, notice.tests, notice.matches) == (31, 5, 38)
    assert len(scopes.tests_asked) <= TEST_FILES_MAX
    assert len(scopes.headers_asked) == 31


def test_few_folded_lines_reorder_nothing(tmp_path: Path) -> None:
    """Under a quarter: the plain ranking, no note."""
    (tmp_path / "a.py").write_text(LICENCE + "pool = 1\n" * 3)
    (tmp_path / "b.py").write_text("pool = 2\n" * 20)
    report = run_scout(SEARCHER, "pool", str(tmp_path), SearchOptions(), scopes=Recording())
    assert not any(isinstance(n, FoldedNotice) for n in report.notices)
    assert [r.path for r in report.top_files] == ["b.py", "a.py"]
