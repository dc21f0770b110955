"""D58: an indexed answer is the scan's answer, byte for byte, on random trees after
random edits (add, modify, delete, rename, a file turning binary, an ignore rule
changing, a branch switch in git, the index updated or not in between).

The MCP server's path is checked too: one server is kept over the whole sequence (its
walk kept between calls and brought up to date from inotify, engine/index/fresh.py) and
asked after every edit, its answers (text and structured) against a server's without
the index.

Each check runs every search twice in the same tree: with the tree's index in the cache
directory, and with an empty one (a scan); stdout and stderr must be the same bytes,
text and JSON (minus JSON's `index` field, the one difference D58 allows). The counts
are also compared at the engine's level with small caps (a scan cut in a file, and the
binary files met before the cut), which the command line cannot ask for.

Time stands still in a test: every write gets an mtime of its own from a counter (a
test writes many times in one clock tick, which the 2 s window for racy files guards
against in real use, and which would leave the index unused here), and that window
is 0 (`build.RACY_NS`), and a search uses candidates however many (`candidates.MOST` 1).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions, make_query
from asrch.engine import watched
from asrch.engine.index import build as index_build
from asrch.engine.index import candidates as index_candidates
from asrch.engine.searcher import RipgrepSearcher
from asrch.server.app import build_server
from tests.server.helpers import call_tools
from tests.support.cli import run_asrch
from tests.support.tiers import drawing_more, examples

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "Kelvin",
    "\u212aelvin",
    "\u017feta",
    "seta",
    "foo_bar",
    "connect",
    "é",
    "x",
    "alphabet",
    "ALPHA",
]
PATHS = [
    "a.py",
    "b.txt",
    "src/c.py",
    "src/d.md",
    "src/deep/e.py",
    ".hidden.py",
    "build/f.py",
    "g.log",
    "ignored.py",
    "src/deep/h.txt",
]
DIRECTORIES = ["src", "src/deep", "build", "lib"]
IGNORES = ["", "ignored.py\n", "src/deep/\n", "*.md\n", "!.hidden.py\n"]
TERMS = ["alpha", "beta", "Kelvin", "seta", "foo_bar", "connect", "gam", "al", "ALPHA", "é"]
REGEXES = [
    "al.ha",
    "be+ta",
    "(alpha)+",
    "[ab]lpha",
    "al(p)?ha",
    "alpha\\b",
    "fo+_bar",
    "conn?ect",
    "^alpha",
    "K.lvin",
]

lines = st.lists(st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join), max_size=4)
texts = lines.map(lambda ls: "\n".join(ls) + ("\n" if ls else ""))
contents = st.one_of(
    texts.map(lambda t: t.encode()),
    texts.map(lambda t: t.encode() + b"\0tail\n"),  # binary
    texts.map(lambda t: "\ufeff".encode("utf-16-le") + t.encode("utf-16-le")),  # BOM
    texts.map(lambda t: t.replace("\n", "\r\n").encode("utf-8") + b"\xff\xfe"),
)
edits = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(PATHS), contents),
    st.tuples(st.just("delete"), st.sampled_from(PATHS)),
    st.tuples(st.just("rename"), st.sampled_from(PATHS), st.sampled_from(PATHS)),
    st.tuples(st.just("binary"), st.sampled_from(PATHS)),
    st.tuples(st.just("ignore"), st.sampled_from(IGNORES)),
    # An ignore file of a directory below the root, and two directories swapped: what
    # the server's kept ignore rules (engine/pins.py) must see between calls.
    st.tuples(
        st.just("ignore below"),
        st.sampled_from(DIRECTORIES),
        st.sampled_from([".gitignore", ".ignore", ".rgignore"]),
        st.sampled_from(IGNORES),
    ),
    st.tuples(st.just("swap"), st.sampled_from(DIRECTORIES), st.sampled_from(DIRECTORIES)),
    st.tuples(st.just("reindex")),
    st.tuples(st.just("branch"), st.sampled_from(PATHS), contents),
)
queries = st.tuples(
    st.sampled_from(["fixed", "word", "identifier", "regex"]),
    st.booleans(),
    st.sampled_from([(), ("*.py",)]),
    st.integers(0, 100),
)


class Tree:
    """A tree the test writes, each write with an mtime of its own."""

    def __init__(self, root: Path, git: bool) -> None:
        self.root = root
        self.clock = 1_600_000_000
        self.git = git
        if git:
            self._git("init", "-q", "-b", "main")

    def _git(self, *args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=self.root,
            check=True,
            capture_output=True,
        )

    def stamp(self, path: Path) -> None:
        self.clock += 7
        os.utime(path, (self.clock, self.clock))

    def stamp_all(self) -> None:
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in filenames:
                self.stamp(Path(dirpath, name))

    def write(self, rel: str, data: bytes) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.stamp(path)

    def swap(self, one: Path, other: Path) -> None:
        """Two directories (or one and a name) trade places: names, files, ignore files."""
        if one == other or one in other.parents or other in one.parents:
            return
        aside = self.root / "swapped"
        if one.is_dir():
            one.rename(aside)
        if other.is_dir():
            one.parent.mkdir(parents=True, exist_ok=True)
            other.rename(one)
        if aside.is_dir():
            other.parent.mkdir(parents=True, exist_ok=True)
            aside.rename(other)

    def apply(self, edit: tuple[Any, ...], reindex: Any) -> None:
        kind = edit[0]
        if kind == "write":
            self.write(edit[1], edit[2])
        elif kind == "delete":
            (self.root / edit[1]).unlink(missing_ok=True)
        elif kind == "rename":
            source, target = self.root / edit[1], self.root / edit[2]
            if source.exists() and source != target:
                target.parent.mkdir(parents=True, exist_ok=True)
                source.rename(target)
        elif kind == "binary":
            path = self.root / edit[1]
            if path.exists():
                self.write(edit[1], path.read_bytes() + b"\0")
        elif kind == "ignore":
            self.write(".gitignore", edit[1].encode())
        elif kind == "ignore below":
            self.write(f"{edit[1]}/{edit[2]}", edit[3].encode())
        elif kind == "swap":
            self.swap(self.root / edit[1], self.root / edit[2])
        elif kind == "reindex":
            reindex()
        elif kind == "branch" and self.git:
            self._git("add", "-A")
            self._git("commit", "-q", "--allow-empty", "-m", "a")
            self._git("checkout", "-q", "-b", f"b{self.clock}")
            self.write(edit[1], edit[2])
            self._git("add", "-A")
            self._git("commit", "-q", "--allow-empty", "-m", "b")
            self._git("checkout", "-q", "main")
            self.stamp_all()


@pytest.fixture
def no_racy_window(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(index_build, "RACY_NS", 0)
    # Candidates however many: a tree of 10 files would otherwise scan for most terms,
    # and the property is about the answers from candidates.
    monkeypatch.setattr(index_candidates, "MOST", 1.0)
    monkeypatch.setattr(index_candidates, "UNION_MOST", 1.0)
    yield


def _runs(tree: Path, cache: str, words: list[str]) -> tuple[bytes, bytes, int]:
    done = run_asrch(words, cwd=tree, env={"XDG_CACHE_HOME": cache})
    return done.stdout, done.stderr, done.status


def _without_index(out: bytes) -> tuple[bytes, str | None]:
    if not out.startswith(b"{"):
        return out, None
    answer = json.loads(out)
    used = answer.pop("index", None)
    return json.dumps(answer).encode(), used


def _options(mode: str, ignore_case: bool, glob: tuple[str, ...]) -> list[str]:
    return [
        *([f"--{mode}"] if mode != "fixed" else []),
        *(["-i"] if ignore_case else []),
        *(a for g in glob for a in ("--glob", g)),
    ]


def check(tree: Path, indexed: str, empty: str, drawn: list[Any], seen: list[str]) -> None:
    for mode, ignore_case, glob, _ in drawn:
        term = TERMS[_ % len(TERMS)] if mode != "regex" else REGEXES[_ % len(REGEXES)]
        options = _options(mode, ignore_case, glob)
        runs = [
            ["scout", *options, "--", term],
            ["scout", "--format", "json", *options, "--", term],
            ["scout", *options, "--", term, "src"],
        ]
        if mode != "regex":
            terms = [a for t in (term, "beta", "alpha") for a in ("--term", t)]
            runs += [["survey", *options, *terms], ["survey", "--format", "json", *options, *terms]]
        for words in runs:
            with_index = _runs(tree, indexed, words)
            scan = _runs(tree, empty, words)
            out, used = _without_index(with_index[0])
            assert (out, with_index[1], with_index[2]) == (_without_index(scan[0])[0], *scan[1:]), (
                words
            )
            if used is not None:
                seen.append(used)
        # The engine's counts, cut at small caps (the index's own adapter against none).
        options_record = SearchOptions(mode=Mode(mode), ignore_case=ignore_case, glob=glob)
        query = make_query(term, options_record)
        env = {**os.environ, "XDG_CACHE_HOME": indexed}
        bare = {**os.environ, "XDG_CACHE_HOME": empty}
        for cap in (1, 2, 5, 50_000):
            mine = RipgrepSearcher(cwd=str(tree), environ=env).count(
                query, ".", cap=cap, census=True
            )
            theirs = RipgrepSearcher(cwd=str(tree), environ=bare).count(
                query, ".", cap=cap, census=True
            )
            assert mine == theirs, (term, mode, cap)
        if mode != "regex":
            # A survey's terms together (the parallel plan over their candidates where
            # it fits: fixed terms matched with case), cut at small caps.
            queries = [make_query(t, options_record) for t in (term, "beta", "alpha")]
            for cap in (1, 2, 5, 50_000):
                mine_all = RipgrepSearcher(cwd=str(tree), environ=env).count_terms(
                    queries, ".", cap=cap
                )
                theirs_all = RipgrepSearcher(cwd=str(tree), environ=bare).count_terms(
                    queries, ".", cap=cap
                )
                assert mine_all == theirs_all, (term, mode, cap)


class Served:
    """A server with the tree's index and one without, kept over an edit sequence; each
    call made with the cache directory of its side (the searcher reads it per call)."""

    def __init__(self, root: Path, indexed: str, empty: str) -> None:
        self.root = root
        self.sides = [(build_server([str(root)], structured=True), c) for c in (indexed, empty)]

    def check(self, drawn: list[Any], seen: list[str]) -> None:
        for mode, ignore_case, glob, k in drawn:
            term = TERMS[k % len(TERMS)] if mode != "regex" else REGEXES[k % len(REGEXES)]
            common = {"mode": mode, "ignore_case": ignore_case, "glob": list(glob)}
            calls: list[tuple[str, dict[str, Any]]] = [
                ("scout", {"query": term, **common}),
                ("scout", {"query": term, "path": "src", **common}),
            ]
            if mode != "regex":
                calls.append(("survey", {"terms": [term, "beta", "alpha"], **common}))
            answers = []
            for side, (server, cache) in enumerate(self.sides):
                saved = os.environ.get("XDG_CACHE_HOME")
                os.environ["XDG_CACHE_HOME"] = cache
                try:
                    # The side without the index keeps nothing between calls either:
                    # its ignore rules are read each call (engine/pins.py keeps them
                    # only for a root kept fresh).
                    with pytest.MonkeyPatch.context() as patch:
                        if side:
                            patch.setattr(watched, "kept", lambda real: False)
                        answers.append(call_tools(server, *calls))
                finally:
                    if saved is None:
                        os.environ.pop("XDG_CACHE_HOME")
                    else:
                        os.environ["XDG_CACHE_HOME"] = saved
            for call, mine, theirs in zip(calls, *answers, strict=True):
                ours = dict(mine.structured_content or {})
                used = ours.pop("index", None)
                if used is not None:
                    seen.append(f"mcp {used}")
                assert (mine.content, mine.is_error, ours) == (
                    theirs.content,
                    theirs.is_error,
                    theirs.structured_content or {},
                ), call

    def close(self) -> None:
        self.sides.clear()  # the servers let go: their root's watch closed
        gc.collect()


def exactness(
    first: tuple[list[tuple[str, bytes]], str, bool], steps: list[Any], drawn: list[Any]
) -> None:
    start, ignore, git = first
    base = Path(tempfile.mkdtemp(prefix="asrch-index-"))
    try:
        root = base / "tree"
        root.mkdir()
        indexed, empty = str(base / "cache"), str(base / "empty")
        tree = Tree(root, git)
        for rel, data in start:
            tree.write(rel, data)
        tree.write(".gitignore", ignore.encode())

        def reindex() -> None:
            done = run_asrch(["index"], cwd=root, env={"XDG_CACHE_HOME": indexed})
            assert done.status == 0, done.stderr

        reindex()
        seen: list[str] = []
        served = Served(root, indexed, empty)
        try:
            check(root, indexed, empty, drawn[:1], seen)
            served.check(drawn[:1], seen)
            for step in steps:
                tree.apply(step, reindex)
                served.check(drawn[:1], seen)
            check(root, indexed, empty, drawn, seen)
            served.check(drawn, seen)
        finally:
            served.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


STRATEGIES = dict(
    first=st.tuples(
        st.lists(st.tuples(st.sampled_from(PATHS), contents), min_size=1, max_size=8),
        st.sampled_from(IGNORES),
        st.booleans(),
    ),
    steps=st.lists(edits, max_size=6),
    drawn=st.lists(queries, min_size=1, max_size=3),
)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
SUPPRESSED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


# An example costs ~1 s: 8 in an ordinary run, 30 under the profile `more`
# (tests/support/tiers.py). No shrinking in an ordinary run (a shrink costs hundreds of
# examples); under `more` a failure is shrunk.
@settings(
    max_examples=examples(8, more=30),
    suppress_health_check=SUPPRESSED,
    phases=tuple(Phase) if drawing_more() else NO_SHRINK,
)
@given(**STRATEGIES)
# Always: ignore files below the root written and directories swapped between a server's
# calls (the server keeps its ignore rules while its watch sees no such change).
@example(
    first=(
        [
            ("a.py", b"alpha\n"),
            ("ignored.py", b"alpha\n"),
            ("src/c.py", b"alpha\n"),
            ("build/f.py", b"alpha\n"),
            ("src/deep/e.py", b"alpha beta\n"),
        ],
        "",
        False,
    ),
    steps=[
        ("ignore", "ignored.py\n"),
        ("ignore below", "src", ".ignore", "*.py\n"),
        ("swap", "src", "lib"),
        ("ignore below", "lib", ".rgignore", "!.hidden.py\n"),
        ("swap", "src/deep", "build"),
    ],
    drawn=[("fixed", False, (), 0), ("word", False, ("*.py",), 1)],
)
def test_an_indexed_answer_is_the_scans(
    no_racy_window: None, first: Any, steps: Any, drawn: Any
) -> None:
    """`first`: the tree's files, its .gitignore, whether it is a git repository."""
    exactness(first, steps, drawn)
