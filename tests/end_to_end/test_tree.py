"""Hostile trees: links, FIFOs, sockets, devices, unreadable entries, deep nesting.

A FIFO or `/dev/zero` that rg opened would block or never end: every run has a
timeout, so "never opened" shows up as a failure, not a hang.
"""

import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.end_to_end.helpers import LINE_CAP, asrch, asrch_many, check_invariants, ranked
from tests.support.toon import field, notes

NOBODY = 65534
_PROBE = (sys.executable, "-c", "pass")
SKIPPED_2 = (
    "note: skipped: 2 unreadable (permission denied or I/O errors); their matches are not counted"
)


def _special_tree(root: Path) -> list[str]:
    """Real files with one match each, and every kind of entry that must not be read.

    Returns what could be made of the special entries (a device needs privileges).
    """
    (root / "d" / "sub").mkdir(parents=True)
    (root / "d" / "sub" / "real.txt").write_text("needle\n")
    (root / "top.txt").write_text("needle\n")
    outside = root.parent / f"{root.name}-outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("needle\n" * 7)
    made = ["loop", "broken", "file-link", "dir-link", "fifo", "socket"]
    (root / "d" / "sub" / "loop").symlink_to("..")
    (root / "d" / "self").symlink_to("self")
    (root / "broken").symlink_to("nowhere/at/all")
    (root / "file-link.txt").symlink_to(outside / "secret.txt")
    (root / "dir-link").symlink_to(outside)
    os.mkfifo(root / "fifo.txt")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "socket.txt"))
    sock.close()
    try:
        os.mknod(root / "zero.txt", stat.S_IFCHR | 0o644, os.makedev(1, 5))
        made.append("zero-device")
    except OSError:
        pass
    return made


