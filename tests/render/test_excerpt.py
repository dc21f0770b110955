"""Issue 32, item 10: a line too long to hold is kept as an excerpt (its head, the bytes
around its first match, its tail), and prints exactly as the whole line does."""

from hypothesis import given, settings
from hypothesis import strategies as st

from asrch.domain.lines import Excerpt, excerpt_ranges
from asrch.render.lines import fit_excerpt, fit_line
from tests.support.tiers import examples

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


@settings(max_examples=examples(130, more=400), deadline=None)
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
