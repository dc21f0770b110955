"""Notices hold against real rg on real files (D6): each says only what is true."""

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from asrch.commands.sample import run_sample
from asrch.commands.scout import run_scout
from asrch.commands.survey import run_survey
from asrch.domain.limits import SCAN_CAP
from asrch.domain.notices import CapNotice, NestedPathNotice, NoMatchNotice, SamePathNotice
from asrch.domain.query import Query, SearchOptions
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.notices import notice_text

SEARCHER = RipgrepSearcher()
SCOPES = ScopeReader()
FEW = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# Places where a directory walk would not look, and contents it would not read.
HIDDEN_PLACES = [
    ".hidden/f.txt",
    "build/f.txt",
    "node_modules/pkg/f.txt",
    "notes.log",
    "ignored/f.txt",
    "plain/f.txt",
]
WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta"])


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".ignore").write_text("ignored/\n")
    return tmp_path


@FEW
@given(
    place=st.sampled_from(HIDDEN_PLACES),
    words=st.lists(WORDS, max_size=6),
    nul=st.booleans(),
    term=WORDS,
)
def test_a_named_file_is_searched_whole_and_its_zero_note_says_so(
    tree: Path, place: str, words: list[str], nul: bool, term: str
) -> None:
    lines = [w.encode() for w in words]
    if nul:
        lines.insert(0, b"bin\0ary")
    data = b"".join(line + b"\n" for line in lines)
    file = tree / place
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(data)
    expected = sum(term.encode() in line for line in lines)
    scout = run_scout(SEARCHER, term, str(file), SearchOptions(), scopes=SCOPES)
    sample = run_sample(
        SEARCHER, term, str(file), SearchOptions(), clusters=3, page=1, scopes=SCOPES
    )
    assert scout.matches == sample.matches == expected
    for report in (scout, sample):
        zero = [n for n in report.notices if isinstance(n, NoMatchNotice)]
        assert zero == ([NoMatchNotice(directory=False)] if expected == 0 else [])
    file.unlink()


def test_the_zero_note_under_a_directory_names_binary_files(tree: Path) -> None:
    """The only match sits in a file with a NUL byte: the walk does not read it."""
    (tree / "data.bin").write_bytes(b"\0" + b"x" * 100 + b"\nneedle\n")
    report = run_scout(SEARCHER, "needle", str(tree), SearchOptions(), scopes=SCOPES)
    assert report.matches == 0
    (note,) = (n for n in report.notices if isinstance(n, NoMatchNotice))
    assert note.directory
    # D43/D45: the binary count inside the zero note, from the one more search (-i).
    assert note.binary == 1
    assert "not searched: 1 binary file, and ignored" in notice_text(note)
    named = run_scout(SEARCHER, "needle", str(tree / "data.bin"), SearchOptions(), scopes=SCOPES)
    assert named.matches == 1


NAMES = st.sampled_from(["a.txt", "b/c.txt", "b/d.txt", "b-e.txt", "b.txt", "z/y/x.txt", "B.txt"])


@settings(max_examples=10, deadline=None)
@given(st.dictionaries(NAMES, st.integers(12_000, 30_000), min_size=4, max_size=6))
def test_the_cap_note_names_the_file_where_counting_stopped(
    tmp_path_factory: pytest.TempPathFactory, counts: dict[str, int]
) -> None:
    """Oracle: files in rg's path order (component by component), counts summed to 50,000."""
    root = tmp_path_factory.mktemp("capped")
    for name, n in counts.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"needle\n" * n)
    ordered = sorted(counts, key=lambda name: name.split("/"))
    total, counted = 0, []
    for name in ordered:
        counted.append(name)
        total += counts[name]
        if total >= SCAN_CAP:
            break
    report = run_scout(SEARCHER, "needle", str(root), SearchOptions(), scopes=SCOPES)
    caps = [n for n in report.notices if isinstance(n, CapNotice)]
    if total < SCAN_CAP:
        event("under the cap")
        assert not report.capped and caps == []
        return
    (cap,) = caps
    assert cap.last_path == counted[-1]
    assert {row.path for row in report.top_files} <= set(counted)
    assert f"at {counted[-1]};" in notice_text(cap)
    survey = run_survey(SEARCHER, ["needle"], [str(root), str(root / counted[-1])], SearchOptions())
    pair_caps = [n for n in survey.notices if isinstance(n, CapNotice)]
    assert pair_caps[0] == CapNotice(term="needle", path=str(root), last_path=counted[-1])
    assert survey.by_path[0].rows[0].top_file in counted


SPELLINGS = [
    "src",
    "src/",
    "./src",
    "src//net",
    "src/net",
    "link",
    ".",
    "build",
    "src/.hid",
    "src/a.py",
]


@pytest.fixture(scope="module")
def nested_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nested")
    for name in ("src/a.py", "src/net/b.py", "src/.hid/c.py", "build/d.py", "top.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("needle\n")
    (root / "link").symlink_to("src", target_is_directory=True)
    return root


@FEW
@given(st.lists(st.sampled_from(SPELLINGS), min_size=2, max_size=5))
def test_no_line_counted_under_two_paths_without_a_note(
    nested_tree: Path, monkeypatch: pytest.MonkeyPatch, paths: list[str]
) -> None:
    monkeypatch.chdir(nested_tree)
    report = run_survey(SEARCHER, ["needle"], paths, SearchOptions())
    tallies = SEARCHER.count_many([(Query(term="needle"), p) for p in paths], cap=SCAN_CAP)
    found = [{os.path.realpath(f.path) for f in t.files} for t in tallies]
    same = [set(n.paths) for n in report.notices if isinstance(n, SamePathNotice)]
    nested = {(n.path, n.within) for n in report.notices if isinstance(n, NestedPathNotice)}
    first = {os.path.realpath(p): p for p in reversed(paths)}

    def noted(a: str, b: str) -> bool:
        if any({a, b} <= group for group in same):
            return True
        x, y = first[os.path.realpath(a)], first[os.path.realpath(b)]
        return (x, y) in nested or (y, x) in nested

    for (i, a), (j, b) in itertools.combinations(enumerate(paths), 2):
        if found[i] & found[j]:
            assert noted(a, b), (a, b, report.notices)
    # And a note names only paths that really nest (or are one).
    for inner, outer in nested:
        real_inner, real_outer = os.path.realpath(inner), os.path.realpath(outer)
        assert os.path.commonpath([real_inner, real_outer]) == real_outer != real_inner
    assert report.overall[0].matches == sum(t.matches for t in tallies)
