"""What `show --line N --scope` prints of a definition (D46): whole up to 60 lines; else
its first line, N-5..N+5 and its last line, pieces that touch printed as one."""

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.limits import SCOPE_AROUND, SCOPE_WHOLE_MAX
from asrch.domain.lines import Definition
from asrch.domain.show import definition_pieces


def test_a_definition_of_60_lines_is_whole_and_61_is_cut() -> None:
    assert definition_pieces(Definition(10, 69), 40) == [(10, 69)]
    assert definition_pieces(Definition(10, 70), 40) == [(10, 10), (35, 45), (70, 70)]


def test_pieces_that_touch_are_one() -> None:
    assert definition_pieces(Definition(1, 100), 6) == [(1, 11), (100, 100)]
    assert definition_pieces(Definition(1, 100), 7) == [(1, 12), (100, 100)]
    assert definition_pieces(Definition(1, 100), 8) == [(1, 1), (3, 13), (100, 100)]
    assert definition_pieces(Definition(1, 100), 100) == [(1, 1), (95, 100)]
    assert definition_pieces(Definition(1, 100), 1) == [(1, 6), (100, 100)]


@given(
    start=st.integers(1, 1000),
    size=st.integers(1, 300),
    at=st.integers(0, 299),
)
def test_the_pieces_hold_the_first_the_last_and_the_lines_around(
    start: int, size: int, at: int
) -> None:
    end = start + size - 1
    line = start + at % size
    pieces = definition_pieces(Definition(start, end), line)
    printed = [n for a, b in pieces for n in range(a, b + 1)]
    assert printed == sorted(set(printed))  # in order, each line once
    assert printed[0] == start and printed[-1] == end
    # Gaps between pieces: at least one line left out each.
    assert all(b + 1 < a for (_, b), (a, _) in pairwise(pieces))
    if size <= SCOPE_WHOLE_MAX:
        assert printed == list(range(start, end + 1))
    else:
        around = range(max(start, line - SCOPE_AROUND), min(end, line + SCOPE_AROUND) + 1)
        assert set(printed) == {start, end, *around}
