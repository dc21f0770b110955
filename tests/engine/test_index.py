"""D58's index (engine/index/): which trigrams a query proves, what a build stores and
updates, and every way an index is not used (an answer still the scan's)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions, make_query
from asrch.engine.index import build as index_build
from asrch.engine.index import candidates as index_candidates
from asrch.engine.index import verify as index_verify
from asrch.engine.index.literals import needed_trigrams
from asrch.engine.index.location import index_path
from asrch.engine.index.store import build_lock
from asrch.engine.mock_rg import MockRg, recorded
from tests.support.cli import run_asrch

CORPUS = Path(__file__).parents[2] / "fixtures" / "corpus"


def _grams(term: str, mode: Mode = Mode.FIXED, *, ignore_case: bool = False) -> list[str] | None:
    return needed_trigrams(make_query(term, SearchOptions(mode=mode, ignore_case=ignore_case)))


def test_a_fixed_term_needs_its_trigrams() -> None:
    assert _grams("connect") == ["con", "onn", "nne", "nec", "ect"]
    assert _grams("connect", Mode.WORD) == _grams("connect", Mode.IDENTIFIER)
    assert _grams("ab") is None, "shorter than a trigram: a scan"


def test_a_long_term_asks_a_bounded_spread_of_its_trigrams() -> None:
    term = "".join(chr(ord("a") + i % 26) + str(i) for i in range(5000))
    grams = _grams(term)
    assert grams is not None
    assert len(grams) == 32
    assert all(g in term for g in grams)


def test_ignore_case_asks_no_trigram_that_folds_beyond_ascii() -> None:
    """rg's -i matches U+212A for k and U+017F for s; non-ASCII folds are unproven."""
    assert _grams("kelvin", ignore_case=True) == ["elv", "lvi", "vin"]
    assert _grams("sss", ignore_case=True) is None
    assert _grams("café", ignore_case=True) == ["caf"]
    assert _grams("Kelvin") == ["Kel", "elv", "lvi", "vin"], "case-sensitive: all of them"


@pytest.mark.parametrize(
    ("pattern", "grams"),
    [
        ("connect", ["con", "onn", "nne", "nec", "ect"]),
        ("al.ha", None),
        ("alpha.*beta", ["alp", "lph", "pha", "bet", "eta"]),
        ("conn?ect", ["con", "ect"]),
        ("be+ta", None),
        ("abc+d", ["abc"]),
        ("(alpha)+beta", ["bet", "eta"]),
        ("[ab]lpha", ["lph", "pha"]),
        ("a\\.bc", ["a.b", ".bc"]),
        ("abc\\b", None),
        ("ab{2}cde", ["cde"]),
        ("(?i)alpha", None),
        ("al\\|pha", None),
        ("[[:alpha:]]abc", None),
    ],
)
def test_a_regex_needs_only_the_literals_it_proves(pattern: str, grams: list[str] | None) -> None:
    assert _grams(pattern, Mode.REGEX) == grams


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The corpus with its files' mtimes in the past (not racy)."""
    root = tmp_path / "tree"
    shutil.copytree(CORPUS, root)
    for dirpath, _, names in os.walk(root):
        for name in names:
            os.utime(Path(dirpath, name), (1_600_000_000, 1_600_000_000))
    return root


def _env(tmp_path: Path) -> dict[str, str | None]:
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}


def _json(
    tree: Path, env: dict[str, str | None], *words: str, rg: MockRg | None = None
) -> dict[str, object]:
    done = run_asrch([words[0], "--format", "json", *words[1:]], cwd=tree, env=env, transport=rg)
    assert done.status == 0, done.err
    answer: dict[str, object] = json.loads(done.out)
    return answer


def test_a_search_reads_only_the_candidates_and_every_changed_file(
    tree: Path, tmp_path: Path
) -> None:
    env = _env(tmp_path)
    assert run_asrch(["index"], cwd=tree, env=env).status == 0
    seen = MockRg(recorded)  # the real rg, each argv kept
    answer = _json(tree, env, "scout", "Pool", rg=seen)
    assert answer["index"] == "used"
    assert answer["matches"] == 1
    counted = [r.argv for r in seen.requests if "--count" in r.argv]
    assert counted[-1][-2:] == ("--", "./src/net/pool.py"), counted
    # A change since the index: found without `asrch index`, as a scan finds it.
    (tree / "README.md").write_text("Pool\nPool\n")
    answer = _json(tree, env, "scout", "Pool", rg=seen)
    assert (answer["index"], answer["matches"], answer["files"]) == ("used", 3, 2)
    (tree / "src/net/pool.py").unlink()
    answer = _json(tree, env, "scout", "Pool", rg=seen)
    assert (answer["matches"], answer["files"]) == (2, 1)


