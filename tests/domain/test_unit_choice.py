"""Which unit `show --scope` prints around a line (D51), and how: the innermost definition
of at most 40 lines whole; else the smallest unit of at least the `--context` window's
lines and at most 40; else the innermost longer unit cut to its first line, N-5..N+5 and
its last line; docstrings and comment blocks of more than 3 lines folded."""

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.limits import SCOPE_AROUND, SCOPE_UNIT_MAX
from asrch.domain.units import Around, Fold, Unit, choose, cut, folded


def _units(*units: tuple[str, int, int]) -> Around:
    return Around(tuple(Unit(k, a, b) for k, a, b in units))  # type: ignore[arg-type]


def test_a_definition_of_40_lines_is_whole_and_41_is_cut() -> None:
    whole = choose(_units(("statement", 30, 30), ("definition", 10, 49)), 30, 2, 100)
    assert whole is not None and whole.pieces == ((10, 49),)
    long = choose(_units(("statement", 30, 30), ("definition", 10, 50)), 30, 2, 100)
    assert long is not None and long.pieces == ((10, 10), (25, 35), (50, 50))


def test_a_definition_of_40_lines_wins_over_a_smaller_block_inside_it() -> None:
    units = _units(("statement", 30, 30), ("loop", 28, 34), ("definition", 10, 49))
    found = choose(units, 30, 2, 100)
    assert found is not None and found.unit == Unit("definition", 10, 49)


def test_inside_a_long_definition_the_smallest_unit_as_long_as_the_window() -> None:
    units = _units(
        ("statement", 30, 30), ("branch", 29, 31), ("if", 25, 44), ("loop", 20, 80),
        ("definition", 1, 100),
    )  # fmt: skip
    # --context 1: 3 lines; the branch has 3.
    assert choose(units, 30, 1, 200) == (Unit("branch", 29, 31), ((29, 31),))
    # --context 2: 5 lines; the if has 20.
    found = choose(units, 30, 2, 200)
    assert found is not None and found.unit == Unit("if", 25, 44)
    # Nothing of 5-40 lines: the loop (61 lines), cut around line 70.
    assert choose(Around(units.units[:1] + units.units[3:]), 70, 2, 200) == (
        Unit("loop", 20, 80),
        ((20, 20), (65, 75), (80, 80)),
    )
    # --context 0: the statement itself.
    assert choose(units, 30, 0, 200) == (Unit("statement", 30, 30), ((30, 30),))


def test_units_shorter_than_the_window_are_printed_with_it() -> None:
    """The window, and the outermost unit's lines where it reaches out of it."""
    top = _units(("statement", 8, 8))
    assert choose(top, 8, 2, 100) == (Unit("statement", 8, 8), ((6, 10),))
    table = _units(("statement", 4, 4), ("statement", 3, 6))
    assert choose(table, 6, 2, 100) == (Unit("statement", 3, 6), ((3, 8),))
    # A file shorter than the window: the window is the whole file.
    assert choose(_units(("statement", 1, 3)), 2, 2, 3) == (Unit("statement", 1, 3), ((1, 3),))


def test_no_unit_is_no_choice() -> None:
    assert choose(Around(()), 8, 0, 100) is None


def test_folds_inside_a_piece_and_away_from_the_asked_line() -> None:
    folds = (Fold("docstring", 11, 20), Fold("comment", 30, 32), Fold("comment", 40, 45))
    pieces = [(10, 49)]
    assert folded(folds, pieces, {25}) == [Fold("docstring", 11, 20), Fold("comment", 40, 45)]
    assert folded(folds, pieces, {42}) == [Fold("docstring", 11, 20)]  # holds the line
    assert folded(folds, [(11, 49)], {25}) == [Fold("comment", 40, 45)]  # not after 1st
    kept = folded(folds, pieces, {25})
    assert cut(pieces, kept) == [(10, 10), (21, 39), (46, 49)]


@given(start=st.integers(1, 1000), size=st.integers(1, 300), at=st.integers(0, 299))
def test_the_pieces_hold_the_first_the_last_and_the_lines_around(
    start: int, size: int, at: int
) -> None:
    end = start + size - 1
    line = start + at % size
    found = choose(_units(("definition", start, end)), line, 2, 2000)
    assert found is not None
    printed = [n for a, b in found.pieces for n in range(a, b + 1)]
    assert printed == sorted(set(printed))  # in order, each line once
    assert all(b + 1 < a for (_, b), (a, _) in pairwise(found.pieces))
    if size <= SCOPE_UNIT_MAX:
        assert printed == list(range(start, end + 1))
    elif line == start:  # its header: its beginning (issue 40)
        assert printed == list(range(start, start + SCOPE_UNIT_MAX))
    else:
        assert printed[0] == start and printed[-1] == end
        around = range(max(start, line - SCOPE_AROUND), min(end, line + SCOPE_AROUND) + 1)
        assert set(printed) == {start, end, *around}


def test_a_long_unit_asked_on_its_header_prints_its_beginning_cut_at_a_statement() -> None:
    """Issue 40: on a long definition's first line, or before its body's first statement
    (a decorator, a signature), its first lines up to 40, cut after the last statement
    that ends within them; inside its body, the 3 pieces as before."""
    statements = ((4, 4), *((k, k) for k in range(5, 36)), (36, 42), (43, 43))
    around = Around((Unit("definition", 1, 60),), (), statements)
    for line in (1, 2, 3):  # the first line, the signature's lines before line 4
        assert choose(around, line, 2, 100) == (Unit("definition", 1, 60), ((1, 35),))
    # Inside the body: the 3 pieces.
    inside = Around((Unit("statement", 10, 10), *around.units), (), statements)
    assert choose(inside, 10, 2, 100) == (Unit("definition", 1, 60), ((1, 1), (5, 15), (60, 60)))
    # In a decorated definition's signature: from its decorator on.
    decorated = Around((Unit("definition", 2, 60), Unit("definition", 1, 60)), (), statements)
    assert choose(decorated, 3, 2, 100) == (Unit("definition", 1, 60), ((1, 35),))
    # No statement ends within the first 40 lines: 40 lines.
    one = Around((Unit("definition", 1, 60),), (), ((2, 59),))
    assert choose(one, 1, 2, 100) == (Unit("definition", 1, 60), ((1, 40),))
    # Nothing said of the statements (another reader): the header is its first line.
    assert choose(Around((Unit("definition", 1, 60),)), 1, 2, 100) == (
        Unit("definition", 1, 60),
        ((1, 40),),
    )