def test_links_fifos_sockets_devices_are_never_followed_or_opened(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    _special_tree(root)
    runs = asrch_many(
        [["scout", "needle", "."], ["survey", "--term=needle", "--", ".", "d"]], cwd=root
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
    scout, survey = runs
    assert field(scout.out, "matches") == "2"
    assert field(scout.out, "files") == "2"
    assert ranked(scout, "top_files") == [
        ["d/sub/real.txt", "1"],
        ["top.txt", "1"],
    ]
    # Not opened, so not unreadable either: no skipped note, no other note.
    assert notes(scout.out) == []
    assert "  needle,3,3,.\n" in survey.out


def test_special_files_named_explicitly_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    _special_tree(root)
    commands = [
        ["scout", "needle", "fifo.txt"],
        ["survey", "--term=needle", "--", "socket.txt"],
        ["sample", "needle", "fifo.txt"],
        ["show", "needle", "socket.txt"],
        ["show", "--line", "1", "needle", "fifo.txt"],
        ["scout", "needle", "/dev/zero"],
        ["show", "needle", "/dev/zero"],
    ]
    for run in asrch_many(commands, cwd=root):
        check_invariants(run, frozenset({2}))
        assert "is a FIFO, socket or device" in run.err


def test_broken_symlink_named_explicitly_does_not_exist(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    _special_tree(root)
    runs = asrch_many([["scout", "needle", "broken"], ["show", "needle", "broken"]], cwd=root)
    for run in runs:
        check_invariants(run, frozenset({2}))
    assert runs[0].err == "error: path broken does not exist\n"
    assert runs[1].err == "error: file broken does not exist\n"


def test_symlink_named_explicitly_is_searched_as_its_target(tmp_path: Path) -> None:
    """As rg does for paths on its command line; only links met while walking are skipped."""
    root = tmp_path / "tree"
    root.mkdir()
    _special_tree(root)
    runs = asrch_many(
        [["scout", "needle", "file-link.txt"], ["scout", "needle", "dir-link"]], cwd=root
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
        assert field(run.out, "matches") == "7"


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory another user can reach (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="asrch-rel-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for folder, _, _ in os.walk(path):
            Path(folder).chmod(0o755)
        shutil.rmtree(path)


def _unprivileged() -> int | None:
    """The uid to run permission tests as: ourselves, or nobody through setpriv as root."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions would not bite")
    probe = subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *_PROBE],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if probe.returncode != 0:
        # e.g. a pyenv interpreter under /root whose libpython nobody may read.
        pytest.skip(f"nobody cannot start this interpreter: {probe.stderr[:200]!r}")
    return NOBODY


def test_unreadable_entries_are_counted_as_skipped(shared_dir: Path) -> None:
    user = _unprivileged()
    root = shared_dir
    (root / "ok.txt").write_text("needle\n")
    (root / "locked.txt").write_text("needle\n" * 3)
    (root / "locked-dir").mkdir()
    (root / "locked-dir" / "inner.txt").write_text("needle\n" * 5)
    (root / "locked.txt").chmod(0o000)
    (root / "locked-dir").chmod(0o000)
    scout = asrch("scout", "needle", ".", cwd=root, user=user)
    survey = asrch("survey", "--term=needle", "--", ".", cwd=root, user=user)
    for run in (scout, survey):
        check_invariants(run, frozenset({0}))
        assert SKIPPED_2 in notes(run.out), str(run)
    assert field(scout.out, "matches") == "1"
    assert scout.out.splitlines()[3:5] == ["ok.txt", "1:needle"], str(scout)  # listed (D44)
    assert "  needle,1,1,ok.txt:1\n" in survey.out


def test_unreadable_paths_named_explicitly_are_input_errors(shared_dir: Path) -> None:
    """Named on the command line, in every command alike: exit 2 with the reason (D21)."""
    user = _unprivileged()
    (shared_dir / "locked.txt").write_text("needle\n")
    (shared_dir / "locked.txt").chmod(0o000)
    for name, mode in (("locked-dir", 0o000), ("list-only", 0o444), ("enter-only", 0o111)):
        (shared_dir / name).mkdir()
        (shared_dir / name / "inner.txt").write_text("needle\n")
        (shared_dir / name).chmod(mode)
    files = ["locked.txt", "locked-dir/inner.txt", "list-only/inner.txt"]
    for path in files:
        for command in (["scout"], ["sample"], ["show"], ["show", "--line", "1"]):
            run = asrch(*command, "needle", path, cwd=shared_dir, user=user)
            check_invariants(run, frozenset({2}))
            assert run.err == f"error: cannot read {path}: Permission denied\n", str(run)
    for path in ("locked-dir", "list-only", "enter-only"):
        for command in (["scout", "needle", path], ["survey", "--term=needle", "--", ".", path]):
            run = asrch(*command, cwd=shared_dir, user=user)
            check_invariants(run, frozenset({2}))
            assert run.err == f"error: cannot read {path}: Permission denied\n", str(run)
    # enter-only/inner.txt can be read: the directory's x bit is enough to reach it.
    run = asrch("scout", "needle", "enter-only/inner.txt", cwd=shared_dir, user=user)
    check_invariants(run, frozenset({0}))
    assert field(run.out, "matches") == "1"


def _nest(root: Path, parts: list[str]) -> Path:
    leaf = root.joinpath(*parts)
    leaf.mkdir(parents=True)
    (leaf / "leaf.txt").write_text("needle\n")
    return leaf


def test_two_hundred_levels_deep(tmp_path: Path) -> None:
    parts = [chr(ord("a") + i % 26) for i in range(200)]
    _nest(tmp_path, parts)
    want = "/".join(parts)
    runs = asrch_many(
        [
            ["scout", "needle", "."],
            ["show", "--line", "1", "needle", f"{want}/leaf.txt"],
        ],
        cwd=tmp_path,
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
    scout, show = runs
    assert ranked(scout, "top_directories") == [[want, "1"]]
    assert ranked(scout, "top_files") == [[f"{want}/leaf.txt", "1"]]
    assert show.out.splitlines()[1:] == ["  window: 1-1", "  last_line: 1", "1:needle"]


def test_a_path_longer_than_a_line_is_cut_and_marked(tmp_path: Path) -> None:
    parts = [f"level{i:03d}" for i in range(200)]
    _nest(tmp_path, parts)
    run = asrch("scout", "needle", ".", cwd=tmp_path)
    check_invariants(run, frozenset({0}))
    assert field(run.out, "files") == "1"
    # Listed (D44): the file's path on a line of its own, cut at the line cap.
    row = next(ln for ln in run.out.splitlines() if ln.startswith("level000/"))
    assert len(row.encode()) <= LINE_CAP
    assert row.endswith(" bytes]")
    assert "/".join(parts).startswith(row.split("…")[0].strip())


def test_many_runs_at_once_agree(tmp_path: Path) -> None:
    for d in range(8):
        for f in range(20):
            folder = tmp_path / f"dir{d}"
            folder.mkdir(exist_ok=True)
            (folder / f"file{f}.txt").write_text("needle\nother\n" * (d + f + 1))
    once = [
        ["scout", "needle", "."],
        ["survey", "--term=needle", "--term=other", "--", "dir0", "dir7", "."],
        ["sample", "needle", "dir3/file4.txt"],
        ["show", "--line", "3", "needle", "dir1/file1.txt"],
    ]
    # Processes side by side, each with its own rg: cold runs, not one at a time.
    runs = asrch_many(once * 4, cwd=tmp_path, workers=16, cold=True)
    for i, run in enumerate(runs):
        check_invariants(run, frozenset({0}))
        first = runs[i % len(once)]
        assert (run.status, run.stdout, run.stderr) == (first.status, first.stdout, first.stderr)
    total = sum(d + f + 1 for d in range(8) for f in range(20))
    assert field(runs[0].out, "matches") == str(total)
