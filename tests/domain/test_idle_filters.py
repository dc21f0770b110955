"""D38: which filters did nothing to a walk, and the spelling that would have."""

from asrch.domain.filters import make_filters
from asrch.domain.idle_filters import idle_filters
from asrch.domain.notices import IdleFilterNotice

TYPES = {"py": ("*.py",), "md": ("*.md",)}
WALKED = ["requests/src/api.py", "requests/src/models.py", "requests/tests/test_api.py"]


def _idle(types: list[str], globs: list[str], target: str = "requests") -> list[IdleFilterNotice]:
    return idle_filters(make_filters(types, globs, TYPES), target, WALKED)


def test_an_include_written_from_the_searched_path_matches_nothing_and_says_how_to_write_it() -> (
    None
):
    (notice,) = _idle([], ["src/**"])
    assert (notice.matched_none, notice.anchored, notice.spelling) == (
        True,
        True,
        "requests/src/**",
    )


def test_an_exclude_written_from_the_searched_path_removes_nothing() -> None:
    (notice,) = _idle([], ["!tests/**"])
    assert (notice.matched_none, notice.anchored) == (False, True)
    assert notice.spelling == "!requests/tests/**"


def test_a_filter_that_does_its_job_gets_no_note() -> None:
    assert _idle(["py"], []) != []  # every walked file is Python: --type py removed none
    assert _idle([], ["!requests/tests/**", "requests/src/*.py"]) == []
    assert _idle(["md"], []) == []  # removed every file: not idle (the no-match note says it)


def test_a_respelling_that_would_not_help_is_not_offered() -> None:
    (notice,) = _idle([], ["!docs/**"])
    assert notice.spelling is None


def test_from_the_working_directory_the_anchoring_is_not_explained() -> None:
    walked = ["src/a.py"]
    (notice,) = idle_filters(make_filters([], ["lib/**"], TYPES), ".", walked)
    assert (notice.matched_none, notice.anchored, notice.spelling) == (True, False, None)
