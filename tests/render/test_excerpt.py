"""Issue 32, item 10: a line too long to hold is kept as an excerpt (its head, the bytes
around its first match, its tail), and prints exactly as the whole line does."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asrch.domain.lines import Excerpt, excerpt_ranges
from asrch.render.lines import fit_excerpt, fit_line
from tests.support import tiers

PIECES = [b"a", b"x", b" ", b"\t", b"\x1b", b"\xff", "é".encode(), "上".encode(), "😀".encode()]


@st.composite
def long_lines(draw: st.DrawFn) -> tuple[bytes, tuple[int, int] | None]:
    size = draw(st.integers(1500, 12000))
    unit = b"".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12)))
    body = (unit * (size // len(unit) + 1))[:size]
    line = body + draw(st.sampled_from([b"\n", b"\r\n", b""]))
    if not draw(st.booleans()):
        return line, None
    start = draw(st.integers(0, len(body) - 1))
    return line, (start, min(len(body), start + draw(st.integers(0, 40))))


LINES = {"line": long_lines(), "number": st.integers(1, 10**9), "mark": st.sampled_from(":-")}


# 130 examples in the default tier, 400 in the slow tier's twin (tests/support/tiers.py).
@settings(max_examples=130, deadline=None)
@given(**LINES)
def test_an_excerpt_prints_as_the_whole_line(
    line: tuple[bytes, tuple[int, int] | None], number: int, mark: str
) -> None:
    raw, first_match = line
    ranges = excerpt_ranges(len(raw), first_match)
    kept = b"".join(raw[start:end] for start, end in ranges)
    assert len(kept) <= 3 * 4096
    prefix = f"{number}{mark}"
    excerpt = Excerpt(len(raw), ranges)
    assert fit_excerpt(prefix, kept, first_match, excerpt) == fit_line(prefix, raw, first_match)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(**LINES)
def test_an_excerpt_prints_as_the_whole_line_more(
    line: tuple[bytes, tuple[int, int] | None], number: int, mark: str
) -> None:
    tiers.body(test_an_excerpt_prints_as_the_whole_line)(line, number, mark)
