import re
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.limits import LINE_CAP
from asrch.render.lines import cap_line, fit_line, visible_text


def test_short_line_unchanged() -> None:
    assert cap_line("abc") == "abc"


def test_exactly_800_bytes_unchanged() -> None:
    line = "a" * 800
    assert cap_line(line) == line


def test_cut_on_character_boundary_with_marker() -> None:
    line = "幅" * 400  # 1200 bytes
    capped = cap_line(line)
    data = capped.encode("utf-8")
    assert len(data) <= 800
    assert capped.endswith(" bytes]")
    kept = capped[: capped.index("…[")]
    assert set(kept) == {"幅"}
    cut = int(capped[capped.index("[+") + 2 : capped.index(" bytes]")])
    assert len(kept.encode()) + cut == 1200


def test_visible_text() -> None:
    assert visible_text(b"a\tb\r\n") == "a\tb"
    assert visible_text(b"\x1b[31mred\n") == "\u241b[31mred"
    assert visible_text(b"caf\xe9\n") == "caf\\xe9"
    assert visible_text(b"bell\x07") == "bell\u2407"


# --- long lines cut around the first match (D8) -------------------------------------

LEFT = re.compile(r"^\[\+(\d+) bytes\]…")
RIGHT = re.compile(r"…\[\+(\d+) bytes\]$")
# Pieces that print longer than they are (controls, bad bytes) and multibyte text.
PIECES = st.sampled_from(
    [
        b"a",
        b"word ",
        b"\t",
        b"\x1b",
        b"\xff",
        b"\xe5\xb9\x85",
        b"\xc3",
        b"\xf0\x9f\x98\x80",
        b"\xc2\x85",
    ]
)
LONG_LINES = st.lists(st.tuples(PIECES, st.integers(1, 400)), min_size=1, max_size=8).map(
    lambda runs: b"".join(piece * n for piece, n in runs)
)


def _read_cut(out: str, prefix: str, raw: bytes) -> tuple[int, int]:
    """The kept byte range of `raw` that `out` shows, checked against `visible_text`."""
    assert out.startswith(prefix)
    body = out[len(prefix) :]
    left = LEFT.match(body)
    start = int(left.group(1)) if left else 0
    body = body[left.end() :] if left else body
    right = RIGHT.search(body)
    end = len(raw) - int(right.group(1)) if right else len(raw)
    body = body[: right.start()] if right else body
    assert body == visible_text(raw[start:end]), "the markers miscount the cut"
    return start, end


@given(
    raw=LONG_LINES,
    where=st.floats(0, 1),
    length=st.integers(0, 60),
    number=st.integers(1, 10**7),
)
def test_a_long_line_is_cut_around_its_first_match(
    raw: bytes, where: float, length: int, number: int
) -> None:
    match_start = int(where * len(raw))
    span = (match_start, min(len(raw), match_start + length))
    prefix = f"{number}:"
    out = fit_line(prefix, raw + b"\n", span)
    data = out.encode("utf-8")  # strict: no lone surrogate, so valid UTF-8 out
    assert len(data) <= LINE_CAP
    start, end = _read_cut(out, prefix, raw)
    if len((prefix + visible_text(raw)).encode()) <= LINE_CAP:
        assert (start, end) == (0, len(raw))
        return
    assert (start, end) != (0, len(raw))
    if match_start < len(raw) and span[1] > match_start:
        # The match shows from its first character on, and whole when it is short.
        assert start <= match_start < end
        if len(visible_text(raw[match_start : span[1]]).encode()) <= 300:
            assert span[1] <= end
    elif match_start < len(raw):
        # An empty match (a regex such as `x*`) has no character to show: the kept part
        # reaches its position.
        assert start <= match_start <= end


@given(raw=LONG_LINES)
def test_a_long_line_without_a_match_keeps_its_head(raw: bytes) -> None:
    out = fit_line("7-", raw)
    start, _ = _read_cut(out, "7-", raw)
    assert start == 0 and len(out.encode()) <= LINE_CAP


def test_the_cut_form_around_a_match() -> None:
    raw = b"start " + b"filler " * 300 + b"needle found here " + b"tail " * 300
    at = raw.index(b"needle")
    out = fit_line("1:", raw, (at, at + 6))
    start, end = _read_cut(out, "1:", raw)
    assert out.startswith(f"1:[+{start} bytes]…") and out.endswith(f"…[+{len(raw) - end} bytes]")
    assert at - start == 200 and "needle found here" in out
    near_end = raw[: at + 6]
    out = fit_line("1:", near_end, (at, at + 6))
    assert out.endswith("needle") and len(out.encode()) in (799, 800)
    assert fit_line("1:", raw, (3, 8)).startswith("1:start filler")


def test_a_long_line_is_cut_without_a_copy_of_it() -> None:
    # `show --line` on a minified file holds its 300 MB line once (issue 23): cutting it
    # to 800 bytes must not copy it (slicing its LF off did, doubling the peak).
    line = b"x" * 20_000_000 + b"needle" + b"y" * 1000 + b"\r\n"
    tracemalloc.start()
    try:
        shown = fit_line("2:", line, (20_000_000, 20_000_006))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert LEFT.match(shown[2:]) and "needle" in shown
    assert shown == fit_line("2:", line[:-2], (20_000_000, 20_000_006))
