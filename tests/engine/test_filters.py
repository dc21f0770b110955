"""D30 filters against the real rg.

- The glob reading is rg's: on a tree without ignore rules, asrch's filter keeps exactly
  the files `rg --files --glob …` lists (excludes placed last, where rg too lets them win),
  and `--type` exactly those of `rg --files --type …`.
- They only narrow: on a tree holding every default exclusion, ignore file and hidden
  entry, no combination of globs and types yields a file the plain search does not.
"""

import functools
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from asrch.domain.errors import InputError
from asrch.domain.exclusions import EXCLUDED_DIRS, EXCLUDED_FILES, excluded_below
from asrch.domain.filters import make_filters
from asrch.domain.limits import SCAN_CAP
from asrch.domain.query import Query, SearchOptions
from asrch.engine.binary import resolve_rg
from asrch.engine.searcher import RipgrepSearcher
from tests.support.tiers import examples

RG = resolve_rg()
SEARCHER = RipgrepSearcher(RG)
TYPES = SEARCHER.file_types()
TERM = "needle"

PLAIN_FILES = (
    "x.py", "y.pyi", "z.txt", "Makefile", "notes.md", "a/x.py", "a/b/z.txt", "a/b/c/x.py",
    "a/makefile", "b/a.py", "b/x.txt", "c.d/w.md", "c.d/e/x.py", "t/test_x.py", "t/a/x.c",
    "src/t/x.h", "[x].py", "a/{y}.txt", "ab", "aXb/q.py",
)  # fmt: skip
TOKENS = (
    "*", "**", "?", "a", "b", "t", "x", ".py", ".txt", "/", "[ab]", "[!a]", "{x,y}",
    "c.d", "\\[", "src", "z", "e",
)  # fmt: skip
TYPE_NAMES = ("py", "python", "c", "make", "markdown", "txt", "cython", "all")


def _tree(root: Path, files: tuple[str, ...]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{TERM}\n")


def _rg_files(root: Path, *options: str) -> set[str]:
    argv = [RG, "--no-config", "--no-ignore", "--hidden", "--files", *options, "--", "."]
    done = subprocess.run(argv, cwd=root, capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return {line.removeprefix("./") for line in done.stdout.decode().splitlines()}


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plain")
    _tree(root, PLAIN_FILES)
    return root


glob_text = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=4).map("".join)
globs = st.lists(st.tuples(st.booleans(), glob_text), max_size=3)


# rg runs per example: a third of the examples in an ordinary run, every one of them
# under the profile `more` (tests/support/tiers.py).
RG_PER_EXAMPLE = settings(
    deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@settings(RG_PER_EXAMPLE, max_examples=examples(50, more=150))
@given(globs)
@example([(True, "**//")])  # `**/` alone is every path to rg: `!**//` keeps top-level files
@example([(True, "/**/**//")])
def test_globs_keep_what_rg_glob_keeps(plain: Path, drawn: list[tuple[bool, str]]) -> None:
    given_globs = [("!" if exclude else "") + text for exclude, text in drawn]
    try:
        filters = make_filters((), given_globs, TYPES)
    except InputError:
        assume(False)
        raise
    everything = _rg_files(plain)
    assert everything == set(PLAIN_FILES)
    # rg lets a later glob win; with the excludes last, an exclude wins as it does here.
    ordered = [g for g in given_globs if not g.startswith("!")]
    ordered += [g for g in given_globs if g.startswith("!")]
    expected = _rg_files(plain, *(f"--glob={g}" for g in ordered))
    assert {f for f in everything if filters.keeps(f)} == expected, ordered


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(TYPE_NAMES), min_size=1, max_size=3))
def test_types_keep_what_rg_type_keeps(plain: Path, names: list[str]) -> None:
    filters = make_filters(names, (), TYPES)
    expected = _rg_files(plain, *(f"--type={n}" for n in names))
    assert {f for f in _rg_files(plain) if filters.keeps(f)} == expected


