"""A served root's walk kept between calls, indexed or not (issue 41, item 5): its ignore
rules and entry count read once and kept while the root's inotify watch
(`engine/watch.py`) sees no change that could change them (engine/pins.py).

One server is kept over random edit sequences on a root with no index; after every
edit, each of its answers is the answer of a server that reads the rules on every call
(today's read, held to rg itself by tests/engine/test_pinned_ignores.py). Edits land
between calls, and inside a call: before its rules are read, or as its rg starts
(through the transport: no sleep).
"""

import gc
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from asrch.engine import ignore_files, pins, searcher, watch, watched
from asrch.engine.ignore_files import WalkRules
from asrch.engine.process import PROCESSES
from asrch.engine.transport import RgCall, Site
from asrch.server.app import build_server
from tests.server.helpers import Call, call_tools, run_cli, text_of, tool_text
from tests.support.tiers import examples

pytestmark = pytest.mark.skipif(
    not (pins.SUPPORTED and sys.platform.startswith("linux")), reason="inotify and /proc"
)

DIRS = ("", "sub", "sub/deep", "other", "other/x")
KINDS = (".gitignore", ".ignore", ".rgignore", ".git/info/exclude")
RULES = ("*.txt", "!a.txt", "sub/", "deep/", "/b.py", "*", "!*.py", "x/", "!deep/", "a.*")
MODES = (0o000, 0o555, 0o755, 0o644)
CALLS: list[Call] = [
    ("scout", {"query": "needle"}),
    ("scout", {"query": "needle", "path": "sub"}),
    ("scout", {"query": "needle", "path": "other/x"}),
]

edits = st.one_of(
    st.tuples(
        st.just("ignore"),
        st.sampled_from(DIRS),
        st.sampled_from(KINDS),
        st.lists(st.sampled_from(RULES), max_size=3),
    ),
    st.tuples(st.just("unignore"), st.sampled_from(DIRS), st.sampled_from(KINDS)),
    st.tuples(st.just("mkdir"), st.sampled_from(DIRS), st.sampled_from(RULES)),
    st.tuples(st.just("rename"), st.sampled_from(DIRS[1:]), st.sampled_from(DIRS[1:])),
    st.tuples(
        st.just("chmod"), st.sampled_from(DIRS), st.sampled_from(KINDS), st.sampled_from(MODES)
    ),
    st.tuples(st.just("chmod dir"), st.sampled_from(DIRS), st.sampled_from(MODES)),
    st.tuples(st.just("write"), st.sampled_from(DIRS), st.sampled_from(("a.txt", "b.py"))),
    st.tuples(st.just("remove"), st.sampled_from(DIRS), st.sampled_from(("a.txt", "b.py"))),
)
WHEN = st.sampled_from(("between", "before the read", "as rg starts"))


def _make(root: Path) -> None:
    for directory in DIRS:
        (root / directory).mkdir(parents=True, exist_ok=True)
        for name in ("a.txt", "b.py"):
            (root / directory / name).write_text(f"needle in {directory or 'root'}\n")
    (root / ".gitignore").write_text("other/x/b.py\n")
    (root / "other" / ".git" / "info").mkdir(parents=True)  # watched from the first call
    (root / "other" / ".git" / "info" / "exclude").write_text("x/a.txt\n")


def _apply(root: Path, edit: tuple[Any, ...]) -> None:
    """One edit; one the tree cannot take now (a directory gone) does nothing."""
    kind, *args = edit
    try:
        if kind == "ignore":
            directory, name, rules = args
            path = root / directory / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(rule + "\n" for rule in rules))
        elif kind == "unignore":
            (root / args[0] / args[1]).unlink()
        elif kind == "mkdir":
            made = root / args[0] / "new"
            made.mkdir()
            (made / "a.txt").write_text("needle new\n")
            (made / ".ignore").write_text(args[1] + "\n")
        elif kind == "rename":
            one, other = root / args[0], root / args[1]
            if one == other or one in other.parents or other in one.parents:
                return
            aside = root / "aside"
            one.rename(aside)
            if other.exists():
                other.rename(one)
            other.parent.mkdir(parents=True, exist_ok=True)
            aside.rename(other)
        elif kind == "chmod":
            os.chmod(root / args[0] / args[1], args[2])
        elif kind == "chmod dir":
            os.chmod(root / args[0], args[1] | 0o100)  # as root, 0 still reads
        elif kind == "write":
            with (root / args[0] / args[1]).open("a") as file:
                file.write("needle again\n")
        elif kind == "remove":
            (root / args[0] / args[1]).unlink()
    except (FileNotFoundError, NotADirectoryError, FileExistsError, IsADirectoryError):
        return


class Editing:
    """rg as a child process; an edit waiting for the next rg start is made first."""

    def __init__(self) -> None:
        self.pending: Callable[[], None] | None = None

    def start(self, argv: list[str], launch: Site, **how: Any) -> RgCall:
        edit, self.pending = self.pending, None
        if edit is not None:
            edit()
        return PROCESSES.start(argv, launch, **how)


