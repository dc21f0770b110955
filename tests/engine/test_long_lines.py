"""A match past byte 800 of a long line stays in view (D8), from rg's own offsets,
in `sample`, `show` and `show --line`, in every mode."""

from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from asrch.commands.sample import run_sample
from asrch.commands.show import run_show
from asrch.domain.limits import LINE_CAP
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions
from asrch.engine.json_events import split_lines
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.sample import render_sample
from asrch.render.show import render_show

SEARCHER = RipgrepSearcher()


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    mode=st.sampled_from(list(Mode)),
    before=st.sampled_from(["x" * 5000, "é" * 3000, "\x1b" * 900, "幅 " * 700]),
    # `é` next to the term: the identifier regex matches its last byte (mid-character).
    neighbour=st.sampled_from([" ", "é", "(", "\t"]),
    after=st.integers(0, 3000),
)
def test_the_first_match_of_a_long_line_is_printed(
    tmp_path: Path, mode: Mode, before: str, neighbour: str, after: int
) -> None:
    assume(not (mode is Mode.WORD and neighbour == "é"))  # é is a word character
    file = tmp_path / "long.txt"
    line = f"{before}{neighbour}beacon{neighbour}{'y' * after}"
    file.write_text(f"top\n{line}\nbottom\n", encoding="utf-8")
    outputs = [
        render_sample(
            run_sample(SEARCHER, "beacon", str(file), SearchOptions(mode=mode), clusters=1, page=1)
        ),
        render_show(
            run_show(SEARCHER, "beacon", str(file), SearchOptions(mode=mode), line=None, context=1)
        ),
        render_show(
            run_show(SEARCHER, "beacon", str(file), SearchOptions(mode=mode), line=2, context=1)
        ),
    ]
    for text in outputs:
        (shown,) = (ln for ln in text.splitlines() if ln.startswith("2:"))
        assert len(shown.encode()) <= LINE_CAP
        assert "beacon" in shown, shown[:60]
        assert shown.startswith("2:[+"), "the cut is made around the match"


@given(
    records=st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=8),
    cuts=st.lists(st.integers(1, 40), min_size=1, max_size=10),
    trailing=st.booleans(),
)
def test_json_records_are_split_the_same_whatever_the_chunks(
    records: list[bytes], cuts: list[int], trailing: bool
) -> None:
    """A record spanning many chunks (a long line) is joined once, never re-split."""
    data = b"\n".join(records) + (b"\n" if trailing else b"")
    chunks, pos = [], 0
    for i in range(len(data)):
        size = cuts[i % len(cuts)]
        if pos < len(data):
            chunks.append(data[pos : pos + size])
            pos += size
    expected = data.split(b"\n")
    if expected and expected[-1] == b"":
        expected.pop()
    assert list(split_lines(chunks)) == expected