EXCLUDED_ENTRIES = (
    *(f"{d}/x.py" for d in EXCLUDED_DIRS),
    *(f"src/{d}/deep/x.py" for d in EXCLUDED_DIRS),
    *(pattern.replace("*", "x") for pattern in EXCLUDED_FILES),
    *(f"src/{pattern.replace('*', 'y')}" for pattern in EXCLUDED_FILES),
    ".hidden.py", ".hid/x.py", "src/.hid/y.py", "src/.h.c",
    "ignored_by_git.py", "src/gi/x.py", "ignored_by_dot_ignore.py", "ignored_by_rgignore.py",
    "src/nested_ignored.py",
)  # fmt: skip
KEPT_ENTRIES = ("x.py", "src/a.py", "src/b.c", "src/Makefile", "docs/n.md", "src/deep/k.py")


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every default exclusion, ignore file and hidden entry, each holding the term."""
    root = tmp_path_factory.mktemp("guarded")
    _tree(root, (*EXCLUDED_ENTRIES, *KEPT_ENTRIES))
    (root / ".gitignore").write_text("ignored_by_git.py\nsrc/gi/\n")
    (root / ".ignore").write_text("ignored_by_dot_ignore.py\n")
    (root / ".rgignore").write_text("ignored_by_rgignore.py\n")
    (root / "src" / ".gitignore").write_text("nested_ignored.py\n")
    return root


def _searched(root: Path, types: list[str], globs_given: list[str], target: str = ".") -> set[str]:
    filters = make_filters(types, globs_given, TYPES)
    tally = SEARCHER.count(Query(term=TERM, filters=filters), str(root / target), cap=SCAN_CAP)
    prefix = str(root / target).rstrip("/") + "/"
    return {f.path.removeprefix(prefix) for f in tally.files}


def test_the_guarded_tree_searches_only_what_it_keeps(guarded: Path) -> None:
    assert _searched(guarded, [], []) == set(KEPT_ENTRIES)
    for entry in EXCLUDED_ENTRIES:
        parts = entry.split("/")
        hidden = any(p.startswith(".") for p in parts)
        assert hidden or "ignore" in entry or "gi/" in entry or excluded_below(parts, is_dir=False)


# Globs aimed at what is excluded: its names, its directories, everything.
AIMED = (
    "**", "*", "*.py", "*.log", "*.xml", "*.min.js", "*.map", "*.jsonl", ".*", ".hid/**",
    "**/.hid/**", ".hidden.py", "ignored_by_git.py", "src/gi/**", "ignored_by_*", "src/**",
    "**/x.py", "src/nested_ignored.py", *(f"{d}/**" for d in EXCLUDED_DIRS),
    *(f"**/{d}/**" for d in EXCLUDED_DIRS), *EXCLUDED_DIRS, "!src/**", "!x.py", "!*.md",
)  # fmt: skip


AIMED_FILTERS = (
    st.lists(st.sampled_from((*TYPE_NAMES, "js", "xml", "json", "log")), max_size=2),
    st.lists(st.sampled_from(AIMED), max_size=4),
    st.sampled_from([".", "src"]),
)


@settings(RG_PER_EXAMPLE, max_examples=examples(40, more=120))
@given(*AIMED_FILTERS)
def test_no_filter_brings_back_an_excluded_file(
    guarded: Path, types: list[str], globs_given: list[str], target: str
) -> None:
    assert _searched(guarded, types, globs_given, target) <= _unfiltered(guarded, target)


@functools.cache
def _unfiltered(root: Path, target: str) -> frozenset[str]:
    """What the walk searches without filters: one rg run per target, not one per example."""
    return frozenset(_searched(root, [], [], target))


def test_naming_an_excluded_directory_is_still_the_way_in(guarded: Path) -> None:
    """The filters narrow what the walk yields; a named target is searched as before."""
    assert _searched(guarded, ["py"], ["*.py"], "build") == {"x.py"}
    assert _searched(guarded, ["py"], ["!*.py"], "build") == set()


SURVEY_FILTERS = (
    st.lists(st.sampled_from(("py", "c", "markdown", "all")), max_size=2),
    st.lists(st.sampled_from(AIMED), max_size=3),
    st.booleans(),
)


@settings(RG_PER_EXAMPLE, max_examples=examples(8, more=25))
@given(*SURVEY_FILTERS)
def test_surveys_one_pass_keeps_what_each_count_keeps(
    guarded: Path, types: list[str], globs_given: list[str], ignore_case: bool
) -> None:
    """survey reads a tree once for all its terms: the filters (and -i) apply there too."""
    filters = make_filters(types, globs_given, TYPES)
    queries = [
        Query(term=t, options=SearchOptions(ignore_case=ignore_case), filters=filters)
        for t in (TERM, "NEEDLE", "eed")
    ]
    for target in (str(guarded), str(guarded / "src")):
        each = [SEARCHER.count(q, target, cap=SCAN_CAP) for q in queries]
        assert SEARCHER.count_terms(queries, target, cap=SCAN_CAP) == each


def test_a_hostile_glob_keeps_what_rg_keeps(tmp_path: Path) -> None:
    """Issue 32, item 2: 12 `*a` groups against a name of 40 `a`s (minutes as a
    backtracking regex; rg's globset, like the automaton here, is linear)."""
    names = ("a" * 40, "a" * 40 + "b", "d/" + "a" * 30 + "b", "ab", "b")
    _tree(tmp_path, names)
    for glob in ("*a" * 12 + "*b", "**/" + "*a" * 12 + "*", "!" + "*a" * 12 + "*b"):
        filters = make_filters((), [glob], TYPES)
        expected = _rg_files(tmp_path, f"--glob={glob}")
        assert {f for f in _rg_files(tmp_path) if filters.keeps(f)} == expected, glob


NESTED_FILES = ("a.py", "src/f1.py", "b/src/f3.py", "b/x/src/f4.py", "b/f5.py", "b/src/x/f6.py")
NESTED_TOKENS = ("*", "**", "/", "src", "b", "x", "f3.py", "*.py", "!", "a.py", "f?.py", "/src")


@pytest.fixture(scope="module")
def nested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nested").resolve()
    _tree(root / "t", NESTED_FILES)
    return root / "t"


NESTED_SEARCHES = (
    st.lists(
        st.lists(st.sampled_from(NESTED_TOKENS), min_size=1, max_size=4).map("".join), max_size=2
    ),
    st.sampled_from(["", "/", "//"]),
    st.sampled_from(["b", "b/x"]),
)


@settings(RG_PER_EXAMPLE, max_examples=examples(40, more=120))
@given(*NESTED_SEARCHES)
# Found by the draw: rg prunes `b` (matched whole on its way down to the working
# directory `b/x`), so `b/x/src/f4.py` is not searched although `src/f4.py` has no `b`.
@example(["!b"], "", "b/x")
# Drawn in the default tier: rg matches the working directory `b` itself as the empty
# path on its way down, which `*/` matches: `b/f5.py` is not searched.
@example(["!*/"], "", "b")
def test_a_search_above_the_working_directory_decides_per_file_as_rg(
    nested: Path, drawn: list[str], spelling: str, below: str
) -> None:
    """Issue 32, item 5: `cd t/b; rg --glob 'src/*' … /abs/t` matches the files under
    the working directory from there (`src/f3.py`), the others whole; so do the filters."""
    given_globs = [g for g in drawn if g not in ("!", "")]
    cwd = nested / below
    try:
        filters = make_filters((), given_globs, TYPES, cwd=str(cwd))
    except InputError:
        assume(False)
        raise
    target = str(nested).replace("/", spelling, 1) if spelling else str(nested)
    ordered = [g for g in given_globs if not g.startswith("!")]
    ordered += [g for g in given_globs if g.startswith("!")]

    def listed(*options: str) -> set[str]:
        argv = [RG, "--no-config", "--no-ignore", "--files", *options, "--", target]
        done = subprocess.run(argv, cwd=cwd, capture_output=True, check=False)
        assert done.returncode in (0, 1), done.stderr
        return set(done.stdout.decode().splitlines())

    everything = listed()
    assert len(everything) == len(NESTED_FILES)
    expected = listed(*(f"--glob={g}" for g in ordered))
    keeps = filters.keeper(target)
    assert {f for f in everything if keeps(f)} == expected, (ordered, target, below)
