"""D43: which one more search a zero answer makes, grep's constructs, the note's size."""

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.modes import Mode
from asrch.domain.notices import (
    GrepSyntaxNotice,
    IdleFilterNotice,
    NearNotice,
    NoMatchNotice,
    Notice,
)
from asrch.domain.query import Query, SearchOptions
from asrch.domain.words import spelled
from asrch.domain.zero import (
    GREP_LITERALS,
    grep_constructs,
    inside,
    literal_operators,
    probe_for,
    probed,
)
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
    # D57: under the working directory in either case, 1 search for both facts.
    assert probed(word, "path") == word_i
    assert probed(word_i, "path") == word_i


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


def test_a_pipe_outside_regex_is_a_literal_operator() -> None:
    """Issue 40: a fixed `"(tabsize|sucmd)":` matched nothing and said only that."""
    for mode in (Mode.FIXED, Mode.WORD, Mode.IDENTIFIER):
        query = Query('"(tabsize|sucmd)":', SearchOptions(mode=mode))
        assert literal_operators(query) == ("|",)
        assert literal_operators(query._replace(term="tabsize")) == ()
    regex = SearchOptions(mode=Mode.REGEX)
    assert literal_operators(Query(r"a\|b\(", regex)) == ("\\|", "\\(")
    assert literal_operators(Query("a", regex)) == ()
    note = GrepSyntaxNotice(constructs=("|",))
    said = spelled(notice_text(note), COMMAND_LINE)
    assert said == "no matches; | is a literal | in this mode, not OR: use survey --term A --term B"
    assert 'survey(terms=["A", "B"])' in spelled(notice_text(note), TOOL)


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
    for folded in (False, True):
        note = NearNotice(probe, matches, files, capped, top, mode, folded)  # type: ignore[arg-type]
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
    for folded in (False, True):
        assert _fits(NoMatchNotice(directory, filtered, binary, wider, folded=folded))


@given(
    option=st.sampled_from(["glob", "type"]),
    values=st.lists(names, min_size=1, max_size=6),
    path=st.none() | names,
    anchored=st.booleans(),
    spelling=st.none() | names,
    near=st.none() | st.builds(NearNotice, st.just("path"), counts, counts, st.booleans(), names),
)
def test_a_filter_that_kept_no_file_fits_160_bytes(  # noqa: PLR0917 (hypothesis's keywords)
    option: str,
    values: list[str],
    path: str | None,
    anchored: bool,
    spelling: str | None,
    near: NearNotice | None,
) -> None:
    """D43 with D38: a zero answer's filter note, whatever the globs, paths and count."""
    first, *also = values
    cause = IdleFilterNotice(option, first, path, True, anchored, spelling, tuple(also), True, near)
    assert _fits(cause)


def test_a_filter_note_drops_the_count_then_the_anchoring_then_names() -> None:
    near = NearNotice("path", 3, 2, False, "lib/" + "n" * 40 + ".py")
    cause = IdleFilterNotice("glob", "net/**", "src", True, True, "src/net/**", (), True, near)
    said = spelled(notice_text(cause), COMMAND_LINE)
    assert said == (
        '--glob "net/**" matched no file under src; a glob with a / is matched from the '
        'working directory, as rg matches it; from src write "src/net/**"'
    )
    names = tuple(f"{c * 30}*.zz" for c in "abcdef")
    many = IdleFilterNotice("glob", "*.py", ".", True, False, None, names, True)
    assert spelled(notice_text(many), COMMAND_LINE) == (
        f'--glob "*.py", "{names[0]}", "{names[1]}" and 4 more matched no file under .'
    )
    long_path = many._replace(path="d" * 200)
    assert spelled(notice_text(long_path), COMMAND_LINE) == "--glob matched no file"
    # Not a zero note (D38 alone): said whole.
    assert len(notice_text(many._replace(zero=False))) > NOTE_MAX
