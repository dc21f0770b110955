"""Report building with plain values: no rg, no files."""

from asrch.domain.lines import FileScan, FileWindow, SourceLine
from asrch.domain.notices import RetentionNotice
from asrch.domain.query import Query
from asrch.domain.sample import build_sample_report
from asrch.domain.show import build_line_report, build_show_report
from asrch.render.sample import render_sample
from asrch.render.show import render_show
from asrch.spelling import COMMAND_LINE

Q = Query(term="needle")


def file_lines(matches: set[int], last: int) -> tuple[SourceLine, ...]:
    return tuple(SourceLine(n, f"line {n}\n".encode(), n in matches) for n in range(1, last + 1))


def test_cluster_snippets_first_and_last_only() -> None:
    lines = file_lines({10, 12, 14}, 20)
    scan = FileScan(lines=lines, kept=3, matches=3)
    report = build_sample_report(Q, "f.txt", scan, per_page=3, page=1)
    assert report.clusters == 1
    (view,) = report.shown
    numbers = [[ln.number for ln in s.lines] for s in view.snippets]
    assert numbers == [[9, 10, 11], [13, 14, 15]]


def test_single_line_cluster_printed_once() -> None:
    scan = FileScan(lines=file_lines({5}, 9), kept=1, matches=1)
    text = render_sample(build_sample_report(Q, "f.txt", scan, per_page=3, page=1), COMMAND_LINE)
    assert text.count("5:line 5") == 1


def test_past_end_page_is_empty_with_range() -> None:
    scan = FileScan(lines=file_lines({5}, 9), kept=1, matches=1)
    report = build_sample_report(Q, "f.txt", scan, per_page=3, page=2)
    assert report.shown == ()
    assert "valid pages: 1-1" in render_sample(report, COMMAND_LINE)


def test_retention_notice_when_more_than_kept() -> None:
    scan = FileScan(lines=file_lines({1}, 2), kept=1, matches=9000)
    report = build_sample_report(Q, "f.txt", scan, per_page=3, page=1)
    assert RetentionNotice(kept=1) in report.notices


def test_show_refuses_over_twenty() -> None:
    lines = file_lines(set(range(1, 21)), 20)
    ok = build_show_report(Q, "f.txt", FileScan(lines=lines, kept=20, matches=20), context=2)
    assert not ok.refused and len(ok.snippets) == 1
    over = build_show_report(Q, "f.txt", FileScan(lines=lines, kept=20, matches=21), context=2)
    assert over.refused and over.snippets == ()
    assert "narrow" in render_show(over, COMMAND_LINE)


def test_show_separates_far_snippets() -> None:
    scan = FileScan(lines=file_lines({2, 20}, 30), kept=2, matches=2)
    report = build_show_report(Q, "f.txt", scan, context=1)
    assert "\n--\n" in render_show(report, COMMAND_LINE)


def test_line_window_marks() -> None:
    window = FileWindow(lines=file_lines({4}, 6)[2:], last_line=6)
    report = build_line_report(Q, "f.txt", window, line=5, context=1)
    text = render_show(report, COMMAND_LINE)
    assert "4:line 4\n5-line 5\n6-line 6\n" in text
