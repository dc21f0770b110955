"""D35's kinds, D36's survey step, D34's binary note, the broad note by mode and D32's
listed path line: the rules the goldens show once, held over their edge cases."""

import posixpath

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from asrch.domain.counting import FileCount, Tally, relative_to
from asrch.domain.limits import TEST_FILES_MAX
from asrch.domain.modes import Mode
from asrch.domain.next_step import survey_step
from asrch.domain.notices import BinaryNotice, BroadNotice
from asrch.domain.query import Query
from asrch.domain.scout import (
    DOCS_FOLDERS,
    DOCS_SUFFIXES,
    GENERATED_NAMES,
    GENERATED_SUFFIXES,
    KINDS,
    TEST_FOLDERS,
    kind_below,
    kind_counts,
    kind_of,
    kinds_below,
    next_file,
)
from asrch.domain.scout_folds import TEST_SUFFIXES, FoldedLines, files_for_tests
from asrch.domain.words import spelled
from asrch.render.notices import notice_text
from asrch.render.scout import listed_path_line
from asrch.spelling import COMMAND_LINE


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("tests/unit/x.c", "test"),
        ("pkg/testing/helpers.py", "test"),
        ("web/__tests__/a.js", "test"),
        ("spec/models/user_spec.rb", "test"),
        ("test_app.py", "test"),
        ("net/client_test.go", "test"),
        ("src/app.test.ts", "test"),
        ("src/app.spec.js", "test"),
        ("tests/README.md", "test"),  # a test folder wins over the extension
        ("docs/api.py", "docs"),
        ("doc/x.c", "docs"),
        ("CHANGES.md", "docs"),
        ("notes/a.RST", "docs"),
        ("guide.adoc", "docs"),
        ("lib/testing.c", "source"),  # a name is not a folder
        ("src/contest.py", "source"),
        ("latest/app.py", "source"),
        ("src/spec.py", "source"),
        ("package-lock.json", "generated"),  # issue 40: no source for the next step
        ("web/yarn.lock", "generated"),
        ("tests/Cargo.lock", "generated"),  # a lockfile wins over a test folder
        ("poetry.lock", "generated"),
        ("deps/x-lock.yaml", "generated"),
        ("go.sum", "generated"),
        ("src/lock.py", "source"),
        ("src/package.json", "source"),
    ],
)
def test_kind_of_a_path(path: str, kind: str) -> None:
    assert kind_of(path) == kind


def test_next_file_is_the_code_first_over_every_file() -> None:
    files = (
        FileCount("./tests/test_a.py", 30),
        FileCount("./docs/a.md", 20),
        FileCount("./src/b.py", 2),
        FileCount("./src/a.py", 2),
    )
    chosen = next_file(files, ".")
    assert chosen is not None and chosen.path == "./src/a.py"  # tie: path order
    assert next_file(files[:2], ".") == files[0]
    assert next_file((), ".") is None
    assert [tuple(k) for k in kind_counts(files, ".")] == [
        ("source", 4, 2),
        ("test", 30, 1),
        ("docs", 20, 1),
    ]
    lock = FileCount("./package-lock.json", 900)
    chosen = next_file((lock, *files[1:2]), ".")
    assert chosen is not None and chosen.path == "./docs/a.md"  # a lockfile comes last
    assert next_file((lock,), ".") == lock  # but a match is a match


@pytest.mark.parametrize(
    ("target", "prefix"),
    [
        (".", "./"),
        ("test/proj", "test/proj/"),
        ("test/proj/", "test/proj/"),
        ("./test/proj", "./test/proj/"),
        ("/abs/tests/proj", "/abs/tests/proj/"),
        ("spec//", "spec//"),
    ],
)
def test_kinds_are_told_below_the_searched_path(target: str, prefix: str) -> None:
    """Issue 32, item 7: the same tree, however spelled and wherever it lies (inside a
    folder named `test`, `tests` or `spec`), gets the same kinds and the same next file."""
    files = (
        FileCount(f"{prefix}tests/test_a.py", 30),
        FileCount(f"{prefix}docs/a.md", 20),
        FileCount(f"{prefix}src/a.py", 2),
    )
    assert [tuple(k) for k in kind_counts(files, target)] == [
        ("source", 2, 1),
        ("test", 30, 1),
        ("docs", 20, 1),
    ]
    chosen = next_file(files, target)
    assert chosen is not None and chosen.path == f"{prefix}src/a.py"


