"""The use cases (`asrch.commands`) against a fake engine (tests/support/fake_searcher.py):
what each asks the engine, in which order, and how it turns the answers into a report
(counts, notices, next steps, pages, input errors). Which lines rg matches is held
against rg in tests/engine/; here the engine's answers are given."""

import pytest

from asrch.commands.sample import run_sample
from asrch.commands.scout import run_scout
from asrch.commands.show import run_show
from asrch.commands.survey import run_survey
from asrch.domain.counting import FileCount, Ranked, Tally
from asrch.domain.errors import AsrchError, InputError
from asrch.domain.limits import KEEP_CAP, SCAN_CAP, SHOW_MAX_MATCHES
from asrch.domain.modes import Mode
from asrch.domain.notices import (
    CapNotice,
    NestedPathNotice,
    NoMatchNotice,
    RetentionNotice,
    SamePathNotice,
    ShortTermNotice,
    SkippedNotice,
)
from asrch.domain.ports import Entry, PathStatus
from asrch.domain.query import SearchOptions
from asrch.domain.words import spelled
from asrch.spelling import COMMAND_LINE
from tests.support.fake_scopes import NO_SCOPES
from tests.support.fake_searcher import FakeSearcher

TREE = {
    "src/net/pool.py": "connect\nx\nconnect()\n",
    "src/net/http.py": "connect\n",
    "src/app.py": "x\n",
    "docs/guide.md": "connect here\nand connect there\nconnect\n",
}
FIXED = SearchOptions()


# --- scout ---------------------------------------------------------------------------


def said(error: AsrchError) -> str:
    """The error's words as the command line prints them."""
    return spelled(error.message, COMMAND_LINE)


def test_scout_counts_ranks_and_steps_to_the_top_file() -> None:
    engine = FakeSearcher(files=TREE)
    report = run_scout(engine, "connect", "src", FIXED, scopes=NO_SCOPES)
    assert (report.matches, report.files, report.capped) == (3, 2, False)
    assert report.top_files == (Ranked("net/pool.py", 2), Ranked("net/http.py", 1))
    assert report.top_directories == (Ranked("net", 3),)
    assert report.notices == ()
    # 3 lines: listed by file in path order (D32), and no step: the agent has them (D44).
    assert [(f.path, [ln.number for ln in f.lines]) for f in report.listed] == [
        ("src/net/http.py", [1]),
        ("src/net/pool.py", [1, 3]),
    ]
    assert not report.next_step
    # The path checked once, one count under it with the scan cap, no type list read;
    # then the listed files read in one search.
    assert engine.calls[:2] == [("inspect", "src"), ("resolve", "src")]
    assert engine.called("count") == [("count", "connect", "src")]
    assert engine.called("matching_lines") == [
        ("matching_lines", "connect", ("src/net/http.py", "src/net/pool.py"), 20)
    ]
    assert engine.called("scan") == []


def test_scout_past_20_lines_lists_nothing_and_steps_to_sample() -> None:
    many = Tally(files=(FileCount("src/net/pool.py", 21),))
    engine = FakeSearcher(files=TREE, tallies={("connect", "src"): many})
    report = run_scout(engine, "connect", "src", FIXED, scopes=NO_SCOPES)
    assert report.listed == ()
    assert COMMAND_LINE.argv(report.next_step) == ("asrch", "sample", "connect", "src/net/pool.py")
    assert engine.called("scan") == engine.called("matching_lines") == []


def test_scout_of_a_named_file_steps_to_that_file() -> None:
    engine = FakeSearcher(files=TREE)
    many = Tally(files=(FileCount("docs/guide.md", 21),))
    engine = FakeSearcher(files=TREE, tallies={("connect", "docs/guide.md"): many})
    report = run_scout(
        engine, "connect", "docs/guide.md", SearchOptions(mode=Mode.WORD), scopes=NO_SCOPES
    )
    assert report.matches == 21
    assert COMMAND_LINE.argv(report.next_step) == (
        "asrch",
        "sample",
        "--word",
        "connect",
        "docs/guide.md",
    )


