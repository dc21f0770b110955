"""Issue 32, item 8: ordinary conditions get their documented exit and one line (or an
answer), never exit 70 or a traceback."""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from asrch.engine.searcher import RipgrepSearcher
from asrch.server.roots import Roots
from tests.support.cli import run_asrch

ASRCH = [sys.executable, "-m", "asrch"]
CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the spec's corpus, outside any git repository."""
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    return copy


@pytest.mark.parametrize(
    "args",
    [
        ["scout", "connect", "--glob", "*.py", "{root}"],
        ["scout", "connect", "--type", "py", "{root}"],
        ["survey", "--term", "connect", "--glob", "src/**", "{root}"],
        ["sample", "connect", "{root}/src/net/pool.py", "--type", "py"],
    ],
    ids=["scout-glob", "scout-type", "survey-glob", "sample-type"],
)
def test_a_deleted_working_directory_with_filters_still_answers(
    corpus: Path, tmp_path: Path, args: list[str]
) -> None:
    """rg in a deleted working directory searches an absolute path, its globs matched
    whole; so does asrch (it exited 70 on FileNotFoundError)."""
    argv = [a.replace("{root}", str(corpus)) for a in args]
    gone = tmp_path / "gone"
    gone.mkdir()
    script = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    done = subprocess.run(
        ["sh", "-c", script, "sh", str(gone), *ASRCH, *argv],
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    # The same answer as from a directory that exists, outside the tree.
    elsewhere = run_asrch(argv, cwd=tmp_path)
    assert done.stdout == elsewhere.stdout


_FLIPPING = """
import os, sys
flip, target, stop = sys.argv[1:]
while not os.path.exists(stop):
    for make in (lambda: os.symlink(target, flip), lambda: open(flip, "w").close()):
        try:
            make()
            os.unlink(flip)
        except OSError:
            pass
"""


def test_a_path_that_changes_kind_while_it_is_resolved_is_no_internal_error(
    tmp_path: Path,
) -> None:
    """`os.path.realpath` meets `flip` as a symlink, then reads it as a file (EINVAL), or
    finds it gone (ENOENT): another process flips it as fast as it can while the
    searcher resolves it (the old code raised on some of these calls)."""
    (tmp_path / "target").mkdir()
    stop = tmp_path / "stop"
    flipper = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _FLIPPING,
            str(tmp_path / "flip"),
            str(tmp_path / "target"),
            str(stop),
        ]
    )
    searcher = RipgrepSearcher(cwd=str(tmp_path))
    roots = Roots.of([str(tmp_path)])
    try:
        resolved = {searcher.resolve("flip/x") for _ in range(10000)}
        confined = {roots.confine("flip/x") for _ in range(10000)}  # the server's check
    finally:
        stop.touch()
        flipper.wait(timeout=30)
    assert resolved <= {str(tmp_path / "flip" / "x"), str(tmp_path / "target" / "x")}
    assert confined <= {"flip/x", "target/x"}


# A signal at start-up, while `asrch.cli` is being imported (≈40-60 ms in): the import
# hook below sends it exactly then, so no timing is guessed.
_SIGNAL_DURING_IMPORT = """
import os, signal, sys
class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == "asrch.cli":
            os.kill(os.getpid(), getattr(signal, sys.argv[1]))
        return None
sys.meta_path.insert(0, SignalOnImport())
from asrch.entry import main
raise SystemExit(main(["scout", "connect"]))
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1"])
def test_a_signal_during_start_up_is_exit_130_without_a_traceback(corpus: Path, name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SIGNAL_DURING_IMPORT, name],
        cwd=corpus,
        capture_output=True,
        check=False,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert done.stdout == b""
    assert signal.Signals[name]  # a signal this platform has