@pytest.mark.parametrize(
    ("file", "kind"),
    [
        ("tests/helpers.py", "source"),
        ("tests/test_a.py", "test"),
        ("docs/x.py", "source"),
        ("src/README.md", "docs"),
    ],
)
def test_a_file_named_as_the_path_is_told_by_its_name(file: str, kind: str) -> None:
    assert kind_below(file, file) == kind


def test_survey_steps_to_the_most_selective_exact_pair() -> None:
    queries = [Query(term="alpha"), Query(term="beta")]
    rows = [(25, 2, "wide"), (51_500, 2, "deep")]
    pairs = [
        (0, 20, 1, False, "wide"),
        (1, 1_500, 1, False, "wide"),
        (0, 5, 3, False, "deep"),
        (1, 5, 1, True, "deep"),  # fewer files, but a lower bound
        (1, 5, 1, False, "deep"),  # as few lines as alpha's, fewer files
    ]
    assert COMMAND_LINE.argv(survey_step(queries, rows, pairs)) == (
        "asrch",
        "scout",
        "beta",
        "deep",
    )
    assert COMMAND_LINE.argv(survey_step(queries, rows, pairs[:3])) == (
        "asrch",
        "scout",
        "alpha",
        "deep",
    )
    # Every pair at the cap: the term rule (most selective term in its dominant path).
    capped = [(0, 50_000, 1, True, "a"), (1, 50_000, 2, True, "b")]
    rows = [(50_000, 1, "a"), (50_000, 2, "b")]
    assert COMMAND_LINE.argv(survey_step(queries, rows, capped)) == ("asrch", "scout", "alpha", "a")


def test_the_binary_note_is_one_short_line() -> None:
    assert spelled(notice_text(BinaryNotice(files=1)), COMMAND_LINE) == "1 binary file skipped"
    longest = spelled(notice_text(BinaryNotice(files=10**9, capped=True)), COMMAND_LINE)
    assert longest == "at least 1000000000 binary files skipped"
    assert len(f"note: {longest}".encode()) <= 60


@pytest.mark.parametrize(
    ("mode", "advice"),
    [
        (Mode.FIXED, "narrow the path, or use a longer term or --identifier / --word"),
        (Mode.WORD, "narrow the path (or --type / --glob), or use a longer term"),
        (Mode.IDENTIFIER, "narrow the path (or --type / --glob), or use a longer term"),
        (Mode.REGEX, "narrow the path (or --type / --glob), or use a more specific pattern"),
    ],
)
def test_the_broad_note_never_suggests_the_mode_in_use(mode: Mode, advice: str) -> None:
    text = spelled(
        notice_text(BroadNotice(matches=2000, files=3, capped=False, mode=mode)), COMMAND_LINE
    )
    assert text == f"broad search: 2000 matching lines in 3 files; {advice}"


@pytest.mark.parametrize(
    ("notice", "advice"),
    [
        (BroadNotice(2000, 3, False, one_file=True), "use a longer term or --identifier / --word"),
        (
            BroadNotice(2000, 3, False, mode=Mode.REGEX, one_file=True),
            "use a more specific pattern",
        ),
        (
            BroadNotice(2000, 3, False, bounded_narrows=False),
            "narrow the path, or use a longer term",
        ),
        (
            BroadNotice(2000, 3, False, mode=Mode.WORD, ignore_case=True),
            "narrow the path (or --type / --glob), or use a longer term, or drop -i",
        ),
        (
            BroadNotice(2000, 3, False, ignore_case=True, one_file=True, bounded_narrows=False),
            "use a longer term, or drop -i",
        ),
    ],
)
def test_the_broad_note_names_only_what_would_narrow(notice: BroadNotice, advice: str) -> None:
    """No path to narrow in a one-file search, no bounded mode for a term of punctuation,
    and -i, when on, is one more way."""
    assert (
        spelled(notice_text(notice), COMMAND_LINE)
        == f"broad search: 2000 matching lines in 3 files; {advice}"
    )


