import pytest

from asrch.domain.alternatives import pipe_refusal, plain_alternatives
from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.domain.words import NextStep

REGEX = SearchOptions(mode=Mode.REGEX)


@pytest.mark.parametrize(
    ("pattern", "terms"),
    [
        ("connect|retry", ("connect", "retry")),
        ("a|b|c", ("a", "b", "c")),
        ('"(tabsize|clipboard)":', ('"tabsize":', '"clipboard":')),
        (r"(a|b)\(", ("a(", "b(")),
        (r"get_(?:x|y)\(", ("get_x(", "get_y(")),
        (r"self\.(sock|free)\.", ("self.sock.", "self.free.")),
        (r"a\|b|c", ("a|b", "c")),  # an escaped | is a literal one
        ("def (a|b|a)", ("def a", "def b")),  # once each
        ("x y|z-w", ("x y", "z-w")),
    ],
)
def test_a_plain_alternation_is_its_fixed_strings(pattern: str, terms: tuple[str, ...]) -> None:
    assert plain_alternatives(pattern) == terms


@pytest.mark.parametrize(
    "pattern",
    [
        r"conn\w+|retry",  # a class escape
        r"\bconnect|retry",  # an assertion
        r"\<a|b",  # rg's word edge, not a literal <
        "a.b|c",  # a bare operator in an alternative
        "^(a|b)",  # an anchor in the prefix
        "(a|b)+",  # a repetition after the group
        "(a|b)|c",  # a | outside the group
        "(a|b)(c|d)",  # two groups
        "((a|b))",  # nested
        "(?i)a|b",  # a flag group
        "(?i:a|b)",
        "(a|)b",  # an empty alternative: the rest is optional
        "a||b",
        "[a|b]",  # a class
        "a|b\\",  # a trailing backslash
        ")a|b(",
    ],
)
def test_any_other_regex_is_not_split(pattern: str) -> None:
    assert plain_alternatives(pattern) is None


def test_the_refusal_names_the_survey_with_path_and_options() -> None:
    options = REGEX._replace(ignore_case=True, glob=("*.py",), type=("py",))
    refusal = pipe_refusal(Query(r"def (connect|close)\(", options), "src/net")
    assert refusal is not None
    assert refusal.step == NextStep(
        "survey",
        (
            ("ignore_case", True),
            ("type", ("py",)),
            ("glob", ("*.py",)),
            ("term", ("def connect(", "def close(")),
            ("paths", ("src/net",)),
        ),
    )
    assert "2 alternatives are fixed strings" in refusal.message


def test_the_working_directory_is_surveys_default() -> None:
    refusal = pipe_refusal(Query("a|b", REGEX), ".")
    assert refusal is not None
    assert refusal.step == NextStep("survey", (("term", ("a", "b")),))


def test_more_than_surveys_terms_are_said_without_a_call() -> None:
    refusal = pipe_refusal(Query("|".join("abcdefghijklm"), REGEX), ".")
    assert refusal is not None
    assert refusal.step is None
    assert "13 alternatives" in refusal.message
    assert "more than the 12 terms" in refusal.message


def test_a_real_regex_or_an_unpastable_term_keeps_the_general_words() -> None:
    assert pipe_refusal(Query(r"a\w|b", REGEX), ".") is None
    assert pipe_refusal(Query("a\x01|b", REGEX), ".") is None


def test_alternatives_that_are_one_string_keep_the_general_words() -> None:
    # `0|0` has one distinct alternative: "its 1 alternatives" would miscount it.
    assert pipe_refusal(Query("0|0", REGEX), ".") is None
    assert pipe_refusal(Query("get_(x|x)", REGEX), ".") is None
