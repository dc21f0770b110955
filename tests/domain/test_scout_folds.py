"""D53 in scout (domain/scout_folds.py, domain/scout.py): lines in header comments and
in-file tests rank last when they are at least a quarter; counts never change; what is
read is bounded."""

from asrch.domain.counting import FileCount, Ranked, Tally
from asrch.domain.limits import HEADER_FILES_MAX, TEST_FILES_MAX
from asrch.domain.modes import Mode
from asrch.domain.notices import FoldedNotice
from asrch.domain.query import Query, SearchOptions
from asrch.domain.regions import Region
from asrch.domain.scout import build_scout_report
from asrch.domain.scout_folds import (
    FoldedLines,
    files_for_tests,
    folded_lines,
    header_files,
    ranks,
)

HEADER = Region(1, 4, "header", "header comment")
TESTS = Region(20, 40, "tests", "#[cfg(test)] mod tests")
FILES = (
    FileCount("src/a.cc", 2),
    FileCount("src/b.cc", 5),
    FileCount("src/frame.rs", 7),
    FileCount("include/a.h", 2),
)


def _folded() -> FoldedLines:
    return folded_lines(
        FILES,
        {
            "src/a.cc": [2, 4],
            "src/b.cc": [2, 4, 9, 10, 11],
            "src/frame.rs": [2, 25, 26, 30, 33, 35, 38],
            "include/a.h": [2, 4],
        },
        {"src/a.cc": HEADER, "src/b.cc": HEADER, "include/a.h": HEADER},
        {"src/frame.rs": (TESTS,)},
    )


def test_lines_in_headers_and_tests_are_counted_per_file() -> None:
    folded = _folded()
    assert (folded.header, folded.tests, folded.matches) == (6, 6, 12)
    assert folded.per_file == {"src/a.cc": 2, "src/b.cc": 2, "src/frame.rs": 6, "include/a.h": 2}


def test_a_file_never_folds_more_than_its_count() -> None:
    """A capped count's last file counted fewer lines than were read."""
    folded = folded_lines((FileCount("a.c", 1),), {"a.c": [1, 2, 3]}, {"a.c": HEADER}, {})
    assert folded.per_file == {"a.c": 1}


def test_the_tables_rank_by_the_other_lines_from_a_quarter_on() -> None:
    assert ranks(FoldedLines(1, 0, {}), 4)
    assert not ranks(FoldedLines(1, 0, {}), 5)
    assert not ranks(FoldedLines(4, 0, {}), 4)  # every line folded: nothing reordered
    assert not ranks(None, 4)
    assert not ranks(FoldedLines(0, 0, {}), 4)


def _report(folded: FoldedLines | None):  # type: ignore[no-untyped-def]
    query = Query("binary", SearchOptions(mode=Mode.FIXED))
    return build_scout_report(query, ".", Tally(FILES), directory=True, folded=folded)


def test_ranked_rows_keep_every_count_and_the_note_says_why() -> None:
    plain = _report(None)
    assert plain.top_files[0] == Ranked("src/frame.rs", 7)
    report = _report(_folded())
    assert report.top_files == (
        Ranked("src/b.cc", 5),
        Ranked("src/frame.rs", 7),
        Ranked("include/a.h", 2),
        Ranked("src/a.cc", 2),
    )
    assert report.top_directories == (Ranked("src", 14), Ranked("include", 2))
    assert report.matches == plain.matches == 16
    assert report.next_step[-1] == (("query", "binary"), ("file", "src/b.cc"))
    assert FoldedNotice(16, False, 6, 6) in report.notices
    assert not any(isinstance(n, FoldedNotice) for n in plain.notices)


def test_what_is_read_is_bounded() -> None:
    many = tuple(FileCount(f"f{i:05d}.py", 1 + i % 7) for i in range(HEADER_FILES_MAX + 500))
    chosen = header_files(many)
    assert len(chosen) == HEADER_FILES_MAX
    assert min(f.matches for f in many if f.path in set(chosen)) >= max(
        f.matches for f in many if f.path not in set(chosen)
    )  # the files with the most lines
    looked = files_for_tests(many, lambda p: "source")
    assert len(looked) == TEST_FILES_MAX
    kinds = {"tests/t.py": "test", "src/a.py": "source", "src/a.cc": "source"}
    files = (FileCount("tests/t.py", 9), FileCount("src/a.py", 1), FileCount("src/a.cc", 5))
    assert files_for_tests(files, kinds.__getitem__) == ["src/a.py"]
