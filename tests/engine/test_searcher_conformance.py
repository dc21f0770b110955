"""One suite, three searchers: every scenario runs on the fake the use-case tests use
(tests/support/fake_searcher.py), on rg over the same files on disk, and on the real
engine reading rg's recorded output replayed through `MockRg` in 7-byte blocks (a
record split anywhere), and all must give the same answer. The fake cannot drift from
rg where the use cases rely on it: path order, spellings, caps, context windows, line
numbers.

What the fake leaves to rg by design (modes other than a plain substring, filters, ignore
rules, binary files, rg's exact type list) is not compared here; tests/engine/ holds rg's
side of those.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from asrch.domain.ports import Entry, Searcher
from asrch.domain.query import Query, SearchOptions
from asrch.engine.mock_rg import MockRg, recorded
from asrch.engine.searcher import RipgrepSearcher
from tests.support.fake_searcher import FakeSearcher

TREE: dict[str, str] = {
    # Names that sort differently as strings and component by component: `a.py` before
    # `a/` as strings ('.' < '/'), after it as rg walks (`a` < `a.py`).
    "a.py": "needle\nx\nNeedle\n",
    "a/b.py": "x\nneedle one\nneedle two\nx\nx\nx\nneedle three\n",
    "a/c/d.md": "needle\n",
    "a-b/e.txt": "nothing here\n",
    "b.txt": "".join(f"line {n} needle\n" if n % 3 == 0 else f"line {n}\n" for n in range(1, 31)),
    "z.py": "no match\n",
}

NEEDLE = Query(term="needle")
NEEDLE_I = Query(term="needle", options=SearchOptions(ignore_case=True))


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("conformance")
    for name, text in TREE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture(params=["fake", "rg", "replayed"])
def searcher(request: pytest.FixtureRequest, tree: Path) -> Iterator[Searcher]:
    if request.param == "fake":
        yield FakeSearcher(files=TREE)
    elif request.param == "rg":
        yield RipgrepSearcher(cwd=str(tree))
    else:
        yield RipgrepSearcher(cwd=str(tree), transport=MockRg(recorded, chunk=7))


@pytest.mark.parametrize(
    ("path", "entry"),
    [
        ("a.py", Entry.FILE),
        ("a", Entry.DIRECTORY),
        ("a/c/", Entry.DIRECTORY),
        (".", Entry.DIRECTORY),
        ("missing.py", Entry.MISSING),
        ("a/missing", Entry.MISSING),
    ],
)
def test_inspect(searcher: Searcher, path: str, entry: Entry) -> None:
    assert searcher.inspect(path).entry is entry


@pytest.mark.parametrize("target", [".", "./", "a", "a/", "./a"])
def test_walk_spells_each_file_as_rg_prints_it(searcher: Searcher, target: str) -> None:
    assert sorted(searcher.walk(target)) == sorted(WALKS[target])


WALKS = {
    ".": ["./a/b.py", "./a/c/d.md", "./a-b/e.txt", "./a.py", "./b.txt", "./z.py"],
    "./": ["./a/b.py", "./a/c/d.md", "./a-b/e.txt", "./a.py", "./b.txt", "./z.py"],
    "a": ["a/b.py", "a/c/d.md"],
    "a/": ["a/b.py", "a/c/d.md"],
    "./a": ["./a/b.py", "./a/c/d.md"],
}
"""Every path as the target was spelled (`.` too: `./`), in no particular order (rg's
walk runs in parallel)."""


def test_the_file_types_hold_pythons(searcher: Searcher) -> None:
    assert "*.py" in searcher.file_types()["py"]


@pytest.mark.parametrize("query", [NEEDLE, NEEDLE_I], ids=["sensitive", "ignore-case"])
@pytest.mark.parametrize("target", [".", "a", "./a/", "a.py"])
def test_count(searcher: Searcher, query: Query, target: str) -> None:
    tally = searcher.count(query, target, cap=50_000)
    expected = [(f.path, f.matches) for f in tally.files]
    assert expected == COUNTS[query.ignore_case, target]
    assert not tally.capped


COUNTS = {
    # rg's path order: a directory's entries by name (`a` < `a-b` < `a.py`), not the
    # paths' string order ('.' < '/').
    (False, "."): [("./a/b.py", 3), ("./a/c/d.md", 1), ("./a.py", 1), ("./b.txt", 10)],
    (True, "."): [("./a/b.py", 3), ("./a/c/d.md", 1), ("./a.py", 2), ("./b.txt", 10)],
    (False, "a"): [("a/b.py", 3), ("a/c/d.md", 1)],
    (True, "a"): [("a/b.py", 3), ("a/c/d.md", 1)],
    (False, "./a/"): [("./a/b.py", 3), ("./a/c/d.md", 1)],
    (True, "./a/"): [("./a/b.py", 3), ("./a/c/d.md", 1)],
    (False, "a.py"): [("a.py", 1)],
    (True, "a.py"): [("a.py", 2)],
}


@pytest.mark.parametrize("cap", [1, 3, 4, 5])
def test_count_stops_at_the_cap(searcher: Searcher, cap: int) -> None:
    tally = searcher.count(NEEDLE, ".", cap=cap)
    assert tally.capped
    assert tally.matches == cap
    full = COUNTS[False, "."]
    assert [f.path for f in tally.files] == [path for path, _ in full][: len(tally.files)]


def test_count_terms_is_count_of_each(searcher: Searcher) -> None:
    queries = [NEEDLE, Query(term="line"), Query(term="absent")]
    together = searcher.count_terms(queries, ".", cap=50_000)
    assert together == [searcher.count(q, ".", cap=50_000) for q in queries]


def test_count_many_is_count_of_each(searcher: Searcher) -> None:
    searches = [(NEEDLE, "a"), (NEEDLE_I, "a.py"), (Query(term="line"), "b.txt")]
    together = searcher.count_many(searches, cap=50_000)
    assert together == [searcher.count(q, t, cap=50_000) for q, t in searches]


@pytest.mark.parametrize(("context", "keep"), [(0, 20), (1, 20), (2, 2), (5, 1)])
def test_scan(searcher: Searcher, context: int, keep: int) -> None:
    scan = searcher.scan(NEEDLE, "a/b.py", context=context, keep=keep, cap=50_000)
    hits = [2, 3, 7]
    kept = hits[:keep]
    shown = sorted({n for h in kept for n in range(max(1, h - context), min(7, h + context) + 1)})
    if len(kept) < len(hits):
        # Past the last kept match the lines are not specified (rg stops reading there,
        # or prints the next match's context): up to it they are.
        shown = [n for n in shown if n <= kept[-1]]
        scan = scan._replace(lines=tuple(ln for ln in scan.lines if ln.number <= kept[-1]))
    assert [line.number for line in scan.lines] == shown
    assert [line.number for line in scan.lines if line.is_match] == kept
    assert (scan.kept, scan.matches, scan.capped) == (len(kept), 3, False)
    for line in scan.lines:
        assert line.text == TREE["a/b.py"].splitlines(keepends=True)[line.number - 1].encode()
        assert line.first_match == ((0, 6) if line.is_match else None)


def test_scan_stops_at_the_cap(searcher: Searcher) -> None:
    scan = searcher.scan(NEEDLE, "b.txt", context=0, keep=2, cap=4)
    assert (scan.kept, scan.matches, scan.capped) == (2, 4, True)
    assert [line.number for line in scan.lines] == [3, 6]


def test_matching_lines(searcher: Searcher) -> None:
    found = searcher.matching_lines(NEEDLE_I, ["a.py", "a/b.py", "z.py"], keep=2)
    assert {f: [(ln.number, ln.first_match) for ln in lines] for f, lines in found.items()} == {
        "a.py": [(1, (0, 6)), (3, (0, 6))],
        "a/b.py": [(2, (0, 6)), (3, (0, 6))],
        "z.py": [],
    }


def test_line_numbers(searcher: Searcher) -> None:
    found = searcher.line_numbers(NEEDLE_I, ["a.py", "a/b.py", "z.py"], keep=2)
    assert found == {"a.py": (1, 3), "a/b.py": (2, 3), "z.py": ()}


@pytest.mark.parametrize(("line", "context"), [(1, 0), (2, 2), (7, 1), (4, 5)])
def test_window(searcher: Searcher, line: int, context: int) -> None:
    window = searcher.window(NEEDLE, "a/b.py", line=line, context=context)
    numbers = list(range(max(1, line - context), min(7, line + context) + 1))
    assert [ln.number for ln in window.lines] == numbers
    assert [ln.number for ln in window.lines if ln.is_match] == [
        n for n in numbers if n in (2, 3, 7)
    ]
    assert window.last_line == 7


@pytest.mark.parametrize("line", [8, 100])
def test_a_window_past_the_end_has_no_lines(searcher: Searcher, line: int) -> None:
    window = searcher.window(NEEDLE, "a/b.py", line=line, context=2)
    assert (window.lines, window.last_line) == ((), 7)


def test_resolve_names_one_place_for_two_spellings(searcher: Searcher) -> None:
    assert searcher.resolve("a/c/../b.py") == searcher.resolve("./a/b.py")
    assert searcher.resolve("a") != searcher.resolve("a.py")
