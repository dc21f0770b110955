"""The survey's parallel plan (`engine/spots.py`): rg's own matches, read per file,
equal each term's own path-ordered scan, or the plan steps aside (`PATH_ORDER`).

The oracle is the D9 reference scan of each term alone (`tally_from_json`), as for the
path-ordered plan (tests/engine/test_one_pass.py)."""

import resource
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asrch.domain.counting import Tally
from asrch.domain.filters import make_filters
from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine import one_pass, process, spots
from asrch.engine.binary import resolve_rg
from asrch.engine.counts import count_files
from asrch.engine.mock_rg import MockRg, Reply, Request, recorded
from asrch.engine.one_pass import count_terms
from asrch.engine.process import HERE, Launch
from asrch.engine.spots import Unspotted, count_spotted, spot_patterns
from asrch.engine.transport import RgCall
from tests.support.files import write_files
from tests.support.reference_scan import tally_from_json
from tests.support.tiers import examples

RG = resolve_rg()
# The bench's survey terms (bench/run.py).
BENCH_TERMS = (
    "import asyncio frozenset Tkinter socket decode lambda yield raise class pickle thread"
)
BENCH_TERMS_LIST = BENCH_TERMS.split()


def _queries(*terms: str, **options: object) -> list[Query]:
    return [Query(term=t, options=SearchOptions(**options)) for t in terms]  # type: ignore[arg-type]


def _spotted(
    queries: list[Query], target: str, *, cap: int, launch: Launch | None = None
) -> list[Tally] | Unspotted:
    patterns = spot_patterns(queries)
    assert patterns is not None
    return count_spotted(
        RG, queries, target, patterns, cap=cap, launch=launch or Launch(), log=True
    )


def _reference(queries: list[Query], target: str, cap: int) -> list[Tally]:
    return [tally_from_json(RG, q, target, cap=cap) for q in queries]


# --- which term sets fit, and their patterns -------------------------------------------


def test_overlapping_terms_get_their_overlaps_as_patterns() -> None:
    found = spot_patterns(_queries(*BENCH_TERMS_LIST))
    assert found is not None
    # `import` then `thread` share a `t`, then `decode` shares the `d`: each chain of
    # overlaps is one more pattern, longest first.
    assert found.patterns[:3] == ("classockethreadecode", "frozensethreadecode", "importhreadecode")
    assert len(found.patterns) == 25
    assert found.terms_in[b"importhread"] == (0, 11)
    assert {tail for tail, _ in found.alone} == {
        b"\0" + t.encode() + b"\n" for t in BENCH_TERMS_LIST
    }


def test_a_term_inside_another_is_held_by_it() -> None:
    found = spot_patterns(_queries("port", "import", "port"))
    assert found is not None
    assert found.terms_in[b"import"] == (0, 1, 2)
    assert found.alone == ((b"\0port\n", (0, 2)),)


@pytest.mark.parametrize(
    ("queries", "why"),
    [
        (_queries("a"), "one term"),
        (_queries("a", "b", mode=Mode.WORD), "word mode"),
        (_queries("a", "b", mode=Mode.IDENTIFIER), "identifier mode"),
        (_queries("a", "b", ignore_case=True), "-i"),
        (_queries("a", "\udcff"), "no UTF-8"),
        (_queries("a", "x" * 257), "a long term"),
        # Every pair overlaps every way: the closure outgrows 64 patterns.
        (_queries(*(f"{a}{b}" for a in "abcd" for b in "abcd")), "many overlaps"),
    ],
)
def test_what_does_not_fit(queries: list[Query], why: str) -> None:
    assert spot_patterns(queries) is None, why


# --- against each term's own scan, on the real rg ---------------------------------------

