"""D28: the next step is chosen by rule and can be pasted (pure)."""

import shlex

from asrch.domain.filters import make_filters
from asrch.domain.modes import Mode
from asrch.domain.next_step import (
    NO_STEP,
    joined,
    sample_step,
    scout_step,
    show_step,
    survey_step,
)
from asrch.domain.query import Query, SearchOptions
from asrch.render.next_step import next_lines
from asrch.spelling import COMMAND_LINE, TOOL

cli = COMMAND_LINE.argv


def test_rows_are_joined_with_any_spelling_of_the_target() -> None:
    assert joined("src", "net/pool.py") == "src/net/pool.py"
    assert joined("./src//", "net/pool.py") == "./src/net/pool.py"
    assert joined(".", "net/pool.py") == "net/pool.py"
    assert joined("./", "a.py") == "a.py"
    assert joined("/", "etc/hosts") == "/etc/hosts"


def test_survey_scouts_the_most_selective_term_that_matched() -> None:
    queries = [Query(term=t) for t in ("a", "b", "c", "d")]
    rows = [(10, 2, "src"), (0, 0, None), (3, 2, "docs"), (3, 1, "lib")]
    assert cli(survey_step(queries, rows)) == ("asrch", "scout", "d", "lib")
    assert survey_step(queries[:2], [(0, 0, None), (0, 0, None)]) == NO_STEP


def test_mode_case_and_filters_are_carried_over_in_order() -> None:
    options = SearchOptions(
        mode=Mode.WORD, ignore_case=True, type=("py",), glob=("!tests/**", "-odd*")
    )
    filters = make_filters(options.type, options.glob, {"py": ["*.py"]})
    query = Query(term="-x", options=options, filters=filters)
    step = scout_step(query, "src", "a b.py", directory=True)
    assert cli(step) == (
        "asrch", "sample", "--word", "-i", "--type", "py", "--glob", "!tests/**",
        "--glob=-odd*", "--", "-x", "src/a b.py",
    )  # fmt: skip
    assert shlex.split(COMMAND_LINE.line(step)) == list(cli(step))
    assert TOOL.step(step) == (
        'sample(query="-x", file="src/a b.py", mode="word", ignore_case=true, '
        'type=["py"], glob=["!tests/**", "-odd*"])'
    )


def test_a_named_file_is_sampled_as_typed() -> None:
    step = scout_step(Query(term="t"), "./a//b.py", "./a//b.py", directory=False)
    assert cli(step) == ("asrch", "sample", "t", "./a//b.py")


def test_sample_shows_the_first_match_of_its_page() -> None:
    q = Query(term="t")

    def at(pages: int, first: int | None, per_page: int = 3) -> tuple[str, ...]:
        return cli(
            sample_step(q, "f", clusters=7, pages=pages, per_page=per_page, first_match=first)
        )

    assert at(3, 5) == ("asrch", "show", "--line", "5", "t", "f")  # more pages follow
    assert at(3, 50) == ("asrch", "show", "--line", "50", "t", "f")
    assert at(3, None) == ("asrch", "sample", "--page", "3", "t", "f")  # past the end
    assert at(2, None, per_page=5)[2:4] == ("--clusters", "5")
    none = sample_step(q, "f", clusters=0, pages=1, per_page=3, first_match=None)
    assert none == NO_STEP


def test_only_a_refused_show_has_a_next_step() -> None:
    assert cli(show_step(Query(term="t"), "f", refused=True)) == ("asrch", "sample", "t", "f")
    assert show_step(Query(term="t"), "f", refused=False) == NO_STEP


def test_a_name_that_cannot_be_pasted_as_one_line_gets_no_step() -> None:
    assert scout_step(Query(term="t"), "src", "a\nb.py", directory=True) == NO_STEP
    assert scout_step(Query(term="t"), "src", "a\udcffb.py", directory=True) == NO_STEP
    too_long = scout_step(Query(term="t" * 900), "src", "a.py", directory=True)
    assert COMMAND_LINE.step(too_long) is None


def test_a_step_whose_line_would_be_cut_is_not_offered() -> None:
    fits = show_step(Query(term="t" * 700), "f", refused=True)
    too_long = show_step(Query(term="t" * 800), "f", refused=True)
    assert COMMAND_LINE.step(fits) == COMMAND_LINE.line(fits)
    assert next_lines(fits, COMMAND_LINE, stopped=True) == ["next: " + COMMAND_LINE.line(fits)]
    assert too_long != NO_STEP  # the domain chose it; the line rule drops it
    assert COMMAND_LINE.step(too_long) is None
    assert next_lines(too_long, COMMAND_LINE, stopped=True) == []
    assert next_lines(too_long, TOOL, stopped=True) == []


def test_the_text_writes_a_step_only_after_a_refusal_or_a_stop() -> None:
    """D54: the step is the domain's either way; the text line only where it narrows."""
    refused = show_step(Query(term="t"), "f", refused=True)
    assert next_lines(refused, COMMAND_LINE, stopped=False) == []
    assert next_lines(refused, TOOL, stopped=False) == []
    assert next_lines(refused, TOOL, stopped=True) == ["next: " + str(TOOL.step(refused))]
