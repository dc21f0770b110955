import pytest

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import InputError
from asrch.domain.notices import DominanceNotice
from asrch.domain.ports import PathKind
from asrch.domain.query import Query
from asrch.domain.survey import SurveyReport, build_survey_report, check_survey_size


def _tally(*rows: tuple[str, int], capped: bool = False) -> Tally:
    return Tally(files=tuple(FileCount(path=p, matches=n) for p, n in rows), capped=capped)


def _survey(queries: list[Query], paths: list[str], tallies: list[list[Tally]]) -> SurveyReport:
    """A survey over directories."""
    return build_survey_report(queries, paths, tallies, kinds=[PathKind.DIRECTORY] * len(paths))


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


def test_capped_pair_marks_the_total() -> None:
    report = _survey(
        [Query(term="alpha")],
        ["a", "b"],
        [[_tally(("a/x", 50_000), capped=True), _tally(("b/y", 1))]],
    )
    assert report.overall[0].capped and report.overall[0].matches == 50_001
