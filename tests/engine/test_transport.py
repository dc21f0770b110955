"""The engine on bytes held in memory: rg's answers canned in `MockRg` (the one
transport's fake, `asrch.engine.mock_rg`), read by the same readers as rg's own
output (counts, file lists, JSON events, stderr), no process started. What rg itself
prints for a tree is tests/engine/'s other files' (and the conformance suite's)."""

import json
import subprocess
from collections.abc import Iterator

import pytest

from asrch.domain.counting import FileCount, Tally
from asrch.domain.errors import EngineError, InputError
from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine.argv import files_argv
from asrch.engine.mock_rg import MockRg, Reply, Request
from asrch.engine.process import Launch
from asrch.engine.searcher import RipgrepSearcher
from asrch.engine.transport import run_to_end

REFUSED = Reply(stderr=b"rg: regex parse error:\n    (\n    ^\nerror: unclosed group\n", status=2)


@pytest.fixture(autouse=True)
def no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test here that starts a process fails: every byte comes from the mock."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process was started under MockRg")

    monkeypatch.setattr(subprocess, "Popen", refuse)


def _searcher(answer: MockRg) -> RipgrepSearcher:
    """The real searcher on the mock, counting without rg's binary census (`rg --count`)."""
    return RipgrepSearcher("rg", transport=answer, census=False)


def test_a_table_answers_by_whole_argv_and_names_what_it_lacks() -> None:
    argv = files_argv("rg", "src")
    mock = MockRg({tuple(argv): Reply(b"src/a.py\0")})
    assert run_to_end(argv, Launch(transport=mock))[0] == b"src/a.py\0"
    with pytest.raises(LookupError, match="no answer for"):
        run_to_end(files_argv("rg", "lib"), Launch(transport=mock))
    assert [r.argv for r in mock.requests] == [tuple(argv), tuple(files_argv("rg", "lib"))]


def test_the_walk_reads_rg_s_file_list() -> None:
    mock = MockRg(lambda r: Reply(b"./a.py\0./sub/b\nc.txt\0"))
    assert sorted(_searcher(mock).walk(".")) == ["./a.py", "./sub/b\nc.txt"]
    assert "--files" in mock.requests[0].argv


def test_the_type_list_is_read_and_an_empty_one_is_rg_s_failure() -> None:
    types = _searcher(MockRg(lambda r: Reply(b"py: *.py, *.pyi\nrust: *.rs\n"))).file_types()
    assert types == {"py": ("*.py", "*.pyi"), "rust": ("*.rs",)}
    with pytest.raises(EngineError, match="printed no types"):
        _searcher(MockRg(lambda r: Reply(b""))).file_types()


# rg's `--stats` block, which it prints after the counts whatever it found.
_STATS = (
    b"\n0 matches\n0 matched lines\n0 files contained matches\n0 files searched\n"
    b"0 bytes printed\n0 bytes searched\n0.000000 seconds spent searching\n0.000000 seconds\n"
)


def _count_records(*records: tuple[bytes, int]) -> bytes:
    return b"".join(path + b"\0" + str(n).encode() + b"\n" for path, n in records) + _STATS


def test_a_count_is_put_in_path_order_and_cut_at_the_cap() -> None:
    """rg counts in its threads' order; the Tally is a path-ordered scan cut at the cap,
    the last file's share that part of it (D9)."""
    records = _count_records((b"src/z.py", 4), (b"src/a/b.py", 2), (b"src/a.py", 3))
    mock = MockRg(lambda r: Reply(records))
    got = _searcher(mock).count(Query(term="x"), "src", cap=7)
    assert got == Tally(
        files=(FileCount("src/a/b.py", 2), FileCount("src/a.py", 3), FileCount("src/z.py", 2)),
        capped=True,
    )
    assert "--count" in mock.requests[0].argv


def test_files_rg_could_not_read_are_counted_skipped() -> None:
    said = b"rg: src/locked.py: Permission denied (os error 13)\n"
    mock = MockRg(lambda r: Reply(_count_records((b"src/a.py", 1)), said, status=2))
    got = _searcher(mock).count(Query(term="x"), "src", cap=100)
    assert got == Tally(files=(FileCount("src/a.py", 1),), skipped=1)


def test_a_count_record_rg_never_prints_is_an_engine_error() -> None:
    mock = MockRg(lambda r: Reply(b"src/a.py:1\n"))
    with pytest.raises(EngineError, match="count record asrch cannot read"):
        _searcher(mock).count(Query(term="x"), "src", cap=100)


