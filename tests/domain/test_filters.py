"""D30 filters, pure: how a glob reads, how the filters combine, and their errors."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from asrch.domain.errors import InputError
from asrch.domain.filters import compile_glob, components, make_filters
from asrch.domain.words import spelled
from asrch.spelling import COMMAND_LINE
from tests.support.tiers import examples

TYPES = {"py": ("*.py", "*.pyi"), "make": ("[Mm]akefile", "*.mk"), "c": ("*.[chH]",)}


def keeps(path: str, *globs: str, types: tuple[str, ...] = ()) -> bool:
    return make_filters(types, globs, TYPES).keeps(path)


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("*.py", "a.py", True),
        ("*.py", "deep/er/a.py", True),  # no `/`: a name at any depth
        ("*.py", "a.pyc", False),
        ("net/*.py", "net/pool.py", True),  # a `/`: anchored at the searched path
        ("net/*.py", "src/net/pool.py", False),
        ("/a.py", "a.py", True),
        ("/a.py", "b/a.py", False),
        ("*/x.py", "a/b/x.py", False),  # `*` stops at `/`
        ("**/x.py", "a/b/x.py", True),
        ("**/x.py", "x.py", True),
        ("a/**", "a/b/c.txt", True),
        ("a/**/c.txt", "a/c.txt", True),
        ("a/**/c.txt", "a/b/b/c.txt", True),
        ("a**b", "aXXb", True),  # not a whole component: `*`
        ("?.py", "a.py", True),
        ("?.py", "ab.py", False),
        ("[ab].py", "b.py", True),
        ("[!ab].py", "b.py", False),
        ("[^ab].py", "c.py", True),
        ("[a-c]x", "bx", True),
        ("{x,y}.py", "y.py", True),
        ("{x,y}.py", "z.py", False),
        ("\\*.py", "*.py", True),
        ("\\*.py", "a.py", False),
        ("[]].py", "].py", True),
    ],
)
def test_an_include_glob_reads_like_a_gitignore_line(glob: str, path: str, expected: bool) -> None:
    assert keeps(path, glob) is expected


def test_an_exclude_drops_a_file_it_matches_or_one_under_a_directory_it_matches() -> None:
    assert not keeps("tests/a.py", "!tests")
    assert not keeps("src/tests/a.py", "!tests")
    assert not keeps("src/tests/a.py", "!tests/")  # directories only
    assert keeps("src/tests", "!tests/")  # a file named tests stays
    assert keeps("src/tests/a.py", "!/tests")  # anchored at the searched path
    assert not keeps("tests/a.py", "!/tests")
    assert not keeps("a/b/c.log.d/x", "!*.log.d")


def test_a_directory_exclude_reads_a_path_1500_directories_deep() -> None:
    # Each directory's verdict comes from the one above it: found by a loop (issue 39,
    # item 1's class: a recursion as deep as the input), not past Python's 1,000 frames.
    deep = "/".join(["a"] * 1500)
    keeper = make_filters((), ("!b/",), TYPES).keeper(".")
    assert keeper(f"./{deep}/f.txt")
    assert not make_filters((), ("!a/",), TYPES).keeper(".")(f"./{deep}/f.txt")
    assert not make_filters((), ("!a/a/",), TYPES).keeper(".")(f"./{deep}/b/f.txt")


def test_excludes_win_whatever_the_order_and_every_filter_must_keep_the_file() -> None:
    assert not keeps("t/a.py", "!t/**", "*.py")
    assert not keeps("t/a.py", "*.py", "!t/**")
    assert keeps("a.py", "*.md", "*.py")  # includes: any one of them
    assert keeps("a.pyi", types=("py",))
    assert keeps("Makefile", types=("c", "make"))  # types: any one of them
    assert not keeps("a.md", types=("py",))
    assert not keeps("a.md", "*.md", types=("py",))  # types and globs: both
    assert keeps("a.py", "*.py", types=("py",))
    assert make_filters((), (), TYPES).keeps("anything")
    assert keeps("GNUmakefile", types=("all",)) is False
    assert keeps("a.h", types=("all",)) and keeps("makefile", types=("all",))


def test_a_path_is_seen_as_typed_without_dot_slashes() -> None:
    assert components("./src//net/pool.py") == ["src", "net", "pool.py"]
    assert components("/abs/./x") == ["abs", "x"]
    filters = make_filters((), ("!src/net/**",), TYPES)
    assert said(filters.excluding("./src//net/pool.py")) == '--glob "!src/net/**"'
    # An absolute path is matched as rg matches it: from its working directory if it
    # lies under it, else whole (leading `/` included: no anchored glob matches it).
    assert make_filters((), ("/abs/**",), TYPES, cwd="/").keeps("/abs/x")
    assert make_filters((), ("x/**",), TYPES, cwd="/abs").keeps("/abs//x/y")
    assert not make_filters((), ("/abs/**",), TYPES, cwd="/work").keeps("/abs/x")
    assert not make_filters((), ("abs/**",), TYPES, cwd="/work").keeps("/abs/x")
    assert make_filters((), ("**/abs/**",), TYPES, cwd="/work").keeps("/abs/x")
    assert make_filters((), ("!tmp/**",), TYPES, cwd="/tmp/p").keeps("/tmp/p/src/x")


def test_an_exclude_checks_only_the_directories_below_the_searched_path() -> None:
    filters = make_filters((), ("!tests",), TYPES)
    assert not filters.keeps("tests/a.py")
    assert filters.keeps("tests/a.py", below=1)  # a search of `tests` itself
    assert filters.excluding("tests/a.py") is None  # the same file, named
    assert filters.excluding("tests") is not None


def test_types_and_globs_are_named_when_they_exclude() -> None:
    assert said(make_filters(("py",), ("*.py",), TYPES).excluding("a.md")) == (
        '--type py and --glob "*.py"'
    )


@pytest.mark.parametrize(
    ("glob", "message"),
    [
        ("", "is empty"),
        ("!", "is empty"),
        ("src/", "matches directories only, so it keeps no file"),
        ("[ab", "unclosed character class"),
        ("{a,{b}}", "nested alternate groups"),
        ("{a,b", "unclosed alternate group"),
        ("a\\", "dangling"),
    ],
)
def test_a_glob_that_cannot_keep_a_file_or_does_not_parse_is_refused(
    glob: str, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        compile_glob(glob)


def test_an_unknown_type_lists_close_names() -> None:
    with pytest.raises(InputError) as raised:
        make_filters(("pyy",), (), TYPES)
    assert said(raised.value.message).startswith("unknown --type pyy; close names: py; ")
    with pytest.raises(InputError, match="no close name"):
        make_filters(("zzzzzz",), (), TYPES)


def said(text: str | None) -> str:
    assert text is not None
    return spelled(text, COMMAND_LINE)


_NAMES = st.sampled_from(["a", "b", "tests", "x.py", "y.md", "[a]", ".h", "a.d", "src"])
_GLOB_TOKENS = st.sampled_from(
    ["*", "**", "?", "a", "b", "tests", ".py", "/", "[ab]", "[!a]", "{x,y}"]
)


@settings(max_examples=300)
@given(
    target=st.sampled_from([".", "./", "src", "src/", "./src//", "/abs/src", "/"]),
    below=st.lists(_NAMES, min_size=1, max_size=4).map("/".join),
    drawn=st.lists(
        st.tuples(st.booleans(), st.lists(_GLOB_TOKENS, min_size=1, max_size=4).map("".join)),
        max_size=3,
    ),
    types=st.lists(st.sampled_from(sorted(TYPES)), max_size=2),
)
# Found by hypothesis: the searched path itself is no directory an exclude can drop.
@example(target="/abs/src", below="a", drawn=[(True, "*/")], types=[])
# And the root outside the working directory is one empty component: `/*` is anchored.
@example(target="/", below="a", drawn=[(False, "/*")], types=[])
def test_the_walks_fast_keeper_agrees_with_keeps(
    target: str, below: str, drawn: list[tuple[bool, str]], types: list[str]
) -> None:
    globs = [("!" if exclude else "") + text for exclude, text in drawn]
    try:
        filters = make_filters(types, globs, TYPES)
    except InputError:
        return
    printed = target + below if target.endswith("/") else f"{target}/{below}"
    # `below` counts the components the globs see (`parts`): an absolute target outside
    # the working directory has a leading empty one (issue 20, item 3).
    expected = filters.keeps(printed, below=len(filters.parts(target)))
    assert filters.keeper(target)(printed) is expected, (printed, globs, types)


# Issue 32, item 2: matching is linear (an automaton, or a regex that provably is).

from asrch.domain.glob_match import Either, Matcher, One, Star, as_regex  # noqa: E402
from asrch.domain.limits import GLOB_MAX  # noqa: E402


def _reference(nodes: tuple[object, ...]) -> str:
    """The backtracking regex of `nodes`, as filters translated globs before (a test
    oracle only: it is the one that takes minutes on a hostile glob)."""
    out = []
    for node in nodes:
        if isinstance(node, One):
            out.append(node.regex)
        elif isinstance(node, Star):
            out.append(f"{node.regex}*")
        else:
            assert isinstance(node, Either)
            out.append("(?:" + "|".join(_reference(c) for c in node.choices) + ")")
    return "".join(out)


GLOB_TOKENS = ("*", "**", "?", "a", "b", "/", ".", "[ab]", "[!a]", "[/]", "{a,b*}", "\\*", "x/")
NAME_CHARS = st.sampled_from(["a", "b", "/", ".", "x", "*", "\udc80"])


GLOBS_AND_NAMES = {
    "glob": st.lists(st.sampled_from(GLOB_TOKENS), min_size=1, max_size=7).map("".join),
    "names": st.lists(st.lists(NAME_CHARS, max_size=12).map("".join), min_size=1, max_size=8),
}


@settings(max_examples=examples(200, more=600), deadline=None)
@given(**GLOBS_AND_NAMES)
def test_the_automaton_and_the_linear_regex_agree_with_the_backtracking_one(
    glob: str, names: list[str]
) -> None:
    import re

    try:
        compiled = compile_glob(glob)
    except InputError:
        return
    reference = re.compile(_reference(compiled.nodes), re.DOTALL)
    automaton = Matcher((compiled.nodes,))
    body = compiled.nodes if compiled.anchored else compiled.nodes[1:]
    linear = as_regex(body, anchored=compiled.anchored)
    for name in names:
        expected = reference.fullmatch(name) is not None
        assert automaton.fullmatch(name) is expected, (glob, name)
        if linear is not None:
            assert (re.fullmatch(linear, name, re.DOTALL) is not None) is expected, (glob, name)
        assert compiled.matches(name.split("/"), is_dir=False) is expected, (glob, name)


def test_a_hostile_glob_is_matched_in_linear_time() -> None:
    """`*a*…*a*b` against a name of `a`s took 39 s with 10 groups and 40 `a`s as a
    backtracking regex; the automaton's work grows with the name's length times the
    glob's: 400 `a`s and 40 groups are nothing (the old code would never end here)."""
    glob = "*a" * 40 + "*b"
    filters = make_filters((), (glob,), TYPES)
    assert filters.includes[0].regex is None  # the automaton runs it
    assert not filters.keeps("a" * 400)
    assert filters.keeps("a" * 400 + "b")
    assert not filters.keeper(".")("./" + "a" * 400)
    assert not make_filters((), ("{a,a}" * 30 + "b",), TYPES).keeps("a" * 30)


def test_a_glob_longer_than_the_limit_is_refused_in_one_short_line() -> None:
    with pytest.raises(InputError) as refused:
        compile_glob("*" * (GLOB_MAX + 1))
    message = said(refused.value.message)
    assert message == (
        f'--glob "********************"... is {GLOB_MAX + 1} characters long; '
        f"a glob may have at most {GLOB_MAX}"
    )
    compile_glob("a" * GLOB_MAX)  # the limit itself is allowed


def test_a_reversed_range_is_an_input_error_as_in_rg() -> None:
    with pytest.raises(InputError, match="not a valid glob: invalid character class"):
        compile_glob("[c-a]x")
