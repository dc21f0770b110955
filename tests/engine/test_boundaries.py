"""`--word` / `--identifier` at a term's edges, held against rg itself.

The rule the loose-boundary note states: both modes demand that the characters just
outside the match are not word characters, whatever the term's own edges; so a term
that begins or ends with a non-word character misses the lines where a word character
touches that edge. These tests check the rule, the word-character table and the note's
example lines against the real rg.
"""

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asrch.domain.boundaries import bounded_char, is_word_char, loose_edges, word_part
from asrch.domain.limits import SCAN_CAP
from asrch.domain.modes import Mode
from asrch.domain.notices import LooseBoundaryNotice, loose_boundary
from asrch.domain.query import Query, SearchOptions
from asrch.engine.binary import resolve_rg
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.notices import notice_text

SEARCHER = RipgrepSearcher()
BOUNDED = st.sampled_from([Mode.WORD, Mode.IDENTIFIER])
# Word characters of both kinds, of one kind only, and none.
ALPHABET = st.sampled_from(list("ax_1.( -é\u0301幅Ⓐ€"))
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
# Assigned in Unicode 15.1, after the tables of rg 14.1 (15.0): CJK Extension I.
_NEWER_THAN_RG = range(0x2EBF0, 0x2EE5E)


def test_word_characters_are_rgs_for_every_code_point() -> None:
    """One rg run: `a` followed by each code point matches `-w a` iff it is not \\w."""
    points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and c != 0x0A]
    data = "".join(f"a{chr(c)}\n" for c in points).encode()
    done = subprocess.run(
        [resolve_rg(), "--no-config", "-F", "-w", "-n", "-a", "-e", "a", "-"],
        input=data,
        capture_output=True,
        check=True,
    )
    not_word = {points[int(line.split(b":")[0]) - 1] for line in done.stdout.splitlines()}
    wrong = [
        hex(c)
        for c in points
        if (c not in not_word) != is_word_char(chr(c))
        and unicodedata.category(chr(c)) != "Cn"  # unassigned in this Python's tables
        and c not in _NEWER_THAN_RG
    ]
    assert wrong == [], f"{len(wrong)} code points disagree with rg (Python {sys.version})"


def _occurs_bounded(line: str, term: str, mode: Mode) -> bool:
    """The rule: some occurrence whose outside neighbours are not word characters."""
    start = line.find(term)
    while start >= 0:
        before = line[start - 1] if start else ""
        after = line[start + len(term) : start + len(term) + 1]
        if not (before and bounded_char(mode, before)) and not (
            after and bounded_char(mode, after)
        ):
            return True
        start = line.find(term, start + 1)
    return False


def _count(tmp: Path, lines: list[str], term: str, mode: Mode) -> int:
    file = tmp / "f.txt"
    file.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return SEARCHER.count(
        Query(term=term, options=SearchOptions(mode=mode)), str(file), cap=SCAN_CAP
    ).matches


@SETTINGS
@given(
    mode=BOUNDED,
    term=st.text(ALPHABET, min_size=1, max_size=3).filter(lambda t: t.strip() == t),
    lines=st.lists(st.text(ALPHABET, max_size=10), min_size=1, max_size=8),
)
def test_bounded_modes_find_exactly_the_lines_the_rule_says(
    tmp_path: Path, mode: Mode, term: str, lines: list[str]
) -> None:
    expected = sum(_occurs_bounded(line, term, mode) for line in lines)
    assert _count(tmp_path, lines, term, mode) == expected


@SETTINGS
@given(mode=BOUNDED, term=st.text(ALPHABET, min_size=1, max_size=4))
def test_the_note_is_given_exactly_when_an_edge_cannot_hold_and_its_example_is_true(
    tmp_path: Path, mode: Mode, term: str
) -> None:
    start, end = loose_edges(term, mode)
    notice = loose_boundary(Query(term=term, options=SearchOptions(mode=mode)))
    if not (start or end):
        assert notice is None
        return
    assert notice == LooseBoundaryNotice(term=term, mode=mode, start=start, end=end)
    text = notice_text(notice)
    examples = ([f"x{term}"] if start else []) + ([f"{term}x"] if end else [])
    for line in examples:
        assert _count(tmp_path, [line], term, mode) == 0, f"{line!r} is found: {text}"
        assert _count(tmp_path, [line], term, Mode.FIXED) == 1
        part = word_part(term, mode)
        if part:
            assert _count(tmp_path, [line], part, mode) == 1, f"{part!r} misses {line!r}"


@pytest.mark.parametrize(
    ("term", "mode", "edges"),
    [
        ("self.", Mode.WORD, (False, True)),
        ("def get(", Mode.IDENTIFIER, (False, True)),
        (".get", Mode.WORD, (True, False)),
        ("->", Mode.WORD, (True, True)),
        ("self", Mode.WORD, (False, False)),
        ("é", Mode.WORD, (False, False)),
        ("é", Mode.IDENTIFIER, (True, True)),
        ("self.", Mode.FIXED, (False, False)),
        ("self.", Mode.REGEX, (False, False)),
    ],
)
def test_edges_of_known_terms(term: str, mode: Mode, edges: tuple[bool, bool]) -> None:
    assert loose_edges(term, mode) == edges