def test_a_build_reads_only_what_changed_and_status_says_what_is_stale(
    tree: Path, tmp_path: Path
) -> None:
    env = _env(tmp_path)
    first = run_asrch(["index"], cwd=tree, env=env).out
    assert "  read: 21\n" in first
    again = run_asrch(["index"], cwd=tree, env=env).out
    assert "  read: 0\n" in again
    (tree / "new.py").write_text("x = 1\n")
    os.utime(tree / "new.py", (1_600_000_000, 1_600_000_000))
    (tree / "src/app.py").unlink()
    status = run_asrch(["index", "--status"], cwd=tree, env=env).out
    assert "  stale: 2\n" in status
    third = run_asrch(["index"], cwd=tree, env=env).out
    assert "  read: 1\n" in third
    assert "  removed: 1\n" in third
    assert "  stale: 0\n" in run_asrch(["index", "--status", "src"], cwd=tree, env=env).out


def test_a_file_written_just_before_it_was_read_is_read_again_after_the_window(
    tree: Path, tmp_path: Path
) -> None:
    """Racily clean: a write in the same clock tick as the read could keep its stat, so
    the build reads the file again once 2 s are past (a tree cloned and indexed at once)."""
    env = _env(tmp_path)
    (tree / "fresh.py").write_text("x = 1\n")
    run_asrch(["index"], cwd=tree, env=env)
    assert "  stale: 0\n" in run_asrch(["index", "--status"], cwd=tree, env=env).out


