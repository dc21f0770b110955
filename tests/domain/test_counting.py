import pytest
from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.counting import (
    FileCount,
    Tally,
    parent_of,
    rank,
    relative_to,
    top_directories,
    top_files,
)
from asrch.domain.modes import Mode
from asrch.domain.notices import BroadNotice, CapNotice, NoMatchNotice, search_notices
from asrch.domain.query import Query, SearchOptions


def test_relative_to() -> None:
    assert relative_to("./src/a.py", ".") == "src/a.py"
    assert relative_to("src/a.py", "src") == "a.py"
    assert relative_to("src/a.py", "src/") == "a.py"
    assert relative_to("/abs/x/a.py", "/abs/x") == "a.py"
    assert relative_to("src/a.py", "src/a.py") == "src/a.py"


def _files(*rows: tuple[str, int]) -> tuple[FileCount, ...]:
    return tuple(FileCount(path=p, matches=n) for p, n in rows)


def test_top_files_ties_by_path() -> None:
    files = _files(("./b.py", 2), ("./a.py", 2), ("./c/d.py", 5))
    assert [(r.path, r.matches) for r in top_files(files, ".", 5)] == [
        ("c/d.py", 5),
        ("a.py", 2),
        ("b.py", 2),
    ]


def test_directories_sum_direct_children_only() -> None:
    files = _files(("./a.py", 1), ("./x/b.py", 2), ("./x/c.py", 3), ("./x/y/d.py", 10))
    assert [(r.path, r.matches) for r in top_directories(files, ".", 5)] == [
        ("x/y", 10),
        ("x", 5),
        (".", 1),
    ]


def test_top_n_limit() -> None:
    files = _files(*((f"./f{i}.py", i) for i in range(1, 9)))
    assert len(top_files(files, ".", 5)) == 5


def test_notices() -> None:
    query = Query(term="connect", options=SearchOptions(mode=Mode.FIXED))
    broad = Tally(files=_files(("./a", 1001)))
    assert any(
        isinstance(n, BroadNotice) for n in search_notices(query, broad, ".", directory=True)
    )
    wide = Tally(files=_files(*((f"./f{i}", 1) for i in range(101))))
    assert any(isinstance(n, BroadNotice) for n in search_notices(query, wide, ".", directory=True))
    edge = Tally(files=_files(("./a", 1000)))
    assert search_notices(query, edge, ".", directory=True) == []
    capped = Tally(files=_files(("./a", 50_000)), capped=True)
    assert any(isinstance(n, CapNotice) for n in search_notices(query, capped, ".", directory=True))
    assert search_notices(query, Tally(), ".", directory=True) == [NoMatchNotice(directory=True)]
    assert search_notices(query, Tally(), ".", directory=False) == [NoMatchNotice(directory=False)]


def _naive_top_files(files: list[FileCount], target: str, limit: int) -> list[tuple[str, int]]:
    rows = rank(((relative_to(f.path, target), f.matches) for f in files), limit)
    return [(r.path, r.matches) for r in rows]


def _naive_top_directories(
    files: list[FileCount], target: str, limit: int
) -> list[tuple[str, int]]:
    sums: dict[str, int] = {}
    for f in files:
        directory = parent_of(relative_to(f.path, target))
        sums[directory] = sums.get(directory, 0) + f.matches
    return [(r.path, r.matches) for r in rank(sums.items(), limit)]


_component = st.sampled_from(["a", "b", "a.b", "a-b", "B", "é", "x y", "."])


@st.composite
def _tree(draw: st.DrawFn) -> tuple[str, list[FileCount]]:
    target = draw(st.sampled_from([".", "./", "src", "src/", "/abs/src", "/", "src/./x"]))
    prefix = target if target.endswith("/") else target + "/"
    relatives = draw(
        st.lists(st.lists(_component, min_size=1, max_size=4), max_size=30, unique_by=tuple)
    )
    counts = draw(st.lists(st.integers(1, 4), min_size=len(relatives), max_size=len(relatives)))
    files = [FileCount(prefix + "/".join(r), n) for r, n in zip(relatives, counts, strict=True)]
    return target, files


@given(_tree(), st.integers(1, 6))
def test_fast_rankings_equal_the_plain_definition(
    tree: tuple[str, list[FileCount]], limit: int
) -> None:
    target, files = tree
    assert [(r.path, r.matches) for r in top_files(files, target, limit)] == _naive_top_files(
        files, target, limit
    )
    assert [
        (r.path, r.matches) for r in top_directories(files, target, limit)
    ] == _naive_top_directories(files, target, limit)


@pytest.mark.parametrize("target", ["src/a.py", "./src/a.py", "a.py", "/abs/src/a.py"])
def test_rankings_of_a_single_file_target(target: str) -> None:
    """A file named as the path: rows relative to its folder, not the path repeated
    (issue 32)."""
    files = [FileCount(target, 3)]
    assert [(r.path, r.matches) for r in top_files(files, target, 5)] == [("a.py", 3)]
    assert [(r.path, r.matches) for r in top_directories(files, target, 5)] == [(".", 3)]
