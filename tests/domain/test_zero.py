"""D43: which one more search a zero answer makes, grep's constructs, the note's size."""

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.modes import Mode
from asrch.domain.notices import GrepSyntaxNotice, NearNotice, NoMatchNotice, Notice
from asrch.domain.query import Query, SearchOptions
from asrch.domain.words import spelled
from asrch.domain.zero import GREP_LITERALS, grep_constructs, inside, probe_for, probed
from asrch.render.notices import NOTE_MAX, notice_text
from asrch.spelling import COMMAND_LINE, TOOL


def _fits(note: Notice) -> bool:
    """At most 160 bytes as each surface spells it (D43, D49)."""
    return all(
        len(spelled(notice_text(note), spelling).encode()) <= NOTE_MAX
        for spelling in (COMMAND_LINE, TOOL)
    )


def test_the_first_probe_that_applies_is_the_only_one() -> None:
    fixed, word = Query(term="t"), Query(term="t", options=SearchOptions(mode=Mode.WORD))
    word_i = Query(term="t", options=SearchOptions(mode=Mode.WORD, ignore_case=True))
    assert probe_for(fixed, narrower=True) == "path"
    assert probe_for(fixed, narrower=False) == "case"
    assert probe_for(word_i, narrower=False) == "fixed"
    assert (
        probe_for(Query(term="t", options=SearchOptions(ignore_case=True)), narrower=False) is None
    )
    regex = Query(term="a\\|b", options=SearchOptions(mode=Mode.REGEX, ignore_case=True))
    assert probe_for(regex, narrower=False) is None
    assert probed(word, "case") == word_i
    assert probed(word, "fixed").mode is Mode.FIXED
    assert probed(word, "path") == word


def test_grep_constructs_are_the_escaped_operators_only() -> None:
    assert grep_constructs("a\\|b") == ("\\|",)
    assert grep_constructs("\\(ab\\)\\+\\?x\\{2\\}") == (
        "\\(",
        "\\)",
        "\\+",
        "\\?",
        "\\{",
        "\\}",
    )
    assert grep_constructs("a\\\\|b") == ()  # an escaped backslash, then an OR
    assert grep_constructs("a\\\\\\|b") == ("\\|",)
    assert grep_constructs("\\bword\\b\\<x\\>\\.") == ()  # rg reads these as grep does
    assert grep_constructs("\\|\\|") == ("\\|",)


def test_inside_is_strictly_below() -> None:
    assert inside("/a/b", "/a") and inside("/a/b/c", "/a")
    assert not inside("/a", "/a") and not inside("/ab", "/a") and not inside("/b", "/a")
    assert inside("/x", "/")


names = st.text(st.characters(codec="utf-8"), max_size=300)
counts = st.integers(min_value=0, max_value=10**9)


@given(
    probe=st.sampled_from(["path", "case", "fixed"]),
    mode=st.sampled_from(list(Mode)),
    matches=counts,
    files=counts,
    capped=st.booleans(),
    top=st.none() | names,
)
def test_a_near_note_fits_160_bytes(  # noqa: PLR0917 (hypothesis's keywords)
    probe: str, mode: Mode, matches: int, files: int, capped: bool, top: str | None
) -> None:
    note = NearNotice(probe, matches, files, capped, top, mode)  # type: ignore[arg-type]
    assert _fits(note)


@given(
    constructs=st.lists(st.sampled_from(sorted(GREP_LITERALS)), unique=True, min_size=1),
    directory=st.booleans(),
    filtered=st.booleans(),
    wider=st.booleans(),
    binary=counts,
)
def test_every_other_zero_note_fits_160_bytes(
    constructs: list[str], directory: bool, filtered: bool, wider: bool, binary: int
) -> None:
    grep = GrepSyntaxNotice(tuple(f"\\{c}" for c in constructs))
    assert _fits(grep)
    plain = NoMatchNotice(directory, filtered, binary, wider)
    assert _fits(plain)