def test_scout_lists_no_more_than_2000_bytes() -> None:
    """D44: 20 lines of 120 bytes are within the count but not the bytes: not listed,
    and the step is sample; 20 lines of 60 bytes are listed, and no step follows."""
    for width, listed in ((120, False), (60, True)):
        body = "".join(f"connect {'x' * (width - 8)}\n" for _ in range(20))
        engine = FakeSearcher(files={"long.py": body})
        report = run_scout(engine, "connect", ".", FIXED, scopes=NO_SCOPES)
        assert report.matches == 20
        assert bool(report.listed) is listed, width
        assert (not report.next_step) is listed, width


def test_scout_with_no_match_says_so_and_suggests_nothing() -> None:
    report = run_scout(FakeSearcher(files=TREE), "absent", ".", FIXED, scopes=NO_SCOPES)
    assert report.matches == 0
    assert NoMatchNotice(directory=True) in report.notices
    assert COMMAND_LINE.argv(report.next_step) == ()


def test_scout_past_the_cap_names_where_counting_stopped() -> None:
    capped = Tally(
        files=(FileCount("src/a.py", 30_000), FileCount("src/b.py", 20_000)), capped=True
    )
    engine = FakeSearcher(files=TREE, tallies={("connect", "src"): capped})
    report = run_scout(engine, "connect", "src", FIXED, scopes=NO_SCOPES)
    assert (report.matches, report.capped) == (SCAN_CAP, True)
    assert CapNotice(last_path="b.py") in report.notices


def test_scout_passes_on_what_the_walk_skipped() -> None:
    skipping = Tally(files=(FileCount("src/net/http.py", 1),), skipped=2)
    engine = FakeSearcher(files=TREE, tallies={("connect", "src"): skipping})
    assert (
        SkippedNotice(files=2)
        in run_scout(engine, "connect", "src", FIXED, scopes=NO_SCOPES).notices
    )


def test_a_short_term_is_noted() -> None:
    report = run_scout(FakeSearcher(files=TREE), "x", ".", FIXED, scopes=NO_SCOPES)
    assert ShortTermNotice(term="x") in report.notices


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (PathStatus(Entry.MISSING), "path gone does not exist"),
        (
            PathStatus(Entry.UNREADABLE, "Permission denied"),
            "cannot read gone: Permission denied",
        ),
        (PathStatus(Entry.SPECIAL), "path gone is a FIFO, socket or device; give"),
    ],
)
def test_scout_refuses_a_path_it_cannot_search_before_searching(
    status: PathStatus, message: str
) -> None:
    engine = FakeSearcher(files=TREE, statuses={"gone": status})
    with pytest.raises(InputError) as raised:
        run_scout(engine, "connect", "gone", FIXED, scopes=NO_SCOPES)
    assert message in said(raised.value)
    assert engine.called("count") == []


@pytest.mark.parametrize("command", ["scout", "sample", "show"])
def test_a_refused_regex_is_named_before_a_refused_path(command: str) -> None:
    """Issue 32: `scout --regex '(' Session` named the path; the query comes first."""
    engine = FakeSearcher(files=TREE, refused={"(": "unclosed group"})
    regex = SearchOptions(mode=Mode.REGEX)

    def run(term: str, path: str) -> object:
        if command == "scout":
            return run_scout(engine, term, path, regex, scopes=NO_SCOPES)
        if command == "sample":
            return run_sample(engine, term, path, regex, clusters=3, page=1, scopes=NO_SCOPES)
        return run_show(engine, term, path, regex, line=None, context=2, scopes=NO_SCOPES)

    with pytest.raises(InputError) as raised:
        run("(", "Session")
    assert raised.value.message == "invalid --regex query (: unclosed group"
    # A regex rg takes: the path's own error. A path that is fine: no probe at all.
    with pytest.raises(InputError) as raised:
        run("conn(ect)", "Session")
    assert "Session does not exist" in raised.value.message
    assert engine.called("check_query") == [("check_query", "("), ("check_query", "conn(ect)")]
    run("conn(ect)", "src/net/pool.py")
    assert len(engine.called("check_query")) == 2


