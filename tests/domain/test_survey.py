import itertools
import posixpath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import InputError
from asrch.domain.exclusions import EXCLUDED_DIRS
from asrch.domain.limits import LINE_CAP
from asrch.domain.notices import (
    BroadNotice,
    CapNotice,
    DominanceNotice,
    NestedPathNotice,
    SamePathNotice,
    search_notices,
)
from asrch.domain.overlaps import overlap_notices
from asrch.domain.ports import Entry
from asrch.domain.query import Query
from asrch.domain.survey import (
    Place,
    SurveyReport,
    build_survey_report,
    check_survey_size,
    rare_files,
)
from asrch.render.notices import notice_text


def _tally(*rows: tuple[str, int], capped: bool = False) -> Tally:
    return Tally(files=tuple(FileCount(path=p, matches=n) for p, n in rows), capped=capped)


def _survey(queries: list[Query], paths: list[str], tallies: list[list[Tally]]) -> SurveyReport:
    """A survey over directories."""
    return build_survey_report(
        queries,
        paths,
        tallies,
        entries=[Entry.DIRECTORY] * len(paths),
        real_paths=[f"/r/{p}" for p in paths],
    )


def test_both_bounds_reported_at_once() -> None:
    with pytest.raises(InputError) as caught:
        check_survey_size(["t"] * 13, ["p"] * 9)
    assert "13 terms" in caught.value.message and "9 paths" in caught.value.message
    check_survey_size(["t"] * 12, ["p"] * 8)


def test_dominant_path_ties_to_the_earliest_and_dash_for_none() -> None:
    queries = [Query(term="alpha"), Query(term="omega")]
    tallies = [
        [_tally(("a/x", 2)), _tally(("b/y", 2))],
        [Tally(), Tally()],
    ]
    report = _survey(queries, ["a", "b"], tallies)
    assert report.overall[0].dominant_path == "a"
    assert report.overall[1].dominant_path is None
    assert [len(s.rows) for s in report.by_path] == [1, 1]


def test_dominance_at_exactly_80_percent() -> None:
    queries = [Query(term="alpha"), Query(term="omega")]
    at = _survey(queries, ["."], [[_tally(("./x", 8))], [_tally(("./y", 2))]])
    assert DominanceNotice(term="alpha", percent=80) in at.notices
    below = _survey(queries, ["."], [[_tally(("./x", 79))], [_tally(("./y", 21))]])
    assert not any(isinstance(n, DominanceNotice) for n in below.notices)


def test_top_file_is_relative_and_ties_by_path() -> None:
    report = _survey([Query(term="alpha")], ["src"], [[_tally(("src/b.py", 3), ("src/a.py", 3))]])
    assert report.by_path[0].rows[0].top_file == "a.py"


def test_a_rare_term_is_placed_line_by_line() -> None:
    """D56: at most 3 exact lines in a path, each `FILE:LINE` in path then line order;
    4 lines, a capped pair, or lines that are not the count (a file changed since): the
    top file alone."""
    queries = [Query(term="alpha"), Query(term="omega"), Query(term="delta")]
    tallies = [
        [_tally(("src/a.py", 2), ("src/b.py", 1)), _tally(("docs/x.md", 4))],
        [_tally(("src/a.py", 1), capped=True), Tally()],
        [_tally(("src/c.py", 2)), Tally()],
    ]
    asked = rare_files(tallies)
    assert asked == [["src/a.py", "src/b.py"], [], ["src/c.py"]]
    lines: list[dict[str, tuple[int, ...]]] = [
        {"src/a.py": (9, 4), "src/b.py": (1,)},
        {},
        {"src/c.py": (7,)},
    ]
    report = build_survey_report(
        queries,
        ["src", "docs"],
        tallies,
        entries=[Entry.DIRECTORY] * 2,
        real_paths=["/r/src", "/r/docs"],
        lines=lines,
    )
    src, docs = report.by_path
    alpha, omega, delta = src.rows
    assert alpha.places == (Place("a.py", 4), Place("a.py", 9), Place("b.py", 1))
    assert alpha.top_file == "a.py"
    assert omega.places == () and delta.places == ()
    assert docs.rows[0].places == ()


def test_capped_pair_marks_the_total() -> None:
    report = _survey(
        [Query(term="alpha")],
        ["a", "b"],
        [[_tally(("a/x", 50_000), capped=True), _tally(("b/y", 1))]],
    )
    assert report.overall[0].capped and report.overall[0].matches == 50_001