_ALPHABET = ["a", "b", "c", "ab", "ba", " ", "é", "\r"]
_line = st.lists(st.sampled_from(_ALPHABET), max_size=10).map("".join)
# Property tests with rg runs per example: 20 examples in an ordinary run, 60 under the
# profile `more` (tests/support/tiers.py), as test_one_pass's.
_RG_PER_EXAMPLE = settings(
    max_examples=examples(20, more=60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_file = st.lists(_line, max_size=12).map(lambda ls: "".join(f"{x}\n" for x in ls).encode())
_term = st.lists(st.sampled_from(["a", "b", "c", "é"]), min_size=1, max_size=3).map("".join)


@_RG_PER_EXAMPLE
@given(
    files=st.dictionaries(
        st.sampled_from(["a", "b.txt", "d/x", "d/y", "e/f/g"]), _file, max_size=5
    ),
    terms=st.lists(_term, min_size=2, max_size=5),
    cap=st.sampled_from([3, 7, 50_000]),
)
def test_each_term_equals_its_own_scan(
    tmp_path_factory: pytest.TempPathFactory, files: dict[str, bytes], terms: list[str], cap: int
) -> None:
    """Terms over three letters overlap, hold one another and repeat; lines hold them
    next to each other. Where the plan answers, each Tally is the term's own scan."""
    root = tmp_path_factory.mktemp("tree")
    write_files(root, files)
    queries = _queries(*terms)
    if spot_patterns(queries) is None:
        return
    got = _spotted(queries, str(root), cap=cap)
    want = _reference(queries, str(root), cap)
    if got is Unspotted.PATH_ORDER:
        # Only where the path-ordered plan must answer: every term capped, or a file
        # with `cap` matching lines.
        assert all(t.capped for t in want) or any(
            sum(1 for line in data.split(b"\n") if any(t.encode() in line for t in terms)) >= cap
            for data in files.values()
        )
    else:
        assert got == want
    assert count_terms(RG, queries, str(root), cap=cap) == want


def test_the_bench_terms_on_the_corpus() -> None:
    corpus = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
    queries = _queries(*BENCH_TERMS_LIST, "def", "return")
    got = _spotted(queries, str(corpus), cap=50_000)
    assert got == _reference(queries, str(corpus), 50_000)


def test_a_line_holding_an_overlap_counts_for_both(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.py": b"from x importhread\nimport y\nthread\n"})
    got = _spotted(_queries("import", "thread"), str(tmp_path), cap=50_000)
    assert not isinstance(got, Unspotted)
    assert [t.files[0].matches for t in got] == [2, 2]


def test_a_name_holding_a_newline_steps_aside(tmp_path: Path) -> None:
    """`x LF 12/import`: the path's second line reads like a record of `x`; rg's own
    count of records says otherwise."""
    (tmp_path / "x\n12").mkdir()
    write_files(tmp_path, {"x\n12/import": b"import\n", "x": b"thread\n"})
    queries = _queries("import", "thread")
    assert _spotted(queries, str(tmp_path), cap=50_000) is Unspotted.PATH_ORDER
    assert count_terms(RG, queries, str(tmp_path), cap=50_000) == _reference(
        queries, str(tmp_path), 50_000
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_rg_on_one_thread_is_read_as_on_many(tmp_path: Path, threads: int) -> None:
    """rg picks one thread on one core (a container's CPU quota, `taskset`) and then
    separates files by an empty line instead of ending each with one: the statistics'
    leading LF ends the last file. Read as rg's own, not stepped aside (a second walk on
    every survey)."""
    write_files(tmp_path / "t", {"a.py": b"import thread\n", "d/b.py": b"thread\n", "c": b"x\n"})
    wrapper = tmp_path / "rg"
    wrapper.write_text(f'#!/bin/sh\nexec {RG} --threads={threads} "$@"\n')
    wrapper.chmod(0o755)
    queries = _queries("import", "thread")
    target = str(tmp_path / "t")
    for log in (False, True):
        patterns = spot_patterns(queries)
        assert patterns is not None
        got = count_spotted(
            str(wrapper), queries, target, patterns, cap=50_000, launch=Launch(), log=log
        )
        assert got == _reference(queries, target, 50_000)


def test_every_term_capped_steps_aside(tmp_path: Path) -> None:
    write_files(tmp_path, {f"f{i}": b"a b\n" * 3 for i in range(3)})
    assert _spotted(_queries("a", "b"), str(tmp_path), cap=4) is Unspotted.PATH_ORDER


def test_a_file_at_rgs_per_file_bound_steps_aside(tmp_path: Path) -> None:
    """rg stops reading `f` after 5 lines of `a`: its `b` is never seen."""
    write_files(tmp_path, {"f": b"a\n" * 5 + b"b\n", "g": b"c\n"})
    queries = _queries("a", "b", "c")
    assert _spotted(queries, str(tmp_path), cap=5) is Unspotted.PATH_ORDER
    assert count_terms(RG, queries, str(tmp_path), cap=5) == _reference(queries, str(tmp_path), 5)


def test_a_binary_file_after_a_match_steps_aside(tmp_path: Path) -> None:
    # rg reads 64 KiB at a time: the NUL in a later block, after a match.
    write_files(tmp_path, {"bin": b"needle\n" + b"x" * 200_000 + b"\0\n", "t": b"hay\n"})
    queries = _queries("needle", "hay")
    # Told from rg's warning, which names the file as printed (`/` as NUL): a name
    # with a `/` in it (`./bin`) was read as no warning.
    assert _spotted(queries, str(tmp_path), cap=50_000) is Unspotted.BINARY
    assert _spotted(queries, ".", cap=50_000, launch=Launch(cwd=str(tmp_path))) is (
        Unspotted.BINARY
    )
    assert count_terms(RG, queries, str(tmp_path), cap=50_000) == _reference(
        queries, str(tmp_path), 50_000
    )


def test_every_term_capped_before_a_binary_file_is_read_as_capped(tmp_path: Path) -> None:
    """Files are read a batch at a time (all a read of rg's output completed): where
    every term was capped before a binary file in the same batch, the verdict is the
    one a file at a time gives (the path-ordered plan, without the log)."""
    write_files(
        tmp_path,
        {"a": b"x y\n", "b": b"x y\n", "c": b"x\n" + b"-" * 200_000 + b"\0\n"},
    )

    def binary_last(request: Request) -> Reply:
        reply = recorded(request)
        *files, stats = reply.stdout.split(b"\n\n")
        files.sort(key=lambda file: b"WARNING" in file)
        return reply._replace(stdout=b"\n\n".join([*files, stats]))

    queries = _queries("x", "y")
    got = _spotted(queries, str(tmp_path), cap=2, launch=Launch(transport=MockRg(binary_last)))
    assert got is Unspotted.PATH_ORDER


# --- rg's output read in any pieces, on recorded bytes ----------------------------------


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
def test_output_read_in_any_pieces(tmp_path: Path, chunk: int) -> None:
    write_files(
        tmp_path,
        {
            f"d{i}/f{j}.py": b"import thread\n\nclass x\nthreadecode\n"
            for i in range(3)
            for j in range(3)
        },
    )
    queries = _queries("import", "thread", "class", "decode")
    want = _reference(queries, str(tmp_path), 50_000)
    got = _spotted(
        queries, str(tmp_path), cap=50_000, launch=Launch(transport=MockRg(recorded, chunk=chunk))
    )
    assert got == want


def test_output_that_disagrees_with_rgs_statistics_steps_aside(tmp_path: Path) -> None:
    write_files(tmp_path, {"a": b"import\n", "b": b"thread\n"})
    queries = _queries("import", "thread")
    # One record more than rg says it printed.
    extra = MockRg(
        lambda r: (rep := recorded(r))._replace(
            stdout=rep.stdout.replace(b"1\0import\n", b"1\0import\n2\0import\n")
        )
    )
    assert _spotted(queries, str(tmp_path), cap=50_000, launch=Launch(transport=extra)) is (
        Unspotted.PATH_ORDER
    )
    # No statistics at the end.
    cut = MockRg(
        lambda r: (rep := recorded(r))._replace(
            stdout=rep.stdout[: rep.stdout.index(b"\n\n\n") + 2]
        )
    )
    assert _spotted(queries, str(tmp_path), cap=50_000, launch=Launch(transport=cut)) is (
        Unspotted.PATH_ORDER
    )


def test_a_file_too_large_to_hold_steps_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, {"a": b"import\n" * 40, "b": b"thread\n"})
    monkeypatch.setattr(spots, "_FILE_MAX", 64)
    got = _spotted(
        _queries("import", "thread"),
        str(tmp_path),
        cap=50_000,
        launch=Launch(transport=MockRg(recorded, chunk=16)),
    )
    assert got is Unspotted.PATH_ORDER


def test_a_record_of_no_pattern_steps_aside(tmp_path: Path) -> None:
    """An rg that prints a match asrch did not ask for is no rg to count on."""
    write_files(tmp_path, {"a": b"importhread\n"})
    queries = _queries("import", "thread")
    odd = MockRg(
        lambda r: (rep := recorded(r))._replace(
            stdout=rep.stdout.replace(b"\0importhread\n", b"\0importhreads\n")
        )
    )
    got = _spotted(queries, str(tmp_path), cap=50_000, launch=Launch(transport=odd))
    assert got is Unspotted.PATH_ORDER


# --- attacks (spotcheck): each against the path-ordered plan, the answer before ----------


def _path_ordered(queries: list[Query], target: str, *, cap: int) -> list[Tally]:
    """The path-ordered plan alone (`one_pass._count_terms`), with rg's log."""
    found = one_pass._count_terms(RG, queries, target, cap=cap, launch=Launch(), log=True)
    assert found is not None
    return found


@pytest.mark.parametrize("glob", ["!sub/", "other/**", "*.bin", "!*.dat"])
def test_binary_files_the_filters_keep_are_counted_by_their_paths(
    tmp_path: Path, glob: str
) -> None:
    """rg's log names a binary file with its path as printed: `/` as NUL under the
    plan's path separator. The filters must read it as a path (`!sub/` counted all 3
    binary files where the path-ordered plan counts 1)."""
    write_files(
        tmp_path,
        {
            "t/sub/a.bin": b"import\0x\n",
            "t/sub/b.dat": b"thread\0x\n",
            "t/other/c.bin": b"import\0\n",
            "t/other/d.txt": b"import thread\n",
        },
    )
    filters = make_filters([], [glob], {}, cwd=str(tmp_path))
    for terms in (["import", "thread"], ["zzz", "yyy"]):
        queries = [Query(term=t, filters=filters) for t in terms]
        target = str(tmp_path / "t")
        got = _spotted(queries, target, cap=50_000)
        assert got == _path_ordered(queries, target, cap=50_000), (glob, terms)


def test_a_file_rg_drops_unseen_is_no_file_of_either_plan(tmp_path: Path) -> None:
    """rg reuses a thread's buffer: grown by an earlier file's long line (`s/x.py`), it
    reads a later file's NUL, past 64 KiB, in that file's first block and drops the
    file unseen, as binary; with a fresh buffer it prints the file's match, then its
    warning. The parallel walk meets files in no set order (here `--sortr=path`, as a
    thread may): `a.py` is no file of the answer either way, and binary in the log."""
    long_line = b"y" * 70_000 + b"\0\n"
    target = tmp_path / "t"
    write_files(target, {"a.py": b"x\na\n" + long_line, "s/x.py": long_line, "z.py": b"a b\n"})
    wrapper = tmp_path / "rg"
    wrapper.write_text(f'#!/bin/sh\nexec {RG} --sortr=path "$@"\n')
    wrapper.chmod(0o755)
    queries = _queries("a", "b")
    patterns = spot_patterns(queries)
    assert patterns is not None
    want = _path_ordered(queries, str(target), cap=50_000)
    assert [t.binary for t in want] == [2, 2]
    for log in (False, True):
        got = count_spotted(
            str(wrapper), queries, str(target), patterns, cap=50_000, launch=Launch(), log=log
        )
        assert got == (want if log else [t._replace(binary=0) for t in want])
    # Without the log the path-ordered plan needs it (rg's warning for `a.py`).
    plain = one_pass._count_terms(RG, queries, str(target), cap=50_000, launch=Launch(), log=False)
    assert plain is None


@pytest.mark.parametrize("log", [False, True])
def test_a_binary_file_the_filters_drop_is_no_reason_to_walk_again(
    tmp_path: Path, log: bool
) -> None:
    """rg's warning of a NUL after a match, for a file `--glob` drops: the path-ordered
    plan never looks at it, so the parallel plan answers too (it stepped aside, and the
    survey walked again)."""
    target = tmp_path / "t"
    write_files(
        target, {"a.py": b"import thread\n", "big.dat": b"import\n" + b"y" * 70_000 + b"\0\n"}
    )
    filters = make_filters([], ["!*.dat"], {}, cwd=str(tmp_path))
    queries = [Query(term=t, filters=filters) for t in ("import", "thread")]
    patterns = spot_patterns(queries)
    assert patterns is not None
    got = count_spotted(RG, queries, str(target), patterns, cap=50_000, launch=Launch(), log=log)
    assert not isinstance(got, Unspotted)
    assert got == one_pass._count_terms(
        RG, queries, str(target), cap=50_000, launch=Launch(), log=log
    )


def test_a_file_at_rgs_per_file_bound_steps_aside_before_its_records_are_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bench's repetitive tree: its first file holds every term on 50,000 lines.
    The bound is read from the records' line numbers alone; counting them per term
    first held 600,000 records in Python (asrch 151 MB, over the bench's 120 MB, and
    0.6 s of the 1.1 s the survey took, where the path-ordered plan takes 0.5 s)."""
    write_files(tmp_path, {"f": b"a b c\n" * 5, "g": b"a\nb\nc\n"})
    counted: list[int] = []
    real = spots._SpottedFiles._count

    def count(self: spots._SpottedFiles, records: bytes) -> list[int] | None:
        counted.append(records.count(b"\n") + 1)
        return real(self, records)

    monkeypatch.setattr(spots._SpottedFiles, "_count", count)
    queries = _queries("a", "b", "c")
    assert _spotted(queries, str(tmp_path), cap=5) is Unspotted.PATH_ORDER
    # Only `g` (3 lines) may have been counted, never `f`'s 15 records.
    assert all(n <= 3 for n in counted), counted
    assert count_terms(RG, queries, str(tmp_path), cap=5) == _reference(queries, str(tmp_path), 5)


@pytest.mark.parametrize(
    ("records", "lines"),
    [
        (b"", 0),
        (b"1\0a\n", 1),
        (b"1\0a\n1\0b\n2\0a\n12\0a\n12\0b\n120\0c\n", 4),
        # rg prints a line's records together; out of order, a line counts once per run
        # of its records: never fewer than its lines.
        (b"1\0a\n2\0a\n1\0b\n", 3),
    ],
)
def test_lines_of_records_in_runs(records: bytes, lines: int) -> None:
    assert spots._line_runs(records) == lines


def test_a_line_past_rgs_data_bound_steps_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rg holds a line until its end: past the bound its allocation fails, rg ends by a
    signal, and the path-ordered plan answers (the bound only ever saves memory)."""
    write_files(
        tmp_path, {"long.js": b"import " + b"x" * (48 << 20) + b" thread\n", "a": b"thread\n"}
    )
    monkeypatch.setattr(spots, "_RG_MEMORY", 24 << 20)
    queries = _queries("import", "thread")
    assert _spotted(queries, str(tmp_path), cap=50_000) is Unspotted.PATH_ORDER
    assert count_terms(RG, queries, str(tmp_path), cap=50_000) == [
        count_files(RG, q, str(tmp_path), cap=50_000) for q in queries
    ]


def test_a_binary_file_after_a_match_costs_no_more_walks_than_before(tmp_path: Path) -> None:
    """Without rg's log, such a file makes the path-ordered plan walk again with it; the
    parallel plan knows the same from its own walk, so the survey walks twice, as it
    did before the plan (it walked four times: parallel, path-ordered, both again with
    the log)."""
    write_files(tmp_path, {"bin": b"needle\n" + b"x" * 200_000 + b"\0\n", "t": b"hay\n"})
    queries = _queries("needle", "hay")
    rg = MockRg(recorded)
    got = count_terms(
        RG, queries, str(tmp_path), cap=50_000, launch=Launch(transport=rg), census=False
    )
    walks = [r.argv for r in rg.requests if "--" in r.argv and r.argv[-1] == str(tmp_path)]
    assert len(walks) == 2, walks
    want = _reference(queries, str(tmp_path), 50_000)
    assert got == [t._replace(binary=0) for t in want]


def test_rg_past_its_data_bound_leaves_no_core_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even where this process may dump core, the rg that ends by SIGABRT writes none
    into the tree it searched (its working directory)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
    try:
        write_files(tmp_path, {"long.js": b"import " + b"x" * (48 << 20) + b"\n", "a": b"thread\n"})
        monkeypatch.setattr(spots, "_RG_MEMORY", 24 << 20)
        got = _spotted(
            _queries("import", "thread"), ".", cap=50_000, launch=Launch(cwd=str(tmp_path))
        )
    finally:
        resource.setrlimit(resource.RLIMIT_CORE, (soft, hard))
    assert got is Unspotted.PATH_ORDER
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "long.js"]


def _limits(run: RgCall) -> dict[str, tuple[str, str]]:
    """The limits of a started `sh` (below) that waits for a line, then prints its own."""
    run.feed(b"go\n")
    run.end()
    found = {}
    for line in run.read().decode().splitlines()[1:]:
        name, soft, hard = line[:26].strip(), *line[26:].split()[:2]
        found[name] = (soft, hard)
    return found


_PRINTS_LIMITS = ["/bin/sh", "-c", "read x; cat /proc/$$/limits"]


def test_each_start_bounds_its_child_whatever_its_pid() -> None:
    """The bound is set for each child, not remembered by pid: pids are reused (32,768
    of them on this machine), and a later rg with an earlier one's pid went unbounded."""
    with HERE.transport.start(_PRINTS_LIMITS, HERE, stdin=True, memory=64 << 20) as run:
        pid = run._child.pid  # type: ignore[attr-defined]
        resource.prlimit(pid, resource.RLIMIT_DATA, (32 << 20, 64 << 20))
        process._bound_data(pid, 64 << 20)  # as for a new child of the same pid
        limits = _limits(run)
    assert limits["Max data size"] == (str(64 << 20), str(64 << 20))


_kind = st.sampled_from([b"", b"", b"", b"\0zz\n", b"y" * 70_000 + b"\0\n"])
"""Most files text; some binary in rg's first block (rg quits before any match), some
binary after their matches (rg's warning)."""


@_RG_PER_EXAMPLE
@given(
    files=st.dictionaries(
        st.sampled_from(["a.py", "b.txt", "s/x.py", "s/t/y", "u/z.txt", "s-/w.py"]),
        st.tuples(_file, _kind).map(lambda pair: pair[0] + pair[1]),
        min_size=1,
        max_size=6,
    ),
    terms=st.lists(_term, min_size=2, max_size=4),
    globs=st.sampled_from([(), ("*.py",), ("!s/",), ("s/**",), ("!*.txt", "!u/")]),
    run=st.tuples(st.sampled_from([2, 5, 50_000]), st.booleans()),
)
def test_each_tally_equals_the_path_ordered_plans_with_binary_files_and_filters(
    tmp_path_factory: pytest.TempPathFactory,
    files: dict[str, bytes],
    terms: list[str],
    globs: tuple[str, ...],
    run: tuple[int, bool],
) -> None:
    """Where the plan answers, each Tally (binary files met included) is the one the
    path-ordered plan gives, with or without rg's log (`run`: the cap, the log). Found
    the binary files under `--glob '!s/'` read by their NUL-separated names."""
    cap, log = run
    root = tmp_path_factory.mktemp("tree")
    write_files(root, files)
    filters = make_filters([], globs, {}, cwd=str(root))
    queries = [Query(term=t, filters=filters) for t in terms]
    patterns = spot_patterns(queries)
    if patterns is None:
        return
    got = count_spotted(RG, queries, str(root), patterns, cap=cap, launch=Launch(), log=log)
    if isinstance(got, Unspotted):
        return
    want = one_pass._count_terms(RG, queries, str(root), cap=cap, launch=Launch(), log=log)
    if want is None:
        # Without the log, the path-ordered plan met rg's warning of a NUL after a match
        # and needs the log to tell; the parallel walk may have dropped that file unseen
        # (`test_a_file_rg_drops_unseen_is_no_file_of_either_plan`). No file of the
        # answer either way: the path-ordered plan's with the log, without its binary.
        logged = one_pass._count_terms(RG, queries, str(root), cap=cap, launch=Launch(), log=True)
        assert logged is not None
        want = [t._replace(binary=0) for t in logged]
    assert got == want