def test_types_are_looked_up_only_when_given_and_a_named_file_must_be_kept() -> None:
    engine = FakeSearcher(files=TREE)
    run_scout(engine, "connect", "src", SearchOptions(type=("py",)), scopes=NO_SCOPES)
    assert engine.called("file_types") == [("file_types",)]
    with pytest.raises(InputError) as raised:
        run_scout(engine, "connect", "docs/guide.md", SearchOptions(type=("py",)), scopes=NO_SCOPES)
    assert "docs/guide.md is excluded by --type py" in said(raised.value)
    assert engine.called("count") == [("count", "connect", "src")]


def test_an_empty_query_is_refused_before_the_engine_is_asked() -> None:
    engine = FakeSearcher(files=TREE)
    with pytest.raises(InputError, match="empty query"):
        run_scout(engine, "", ".", FIXED, scopes=NO_SCOPES)
    assert engine.calls == []


# --- survey --------------------------------------------------------------------------


def test_survey_reads_each_path_once_for_all_its_terms() -> None:
    engine = FakeSearcher(files=TREE)
    report = run_survey(engine, ["connect", "x"], ["src", "docs"], FIXED)
    assert engine.called("count_terms") == [
        ("count_terms", ("connect", "x"), "src"),
        ("count_terms", ("connect", "x"), "docs"),
    ]
    assert [(t.term, t.matches, t.files) for t in report.overall] == [
        ("connect", 6, 3),
        ("x", 2, 2),
    ]
    # Rows are per path, one per term: the grid is not transposed.
    assert [[(r.term, r.matches) for r in s.rows] for s in report.by_path] == [
        [("connect", 3), ("x", 2)],
        [("connect", 3)],
    ]
    assert COMMAND_LINE.argv(report.next_step) == ("asrch", "scout", "x", "src")


def test_survey_names_every_path_it_cannot_search_in_one_error() -> None:
    engine = FakeSearcher(files=TREE)
    with pytest.raises(InputError) as raised:
        run_survey(engine, ["connect"], ["src", "gone", "lost"], FIXED)
    assert said(raised.value) == (
        "2 paths cannot be searched: path gone does not exist; path lost does not exist"
    )
    assert engine.called("count_terms") == []
    with pytest.raises(InputError) as one:
        run_survey(engine, ["connect"], ["src", "gone"], FIXED)
    assert said(one.value) == "path gone does not exist"


def test_survey_notes_paths_that_are_one_or_nest() -> None:
    engine = FakeSearcher(files=TREE, links={"link": "src"})
    report = run_survey(engine, ["connect"], ["src", "link", "src/net"], FIXED)
    assert any(isinstance(n, SamePathNotice) and set(n.paths) == {"src", "link"}
               for n in report.notices)  # fmt: skip
    assert any(isinstance(n, NestedPathNotice) and n.path == "src/net" for n in report.notices)


# --- sample --------------------------------------------------------------------------

# Seven clusters: a hit every fourth line (a gap of 3 starts a new cluster).
SEVEN = {"long.txt": "".join("hit\nx\ny\nz\n" for _ in range(7))}


def test_sample_pages_through_the_clusters() -> None:
    engine = FakeSearcher(files=SEVEN)
    report = run_sample(engine, "hit", "long.txt", FIXED, clusters=3, page=2, scopes=NO_SCOPES)
    assert (report.matches, report.clusters, report.pages) == (7, 7, 3)
    assert [(v.number, v.cluster.first) for v in report.shown] == [(4, 13), (5, 17), (6, 21)]
    assert COMMAND_LINE.argv(report.next_step) == (
        "asrch",
        "show",
        "--line",
        "13",
        "hit",
        "long.txt",
    )
    assert engine.called("scan") == [("scan", "hit", "long.txt", 1, KEEP_CAP, SCAN_CAP)]


