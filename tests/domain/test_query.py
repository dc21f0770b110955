import pytest

from asrch.domain.errors import InputError
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions, has_unescaped_pipe, make_query


@pytest.mark.parametrize(
    ("pattern", "refused"),
    [
        ("a|b", True),
        (r"a\|b", False),
        (r"a\\|b", True),
        (r"a\\\|b", False),
        ("ab", False),
        ("[|]", True),
    ],
)
def test_unescaped_pipe(pattern: str, refused: bool) -> None:
    assert has_unescaped_pipe(pattern) is refused


def test_pipe_only_refused_in_regex_mode() -> None:
    assert make_query("a|b", SearchOptions(mode=Mode.FIXED)).term == "a|b"
    with pytest.raises(InputError, match="unescaped"):
        make_query("a|b", SearchOptions(mode=Mode.REGEX))


def test_empty_and_line_break_refused() -> None:
    with pytest.raises(InputError, match="empty"):
        make_query("", SearchOptions(mode=Mode.FIXED))
    with pytest.raises(InputError, match="line break"):
        make_query("a\nb", SearchOptions(mode=Mode.FIXED))


def test_short_term_is_code_points_in_fixed_mode() -> None:
    assert make_query("接続", SearchOptions(mode=Mode.FIXED)).is_short
    assert not make_query("abcd", SearchOptions(mode=Mode.FIXED)).is_short
    assert not make_query("id", SearchOptions(mode=Mode.WORD)).is_short
