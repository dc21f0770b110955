"""D38: which filters did nothing to a walk, and the spelling that would have."""

from asrch.domain.filters import make_filters
from asrch.domain.idle_filters import idle_filters, one_zero_note, zero_cause
from asrch.domain.notices import IdleFilterNotice, NearNotice, NoMatchNotice

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
    # A type that matched no file is said as a glob is (D38): the zero answer's note.
    (md,) = _idle(["md"], [])
    assert (md.option, md.value, md.matched_none) == ("type", "md", True)


def test_a_respelling_that_would_not_help_is_not_offered() -> None:
    (notice,) = _idle([], ["!docs/**"])
    assert notice.spelling is None


def test_from_the_working_directory_the_anchoring_is_not_explained() -> None:
    walked = ["src/a.py"]
    (notice,) = idle_filters(make_filters([], ["lib/**"], TYPES), ".", walked)
    assert (notice.matched_none, notice.anchored, notice.spelling) == (True, False, None)


def test_the_cause_of_a_zero_is_the_include_globs_when_none_matched_else_the_types() -> None:
    filters = make_filters(["md"], ["*.c", "*.h"], TYPES)
    idle = idle_filters(filters, "requests", WALKED)
    cause = zero_cause(idle, filters)
    assert cause is not None
    assert (cause.option, cause.value, cause.also, cause.zero) == ("glob", "*.c", ("*.h",), True)
    # One include glob keeps files: the globs are not why; the type is.
    filters = make_filters(["md"], ["*.c", "*.py"], TYPES)
    cause = zero_cause(idle_filters(filters, "requests", WALKED), filters)
    assert cause is not None and (cause.option, cause.value) == ("type", "md")
    # Each keeps files alone, none together: no filter to name (the zero note stands).
    filters = make_filters(["md"], ["requests/src/**"], {"md": ("*.md", "test_*.py")})
    assert not any(filters.keeper("requests")(path) for path in WALKED)
    assert zero_cause(idle_filters(filters, "requests", WALKED), filters) is None


def test_a_zero_answer_keeps_one_note() -> None:
    idle = IdleFilterNotice("type", "py", "src", False, False)
    near = NearNotice("path", 3, 1, False, "a.py")
    zero = NoMatchNotice(directory=True, filtered=True)
    assert one_zero_note([idle, zero], None) == (zero,)
    cause = IdleFilterNotice("glob", "*.c", "src", True, False, zero=True)
    assert one_zero_note([cause, near], cause) == (cause._replace(near=near),)
    assert one_zero_note([cause, zero], cause) == (cause,)
