from asrch.domain.counting import FileCount, Tally, relative_to, top_directories, top_files
from asrch.domain.modes import Mode
from asrch.domain.notices import BroadNotice, CapNotice, NoMatchNotice, search_notices
from asrch.domain.query import Query


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
    query = Query(term="connect", mode=Mode.FIXED)
    broad = Tally(files=_files(("./a", 1001)))
    assert any(isinstance(n, BroadNotice) for n in search_notices(query, broad))
    wide = Tally(files=_files(*((f"./f{i}", 1) for i in range(101))))
    assert any(isinstance(n, BroadNotice) for n in search_notices(query, wide))
    edge = Tally(files=_files(("./a", 1000)))
    assert search_notices(query, edge) == []
    capped = Tally(files=_files(("./a", 50_000)), capped=True)
    assert any(isinstance(n, CapNotice) for n in search_notices(query, capped))
    assert search_notices(query, Tally()) == [NoMatchNotice()]
