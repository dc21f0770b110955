"""D53: show folds the matches in a header comment or test region, counting them."""

from asrch.domain.lines import FileScan, SourceLine
from asrch.domain.query import Query
from asrch.domain.regions import FoldedRegion, Region
from asrch.domain.show import build_show_report
from asrch.render.show import render_show
from asrch.spelling import COMMAND_LINE

Q = Query(term="needle")
TESTS = Region(20, 30, "tests", "#[cfg(test)] mod tests")
HEADER = Region(1, 3, "header", "header comment")


def _scan(matches: set[int], last: int = 30) -> FileScan:
    lines = tuple(SourceLine(n, f"line {n}\n".encode(), n in matches) for n in range(1, last + 1))
    return FileScan(lines=lines, kept=len(matches), matches=len(matches))


def test_matches_in_regions_fold_after_the_others_and_stay_counted() -> None:
    report = build_show_report(
        Q, "f.rs", _scan({2, 10, 22, 28}), context=1, regions=(HEADER, TESTS)
    )
    assert report.matches == 4
    assert [ln.number for s in report.snippets for ln in s.lines] == [9, 10, 11]
    assert report.folded == (FoldedRegion(HEADER, 1), FoldedRegion(TESTS, 2))
    text = render_show(report, COMMAND_LINE)
    assert text.endswith(
        "~ 1-3: 1 match in header comment (--folded shows them)\n"
        "~ 20-30: 2 matches in #[cfg(test)] mod tests (--folded shows them)\n"
    )


def test_every_match_in_a_region_folds_nothing() -> None:
    report = build_show_report(Q, "f.rs", _scan({22, 28}), context=1, regions=(TESTS,))
    assert report.folded == ()
    assert [ln.number for s in report.snippets for ln in s.lines if ln.is_match] == [22, 28]


def test_a_match_another_window_prints_is_printed_not_folded() -> None:
    report = build_show_report(Q, "f.rs", _scan({19, 20, 28}), context=1, regions=(TESTS,))
    assert [ln.number for s in report.snippets for ln in s.lines if ln.is_match] == [19, 20]
    assert report.folded == (FoldedRegion(TESTS, 1),)


def test_the_refusal_counts_folded_matches() -> None:
    report = build_show_report(Q, "f.rs", _scan({1, *range(10, 30)}), context=0, regions=(TESTS,))
    assert report.refused and report.matches == 21 and report.folded == ()