def test_a_listed_path_never_reads_as_a_numbered_line() -> None:
    assert listed_path_line("src/app.py") == "src/app.py"
    assert listed_path_line("2024-notes.md") == '"2024-notes.md"'
    assert listed_path_line("12=x.py") == '"12=x.py"'
    assert listed_path_line("a b.py") == '"a b.py"'


def test_a_capped_scan_is_never_listed() -> None:
    from asrch.domain.scout import lists

    assert lists(Tally(files=(FileCount("a", 20),)))
    assert not lists(Tally(files=(FileCount("a", 21),)))
    assert not lists(Tally(files=(FileCount("a", 5),), capped=True))
    assert not lists(Tally())


# --- the fast kinds equal the plain definition (a scout past the cap asks 8,000 files) ---


def _plain_kind_of(path: str) -> str:
    """D35 as first written: every folder of the path looked at for every file."""
    *folders, name = path.split("/")
    if name in GENERATED_NAMES or name.endswith(GENERATED_SUFFIXES):
        return "generated"
    if (
        any(f in TEST_FOLDERS for f in folders)
        or name.startswith("test_")
        or "_test." in name
        or ".test." in name
        or ".spec." in name
    ):
        return "test"
    if any(f in DOCS_FOLDERS for f in folders) or name.lower().endswith(DOCS_SUFFIXES):
        return "docs"
    return "source"


def _plain_kind_below(path: str, target: str) -> str:
    below = relative_to(path, target)
    if below == path:
        below = posixpath.basename(path) if path == target else path.removeprefix("./")
    return _plain_kind_of(below)


_part = st.sampled_from(
    ["a", "", ".", "test", "tests", "docs", "doc", "x.md", "test_a.py", "a_test.go",
     "a.spec.js", "yarn.lock", "a-lock.json", "src", "A.RST"]
)  # fmt: skip


@st.composite
def _files(draw: st.DrawFn) -> tuple[str, list[FileCount]]:
    """Paths under a target as rg prints them, and some that are not (the target itself,
    other spellings): the fast path must agree on every string."""
    target = draw(st.sampled_from([".", "./", "src", "src/", "/abs/test", "/", "src/a.py"]))
    paths = draw(
        st.lists(
            st.one_of(
                st.lists(_part, min_size=1, max_size=4).map(
                    lambda parts: (
                        (target if target.endswith("/") else target + "/") + "/".join(parts)
                    )
                ),
                st.lists(_part, min_size=1, max_size=4).map("/".join),
                st.just(target),
            ),
            max_size=25,
        )
    )
    counts = draw(st.lists(st.integers(1, 4), min_size=len(paths), max_size=len(paths)))
    return target, [FileCount(p, n) for p, n in zip(paths, counts, strict=True)]


@given(_files(), st.lists(st.integers(0, 4), max_size=25))
# A folder rg printed that a file with no name shares: judged on its own (`tests/`).
@example(("/abs/test", [FileCount("/abs/test/x", 1), FileCount("/abs/test/", 1)]), [])
def test_fast_kinds_and_next_file_equal_the_plain_definition(
    tree: tuple[str, list[FileCount]], folds: list[int]
) -> None:
    target, files = tree
    for f in files:
        assert kind_of(f.path) == _plain_kind_of(f.path)
    kinds = kinds_below(files, target)
    assert kinds == [_plain_kind_below(f.path, target) for f in files]
    per_file = {f.path: min(n, f.matches) for f, n in zip(files, folds, strict=False)}
    folded = FoldedLines(0, sum(per_file.values()), per_file)
    for fold in (None, folded):
        by = fold.per_file if fold is not None else {}
        plain = (
            min(
                files,
                key=lambda f: (
                    KINDS.index(_plain_kind_below(f.path, target)),
                    -(f.matches - by.get(f.path, 0)),
                    -f.matches,
                    relative_to(f.path, target),
                ),
            )
            if files
            else None
        )
        assert next_file(tuple(files), target, fold) is plain
    assert kind_counts(tuple(files), target) == kind_counts(tuple(files), target, kinds)
    plain_tests = [
        f.path
        for f in sorted(files, key=lambda f: (-f.matches, f.path))
        if f.path.lower().endswith(TEST_SUFFIXES) and kind_below(f.path, target) != "test"
    ][:TEST_FILES_MAX]
    assert files_for_tests(files, lambda p: kind_below(p, target)) == plain_tests