def test_every_capped_pair_is_named_in_one_note() -> None:
    """Issue 32: 11 terms capped in 3 paths made 33 notes (8 KB); now 1, by path."""
    terms = [f"t{i}" for i in range(11)]
    paths = ["a", "b", "c"]
    capped = [[_tally((f"{p}/x", 50_000), capped=True) for p in paths] for _ in terms]
    report = _survey([Query(term=t) for t in terms], paths, capped)
    caps = [n for n in report.notices if isinstance(n, CapNotice)]
    assert len(caps) == 1
    assert caps[0].pairs == tuple((t, p) for p in paths for t in terms)
    text = notice_text(caps[0])
    assert text.startswith("scan stopped at the 50000-line cap in 33 (term, path) pairs (a: t0, ")
    assert "; b: t0, t1" in text and text.count("t10") == 3
    assert len(f"note: {text}".encode()) <= LINE_CAP
    # One capped pair keeps its own note: the pair and where counting stopped.
    one = _survey([Query(term="t")], ["a"], [[_tally(("a/x", 50_000), capped=True)]])
    assert [n for n in one.notices if isinstance(n, CapNotice)] == [
        CapNotice(term="t", path="a", last_path="x")
    ]


def _overlaps(*paths: str, entries: list[Entry] | None = None) -> list[object]:
    real = [posixpath.normpath(posixpath.join("/r", p)) for p in paths]
    return list(overlap_notices(paths, real, entries or [Entry.DIRECTORY] * len(paths)))


def test_same_path_in_any_spelling_is_one_notice_with_every_spelling() -> None:
    assert _overlaps("src", "./src", "src/", "docs") == [
        SamePathNotice(paths=("src", "./src", "src/"))
    ]
    assert _overlaps("src", "src") == [SamePathNotice(paths=("src", "src"))]


def test_nested_paths_one_notice_per_pair_inner_first() -> None:
    assert _overlaps("src/net", ".", "src") == [
        NestedPathNotice(path="src/net", within="."),
        NestedPathNotice(path="src/net", within="src"),
        NestedPathNotice(path="src", within="."),
    ]
    assert _overlaps("src", "srcs", "src-old") == []


def test_no_notice_where_the_exclusions_keep_the_outer_walk_out() -> None:
    assert _overlaps(".", "build", "src/node_modules/x") == []
    assert _overlaps(".", "logs/app.log", entries=[Entry.DIRECTORY, Entry.FILE]) == []
    # A file named like an excluded directory is not excluded: `build/` matches directories.
    assert _overlaps(".", "src/build", entries=[Entry.DIRECTORY, Entry.FILE]) == [
        NestedPathNotice(path="src/build", within=".")
    ]
    # Hidden paths stay: a project's .ignore may re-include them (D13).
    assert _overlaps(".", ".github") == [NestedPathNotice(path=".github", within=".")]


SEGMENTS = st.sampled_from(["a", "b", "build", ".h", "x.log", "..", "."])


@given(st.lists(st.lists(SEGMENTS, max_size=3).map("/".join), min_size=1, max_size=5))
def test_overlap_notices_match_a_brute_force_reading(spelled: list[str]) -> None:
    paths = [p or "." for p in spelled]
    real = [posixpath.normpath(posixpath.join("/r/w", p)) for p in paths]
    notices = overlap_notices(paths, real, [Entry.DIRECTORY] * len(paths))
    same = {n.paths for n in notices if isinstance(n, SamePathNotice)}
    nested = {(n.path, n.within) for n in notices if isinstance(n, NestedPathNotice)}
    groups: dict[str, list[str]] = {}
    for path, where in zip(paths, real, strict=True):
        groups.setdefault(where, []).append(path)
    assert same == {tuple(g) for g in groups.values() if len(g) > 1}
    expected = set()
    for inner, outer in itertools.permutations(groups, 2):
        rest = posixpath.relpath(inner, outer)
        if rest.startswith(".."):
            continue
        parts = rest.split("/")
        # Every path here is a directory: `*.log` names files only, so `x.log/` is walked.
        if any(p in EXCLUDED_DIRS for p in parts):
            continue
        expected.add((groups[inner][0], groups[outer][0]))
    assert nested == expected


FILE, DIRECTORY = Entry.FILE, Entry.DIRECTORY


@pytest.mark.parametrize(
    ("entries", "one_file"),
    [([FILE], True), ([FILE, FILE], True), ([FILE, DIRECTORY], False), ([DIRECTORY], False)],
)
def test_a_broad_term_searched_in_files_only_has_no_narrower_path(
    entries: list[Entry], one_file: bool
) -> None:
    """As scout's (`search_notices`): a named file is the narrowest path there is."""
    query = Query(term="needle")
    paths = [f"p{i}" for i in range(len(entries))]
    tally = _tally(("p0", 1500))
    report = build_survey_report(
        [query],
        paths,
        [[tally] * len(entries)],
        entries=entries,
        real_paths=[f"/r/{p}" for p in paths],
    )
    broad = [n for n in report.notices if isinstance(n, BroadNotice)]
    assert [n.one_file for n in broad] == [one_file]
    if len(entries) == 1:
        alone = [n for n in search_notices(query, tally, "p0", directory=not one_file)]
        assert broad[0]._replace(term=None) in alone
