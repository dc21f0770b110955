"""The notice rules (D6), held over classes of inputs."""

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.counting import FileCount, Tally
from asrch.domain.modes import Mode
from asrch.domain.notices import ShortTermNotice, search_notices
from asrch.domain.query import Query, SearchOptions

PUNCTUATION = st.text(st.characters(categories=["P", "S", "Z"]), min_size=1, max_size=3)


@given(PUNCTUATION)
def test_no_short_term_hint_without_a_letter_or_digit(term: str) -> None:
    query = Query(term=term)
    assert not any(
        isinstance(n, ShortTermNotice) for n in search_notices(query, Tally(), ".", directory=True)
    )


@given(st.text(min_size=1, max_size=3).filter(lambda t: any(c.isalnum() for c in t)))
def test_short_term_hint_for_every_short_fixed_term_with_a_letter_or_digit(term: str) -> None:
    found = Tally(files=(FileCount("a", 1),))
    notices = search_notices(Query(term=term), found, ".", directory=True)
    assert ShortTermNotice(term=term) in notices
    # On a zero answer it is no advice (D43: the zero note alone).
    zero = search_notices(Query(term=term), Tally(), ".", directory=True)
    assert not any(isinstance(n, ShortTermNotice) for n in zero)
    for mode in (Mode.WORD, Mode.IDENTIFIER, Mode.REGEX):
        bounded = search_notices(
            Query(term=term, options=SearchOptions(mode=mode)), Tally(), ".", directory=True
        )
        assert not any(isinstance(n, ShortTermNotice) for n in bounded)