@pytest.fixture
def released() -> Iterator[None]:
    """Servers of earlier tests let go (their roots' watches closed) before and after."""
    gc.collect()
    yield
    gc.collect()


def _answers(server: Any, *, kept: bool) -> list[str]:
    with pytest.MonkeyPatch.context() as patch:
        if not kept:  # read on every call: the answer the kept walk must give
            patch.setattr(watched, "kept", lambda real: False)
        return [text_of(result) for result in call_tools(server, *CALLS)]


@settings(
    max_examples=examples(12, more=50),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.tuples(edits, WHEN), min_size=1, max_size=6))
@example(
    steps=[
        (("ignore", "sub", ".ignore", ["*.txt"]), "between"),
        (("mkdir", "sub/deep", "a.*"), "as rg starts"),
        (("rename", "sub", "other/x"), "before the read"),
        (("chmod", "", ".gitignore", 0o000), "between"),
        (("ignore", "other", ".git/info/exclude", ["x/"]), "between"),
        (("ignore", "other", ".git/info/exclude", ["b.py"]), "as rg starts"),
        (("unignore", "", ".gitignore"), "before the read"),
    ]
)
def test_a_kept_walk_answers_as_a_walk_read_each_call(
    released: None, tmp_path_factory: pytest.TempPathFactory, steps: list[Any]
) -> None:
    root = tmp_path_factory.mktemp("kept")
    _make(root)
    rg = Editing()
    server = build_server([str(root)], transport=rg)
    reading = ignore_files.pinned_rules
    pending: list[Callable[[], None]] = []

    def read_after_edit(*args: Any, **kwargs: Any) -> WalkRules:
        while pending:
            pending.pop()()
        return reading(*args, **kwargs)

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ignore_files, "pinned_rules", read_after_edit)
            after = _answers(server, kept=True)
            assert after == _answers(server, kept=False)
            assert watched.watch_of(os.path.realpath(root)) is not None, "kept, watched"
            for edit, when in steps:

                def made(edit: tuple[Any, ...] = edit) -> None:
                    _apply(root, edit)

                if when == "between":
                    made()
                elif when == "as rg starts":
                    rg.pending = made
                else:
                    pending.append(made)
                racy = _answers(server, kept=True)  # an edit inside it: either side's
                if rg.pending is not None or pending:
                    rg.pending = None
                    while pending:
                        pending.pop()()
                after = _answers(server, kept=True)
                assert after == _answers(server, kept=False), (edit, when, racy)
        # And the last state's whole-root answer is the command line's (its own walk).
        cli = run_cli(root, "scout", "needle")
        assert after[0] == tool_text(cli.out), (steps, cli.err)
    finally:
        for directory, _, _ in os.walk(root):
            os.chmod(directory, 0o755)
        del server
        gc.collect()


class _Counted:
    """Calls of `os.scandir` and of the rules' read while a server answers."""

    def __init__(self, patch: pytest.MonkeyPatch) -> None:
        self.scandirs = self.reads = 0
        scandir, reading = os.scandir, ignore_files.pinned_rules

        def counted_scandir(path: Any = ".") -> Any:
            self.scandirs += 1
            return scandir(path)

        def counted_read(*args: Any, **kwargs: Any) -> WalkRules:
            self.reads += 1
            return reading(*args, **kwargs)

        patch.setattr(os, "scandir", counted_scandir)
        patch.setattr(ignore_files, "pinned_rules", counted_read)

    def take(self) -> tuple[int, int]:
        counts = self.scandirs, self.reads
        self.scandirs = self.reads = 0
        return counts