def _refusing(pattern: str) -> MockRg:
    """An rg that refuses any search whose pattern is `pattern`, and finds nothing else."""

    def answer(request: Request) -> Reply:
        return REFUSED if f"--regexp={pattern}" in request.argv else Reply(status=1)

    return MockRg(answer)


def test_a_query_rg_refuses_alone_is_the_input_s_fault() -> None:
    """rg's complaint (exit 2): the probe of the query alone on empty input says whose
    fault it is (D20: exit 2 for the input, rg's reason)."""
    query = Query(term="(", options=SearchOptions(mode=Mode.REGEX))
    mock = _refusing("(")
    with pytest.raises(InputError, match="unclosed group"):
        _searcher(mock).count(query, "src", cap=10)
    # The search, then the probe of the query alone and of a plain literal.
    assert [r.argv[-1] for r in mock.requests] == ["src", "-", "-"]


def test_a_complaint_rg_makes_of_any_query_is_rg_s_failure() -> None:
    with pytest.raises(EngineError) as refused:
        _searcher(_refusing("x")).count(Query(term="x"), "src", cap=10)
    assert not isinstance(refused.value, InputError)


def _event(kind: str, path: str, number: int, text: str) -> bytes:
    data = {
        "path": {"text": path},
        "lines": {"text": text},
        "line_number": number,
        "absolute_offset": 0,
        "submatches": [{"match": {"text": "hit"}, "start": 0, "end": 3}] if kind == "match" else [],
    }
    return json.dumps({"type": kind, "data": data}).encode() + b"\n"


_SUMMARY = b'{"data":{},"type":"summary"}\n'
"""rg's last `--json` record, printed whatever it found."""


def _json_lines(path: str, numbers: Iterator[int]) -> bytes:
    begin = json.dumps({"type": "begin", "data": {"path": {"text": path}}}).encode() + b"\n"
    return begin + b"".join(_event("match", path, n, f"hit {n}\n") for n in numbers)


@pytest.mark.parametrize("chunk", [1, 13, 1 << 16])
def test_a_scan_keeps_its_matches_and_stops_rg_past_them(chunk: int) -> None:
    """JSON events read in blocks of any size; past `keep` matches rg is stopped and
    the total is rg's capped count."""

    def answer(request: Request) -> Reply:
        if "--json" in request.argv:
            return Reply(_json_lines("f.py", iter(range(1, 10))))
        return Reply(_count_records((b"f.py", 9)))

    mock = MockRg(answer, chunk=chunk)
    scan = _searcher(mock).scan(Query(term="hit"), "f.py", context=0, keep=3, cap=100)
    assert [(ln.number, ln.text) for ln in scan.lines] == [
        (n, f"hit {n}\n".encode()) for n in (1, 2, 3)
    ]
    assert (scan.kept, scan.matches, scan.capped) == (3, 9, False)
    assert ["--json" in r.argv for r in mock.requests] == [True, False]


def test_matching_lines_are_sorted_to_the_files_asked() -> None:
    out = _json_lines("a.py", iter([2])) + _json_lines("b.py", iter([1, 5])) + _SUMMARY
    got = _searcher(MockRg(lambda r: Reply(out))).matching_lines(
        Query(term="hit"), ["a.py", "b.py"], keep=5
    )
    assert {f: [ln.number for ln in lines] for f, lines in got.items()} == {
        "a.py": [2],
        "b.py": [1, 5],
    }


def test_a_line_of_a_file_not_asked_is_an_engine_error() -> None:
    out = _json_lines("elsewhere.py", iter([1]))
    with pytest.raises(EngineError, match="a file asrch did not name"):
        _searcher(MockRg(lambda r: Reply(out))).matching_lines(Query(term="hit"), ["a.py"], keep=5)


def test_fed_input_reaches_the_answer() -> None:
    seen: list[bytes] = []

    def answer(request: Request) -> Reply:
        seen.append(request.stdin)
        return Reply(b"1:\n")

    mock = MockRg(answer)
    with mock.start(["rg", "-"], Launch(transport=mock), stdin=True) as call:
        assert call.feed(b"a\n") and call.feed(b"b\n")
        assert call.read() == b"1:\n"
        assert not call.feed(b"late\n")
        assert call.end().status == 0
    assert seen == [b"a\nb\n"]