def test_sample_past_the_last_page_shows_nothing_and_steps_back_to_it() -> None:
    report = run_sample(
        FakeSearcher(files=SEVEN), "hit", "long.txt", FIXED, clusters=2, page=9, scopes=NO_SCOPES
    )
    assert report.shown == ()
    assert COMMAND_LINE.argv(report.next_step) == (
        "asrch", "sample", "--clusters", "2", "--page", "4", "hit", "long.txt",
    )  # fmt: skip


def test_sample_says_when_it_kept_fewer_matches_than_it_counted() -> None:
    many = {"many.txt": "hit\n" * (KEEP_CAP + 5)}
    report = run_sample(
        FakeSearcher(files=many), "hit", "many.txt", FIXED, clusters=3, page=1, scopes=NO_SCOPES
    )
    assert report.matches == KEEP_CAP + 5
    assert RetentionNotice(kept=KEEP_CAP) in report.notices


@pytest.mark.parametrize(
    ("clusters", "page", "message"),
    [
        (0, 1, "--clusters 0 is out of range; allowed: 1-"),
        (3, 0, "--page 0 is out of range; allowed: 1 or more"),
    ],
)
def test_sample_numbers_are_checked_before_the_file(clusters: int, page: int, message: str) -> None:
    engine = FakeSearcher(files=SEVEN)
    with pytest.raises(InputError) as raised:
        run_sample(engine, "hit", "gone.txt", FIXED, clusters=clusters, page=page, scopes=NO_SCOPES)
    assert said(raised.value).startswith(message)
    assert engine.calls == []


def test_sample_takes_one_file_not_a_directory() -> None:
    engine = FakeSearcher(files=TREE)
    with pytest.raises(InputError, match="src is a directory; give one file"):
        run_sample(engine, "connect", "src", FIXED, clusters=3, page=1, scopes=NO_SCOPES)
    assert engine.called("scan") == []


# --- show ----------------------------------------------------------------------------


def test_show_marks_the_matches_of_its_window() -> None:
    engine = FakeSearcher(files=SEVEN)
    report = run_show(engine, "hit", "long.txt", FIXED, line=5, context=1, scopes=NO_SCOPES)
    (snippet,) = report.snippets
    assert [(line.number, line.is_match) for line in snippet.lines] == [
        (4, False),
        (5, True),
        (6, False),
    ]
    assert report.last_line == 28
    assert engine.called("window") == [("window", "hit", "long.txt", 5, 1)]


def test_show_without_a_line_scans_with_its_context() -> None:
    engine = FakeSearcher(files=SEVEN)
    report = run_show(engine, "hit", "long.txt", FIXED, line=None, context=0, scopes=NO_SCOPES)
    assert report.matches == 7
    assert engine.called("scan") == [("scan", "hit", "long.txt", 0, SHOW_MAX_MATCHES, SCAN_CAP)]


def test_show_a_line_past_the_end_names_the_last_line() -> None:
    with pytest.raises(InputError) as raised:
        run_show(
            FakeSearcher(files=SEVEN),
            "hit",
            "long.txt",
            FIXED,
            line=29,
            context=2,
            scopes=NO_SCOPES,
        )
    assert said(raised.value) == (
        "--line 29 is out of range; allowed: 1-28 (the last line of long.txt)"
    )
    with pytest.raises(InputError) as empty:
        run_show(
            FakeSearcher(files={"e.txt": ""}),
            "hit",
            "e.txt",
            FIXED,
            line=1,
            context=2,
            scopes=NO_SCOPES,
        )
    assert said(empty.value) == "--line 1 is out of range; e.txt is empty"


def test_show_checks_its_context_before_the_file() -> None:
    engine = FakeSearcher(files=SEVEN)
    with pytest.raises(InputError) as raised:
        run_show(engine, "hit", "gone.txt", FIXED, line=None, context=99, scopes=NO_SCOPES)
    assert said(raised.value).startswith("--context 99 is out of range")
    assert engine.calls == []