def test_a_warm_call_after_no_edit_reads_no_directory(
    released: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second call of a served root with no index lists no directory and reads no
    ignore file; a file written between calls changes that in nothing, a file made has
    the entries counted again (the rules kept), an ignore rule is read again."""
    _make(tmp_path)
    server = build_server([str(tmp_path)])
    counted = _Counted(monkeypatch)
    call: Call = ("scout", {"query": "needle"})
    first = text_of(call_tools(server, call)[0])
    scandirs, reads = counted.take()
    assert reads == 1 and scandirs >= len(DIRS), (scandirs, reads)
    assert text_of(call_tools(server, call)[0]) == first
    assert counted.take() == (0, 0), "a warm call after no edit"
    with (tmp_path / "sub" / "a.txt").open("a") as file:
        file.write("needle again\n")
    assert "2:needle again" in text_of(call_tools(server, call)[0])
    assert counted.take() == (0, 0), "a file's content written"
    (tmp_path / "sub" / "c.txt").write_text("needle\n")
    assert "sub/c.txt" in text_of(call_tools(server, call)[0])
    assert counted.take() == (0, 0), "a file made: its entries kept, off by one"
    for n in range(64):
        (tmp_path / "other" / f"{n}.md").write_text("")
    call_tools(server, call)
    scandirs, reads = counted.take()
    assert reads == 0 and scandirs >= len(DIRS), "65 entries made: counted again"
    (tmp_path / "sub" / ".ignore").write_text("c.txt\n")
    assert "sub/c.txt" not in text_of(call_tools(server, call)[0])
    assert counted.take()[1] == 1, "an ignore file written: read again"


@pytest.mark.parametrize("how", ["no watch", "a watch that cannot cover a new directory"])
def test_a_root_that_cannot_be_watched_is_read_each_call(
    released: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Past the directories one watch may cover (as at the user's watch limit), each call
    reads the rules, as without a server; what it answers is the same."""
    _make(tmp_path)
    if how == "no watch":
        monkeypatch.setattr(watch, "DIRECTORIES_MAX", len(DIRS) - 1)
    server = build_server([str(tmp_path)])
    counted = _Counted(monkeypatch)
    call: Call = ("scout", {"query": "needle"})
    call_tools(server, call, call)
    assert counted.take()[1] == (2 if how == "no watch" else 1)
    if how != "no watch":
        monkeypatch.setattr(watch, "DIRECTORIES_MAX", len(DIRS))
        (tmp_path / "more").mkdir()  # one directory past what a watch may cover now
        (tmp_path / "more" / "a.txt").write_text("needle more\n")
        assert "more/a.txt" in text_of(call_tools(server, call)[0])
        assert counted.take()[1] == 1
    (tmp_path / "sub" / ".ignore").write_text("*.txt\n")
    assert "sub/a.txt" not in text_of(call_tools(server, call)[0])
    call_tools(server, call)
    assert counted.take()[1] == 2, "read each call"


def test_an_overflowed_queue_reads_the_rules_again(
    released: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule written after the kernel's queue filled loses its event; the overflow it
    meets says the walk may have changed: the next call reads the rules again."""
    _make(tmp_path)
    server = build_server([str(tmp_path)])
    call: Call = ("scout", {"query": "needle"})
    assert "sub/a.txt" in text_of(call_tools(server, call)[0])
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if limit > 100_000:
        pytest.skip(f"max_queued_events is {limit}")
    busy = [tmp_path / "other" / "a.txt", tmp_path / "other" / "b.py"]
    for count in range(limit + 1):
        os.utime(busy[count % 2])  # one event each (two alike in a row would be one)
    (tmp_path / "sub" / ".ignore").write_text("*.txt\n")  # its event dropped
    assert "sub/a.txt" not in text_of(call_tools(server, call)[0])


def test_the_walks_kept_are_bounded(
    released: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `KEPT_MAX` walks (roots and path searched), the one kept longest ago goes:
    searched again, it is read again."""
    _make(tmp_path)
    monkeypatch.setattr(pins, "KEPT_MAX", 2)
    server = build_server([str(tmp_path)])
    counted = _Counted(monkeypatch)
    root, sub, other = (("scout", {"query": "needle", "path": p}) for p in (".", "sub", "other"))
    call_tools(server, root, sub, root, sub)
    assert counted.take()[1] == 2, "two walks kept"
    call_tools(server, other, sub, root)
    assert counted.take()[1] == 2, "other pushed root out, not sub"


def test_a_kept_count_that_may_be_either_side_of_a_small_tree_is_not_taken(
    released: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small tree's answer comes from one rg run (`SMALL_TREE`); a count kept between
    calls is off by the entries made since: where that may cross the bound, the call
    counts and lists apart (two runs), as for a tree past it."""
    _make(tmp_path)
    rg = Editing()
    argvs: list[list[str]] = []
    start = rg.start

    def recording(argv: list[str], launch: Site, **how: Any) -> RgCall:
        argvs.append(argv)
        return start(argv, launch, **how)

    monkeypatch.setattr(rg, "start", recording)
    server = build_server([str(tmp_path)], transport=rg)
    entries = sum(len(os.listdir(d)) for d, _, _ in os.walk(tmp_path) if ".git" not in d)
    monkeypatch.setattr(searcher, "SMALL_TREE", entries)  # this tree: at the bound
    call: Call = ("scout", {"query": "needle"})
    call_tools(server, call)
    assert len(argvs) == 1 and "--json" in argvs[0], "small: one run"
    (tmp_path / "new.txt").write_text("needle\n")  # one entry past it
    argvs.clear()
    assert "new.txt" in text_of(call_tools(server, call)[0])
    assert len(argvs) == 2 and "--count" in argvs[0], "maybe past it: two runs"


def test_a_server_let_go_while_a_root_is_watched_takes_no_lock(tmp_path: Path) -> None:
    """The garbage collector may finalize a server (its release) at any allocation,
    also one made while a search holds the registry's lock to make a watch: the
    release must return without that lock (it deadlocked the suite once), and the
    next search settles it: the root's watch closed."""
    real = os.path.realpath(tmp_path)
    release = watched.keep_fresh([real])
    made = watched.watch_of(real)
    assert made is not None and not made.closed
    finished = threading.Event()

    def let_go() -> None:
        release()
        finished.set()

    with watched._LOCK:  # as a search making a watch holds it
        letting_go = threading.Thread(target=let_go)
        letting_go.start()
        assert finished.wait(10), "the release waited for the lock"
    letting_go.join()
    assert watched.watch_of(real) is None
    assert made.closed