def test_a_file_written_again_within_the_window_stays_stale(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written again while the build waited: still racy, read by rg until the next build."""
    env = _env(tmp_path)
    (tree / "fresh.py").write_text("x = 1\n")

    def write_while_waiting(seconds: float) -> None:
        (tree / "fresh.py").write_text("x = 2\n")

    monkeypatch.setattr(time, "sleep", write_while_waiting)
    run_asrch(["index"], cwd=tree, env=env)
    assert "  stale: 1\n" in run_asrch(["index", "--status"], cwd=tree, env=env).out


@pytest.mark.parametrize("damage", ["garbage", "version"])
def test_an_index_that_cannot_be_used_is_said_once_and_the_answer_is_the_scans(
    tree: Path, tmp_path: Path, damage: str
) -> None:
    env = _env(tmp_path)
    scan = run_asrch(["scout", "connect"], cwd=tree, env=env)
    run_asrch(["index"], cwd=tree, env=env)
    path = index_path(os.path.realpath(tree), {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    if damage == "garbage":
        Path(path).write_bytes(b"not a database" * 100)
    else:
        with sqlite3.connect(path) as db:
            db.execute("UPDATE meta SET value = '0' WHERE key = 'version'")
    done = run_asrch(["scout", "connect"], cwd=tree, env=env)
    assert done.out == scan.out
    assert done.err.startswith("note: the index of ")
    assert done.err.count("\n") == 1
    assert _json(tree, env, "scout", "connect")["index"] == "ignored"
    # `asrch index` remakes it.
    assert run_asrch(["index"], cwd=tree, env=env).status == 0
    assert run_asrch(["scout", "connect"], cwd=tree, env=env).err == ""


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_an_index_file_that_is_a_fifo_is_never_opened(
    tree: Path, tmp_path: Path, suffix: str
) -> None:
    """A FIFO where the index or its WAL would be: SQLite's open blocked for a writer
    forever, retrying through SIGTERM (a scout hung, `asrch index` too); now the index is
    ignored, said once, and `asrch index` remakes it."""
    env = _env(tmp_path)
    scan = run_asrch(["scout", "connect"], cwd=tree, env=env)
    run_asrch(["index"], cwd=tree, env=env)
    path = index_path(os.path.realpath(tree), {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    if not suffix:
        os.remove(path)
    os.mkfifo(path + suffix)
    done = run_asrch(["scout", "connect"], cwd=tree, env=env, cold=True, timeout=20)
    assert done.out == scan.out
    assert "not a regular file" in done.err
    assert done.err.count("\n") == 1
    assert run_asrch(["index"], cwd=tree, env=env, cold=True, timeout=20).status == 0
    assert run_asrch(["scout", "connect"], cwd=tree, env=env).err == ""


def test_a_cache_that_cannot_be_written_fails_the_build_in_one_line(
    tree: Path, tmp_path: Path
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory would be\n")
    env = {"XDG_CACHE_HOME": str(blocked)}
    done = run_asrch(["index"], cwd=tree, env=env)
    assert done.status == 4
    assert done.err.startswith("error: cannot write the index of .: ")
    assert done.err.count("\n") == 1
    assert run_asrch(["scout", "connect"], cwd=tree, env=env).status == 0


def test_two_builds_at_once_leave_one_consistent_index(tree: Path, tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "asrch", "index"],
            cwd=tree,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outs = [run.communicate(timeout=60) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    reads = sorted(out.decode().split("read: ")[1].split("\n")[0] for out, _ in outs)
    assert reads == ["0", "21"], "the second waited for the first, then read nothing"
    status = run_asrch(
        ["index", "--status"], cwd=tree, env={"XDG_CACHE_HOME": env["XDG_CACHE_HOME"]}
    )
    assert "  stale: 0\n" in status.out


def _waiting_on(inode: int) -> bool:
    """Whether some process waits for a lock on the file `inode` (`/proc/locks`: a
    waiter's line has `->`)."""
    with open("/proc/locks") as locks:
        return any("->" in line and f":{inode} " in line for line in locks)


@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="reads Linux's /proc/locks")
def test_a_build_waits_while_another_holds_the_index(tree: Path, tmp_path: Path) -> None:
    """The second of two builds opens nothing until the first is done (store.build_lock):
    SQLite's lock alone let it read the first's half-made index as unreadable and make
    it again under it."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    path = index_path(os.path.realpath(tree), env)
    held = build_lock(path)
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "asrch", "index"],
            cwd=tree,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        # Until the build is seen waiting on the lock (not a guess at how long it takes).
        while not _waiting_on(os.fstat(held).st_ino):
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the build never waited"
            time.sleep(0.01)
        assert not os.path.exists(path)  # nothing opened or made while it waits
    finally:
        os.close(held)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (0, b"")
    assert "  read: 21\n" in out.decode()


def test_the_index_lives_in_the_cache_never_in_the_tree(tree: Path, tmp_path: Path) -> None:
    before = sorted(p.name for p in tree.rglob("*"))
    run_asrch(["index"], cwd=tree, env=_env(tmp_path))
    assert sorted(p.name for p in tree.rglob("*")) == before
    assert list((tmp_path / "cache" / "asrch").iterdir())


def test_racy_window_is_what_the_property_test_turns_off() -> None:
    assert index_build.RACY_NS == 2_000_000_000


@pytest.mark.parametrize("args", [["index"], ["index", "--status"]])
def test_asrch_index_runs_rg_through_the_runs_transport(
    tree: Path, tmp_path: Path, args: list[str]
) -> None:
    """`asrch index` and `--status` walk with the run's rg (its transport, its children:
    a run stopped stops it), as every search does: the build started rg itself, past
    the transport, so a test's timeout could not stop a build that hung on rg."""
    env = _env(tmp_path)
    assert run_asrch(["index"], cwd=tree, env=env).status == 0
    seen = MockRg(recorded)  # the real rg, each argv kept
    done = run_asrch(args, cwd=tree, env=env, transport=seen)
    assert done.status == 0, done.err
    walks = [r.argv for r in seen.requests if "--files" in r.argv]
    assert len(walks) == 1, seen.requests
    assert list(walks[0][-2:]) == ["--", "."]


def test_a_survey_read_in_many_batches_answers_as_the_scan(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Survey's parallel plan over the union of its terms' candidates, one rg run a
    candidate (all started at once, read in turn): the scan's answer, text and JSON."""
    env = _env(tmp_path)
    assert run_asrch(["index"], cwd=tree, env=env).status == 0
    monkeypatch.setattr(index_verify, "_ARGV_BYTES", 0)  # a batch a file
    monkeypatch.setattr(index_candidates, "MOST", 1.0)  # the corpus is small
    words = ["survey", "--term", "Pool", "--term", "retry", "--term", "connect"]
    for form in ([], ["--format", "json"]):
        seen = MockRg(recorded)  # the real rg, each argv kept
        indexed = run_asrch([*words, *form], cwd=tree, env=env, transport=seen)
        scan = run_asrch([*words, *form], cwd=tree, env={"XDG_CACHE_HOME": str(tmp_path / "no")})
        mine: object = indexed.out
        theirs: object = scan.out
        if form:  # the one difference D58 allows: JSON says the index was used
            answer = json.loads(indexed.out)
            assert answer.pop("index") == "used"
            mine, theirs = answer, json.loads(scan.out)
        assert (mine, indexed.err, indexed.status) == (theirs, scan.err, scan.status)
        runs = [r.argv for r in seen.requests if "--only-matching" in r.argv]
        assert len(runs) > 1, runs
        assert all(argv[-2] == "--" and argv[-1] != "." for argv in runs), runs
