"""An in-process run (tests/support/cli.py) is the run a fresh interpreter makes: same
stdout, stderr and exit status, byte for byte, whatever the command, its working
directory and its environment; and a run leaves nothing behind for the next one."""

import os
import shutil
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.cli import run_asrch

SIGNALS = (
    signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGALRM,
)  # fmt: skip
CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"

COMMANDS: list[list[bytes]] = [
    [b"scout", b"connect", b"."],
    [b"scout", b"--format", b"json", b"connect", b"src"],
    [b"survey", b"--term", b"connect", b"--term", b"pool", b".", b"src"],
    [b"survey", b"--format", b"json", b"--term", b"connect", b"--term", b"pool", b"src"],
    [b"sample", b"--word", b"connect", b"src/net/pool.py", b"--clusters", b"2"],
    [b"show", b"connect", b"src/net/pool.py", b"--line", b"3"],
    [b"show", b"--format", b"json", b"e", b"src/net/pool.py"],  # refused: exit 3
    [b"show", b"--line", b"3.5", b"connect", b"src/net/pool.py"],  # exit 2
    [b"scout", b"nothing-here-\xff", b"."],  # not UTF-8: exit 2 with rg's reason
    [b"scout", b"connect", b"caf\xe9/"],  # an undecodable path, named back
    [b"frobnicate"],  # unknown command, with the help
    [b"sample", b"--help"],
    [b"--version"],
    [b"scout", b"connect", b"missing/"],
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runner") / "corpus"
    shutil.copytree(CORPUS, root)
    return root


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: b" ".join(a).decode("latin-1"))
def test_an_in_process_run_prints_what_a_fresh_process_prints(
    corpus: Path, argv: list[bytes]
) -> None:
    warm = run_asrch(argv, cwd=corpus, cold=False)
    assert warm == run_asrch(argv, cwd=corpus, cold=True)


def test_the_environment_is_the_runs_own(corpus: Path, tmp_path: Path) -> None:
    """ASRCH_RG set for one run only: that run uses it, the next one does not."""
    fake = tmp_path / "rg"
    fake.write_text("#!/bin/sh\necho 'not json at all'\n")
    fake.chmod(0o755)
    argv = ["scout", "connect", "."]
    broken = run_asrch(argv, cwd=corpus, env={"ASRCH_RG": str(fake)}, cold=False)
    assert broken == run_asrch(argv, cwd=corpus, env={"ASRCH_RG": str(fake)}, cold=True)
    assert broken.status == 4
    assert "ASRCH_RG" not in os.environ
    assert run_asrch(argv, cwd=corpus, cold=False).status == 0


def test_a_run_leaves_the_process_as_it_found_it(corpus: Path) -> None:
    before = (
        os.getcwd(),
        dict(os.environ),
        list(sys.argv),
        (sys.stdin, sys.stdout, sys.stderr),
        {s: signal.getsignal(s) for s in SIGNALS},
    )
    for argv in COMMANDS:
        run_asrch(argv, cwd=corpus, env={"ASRCH_PROBE": "1"}, cold=False)
    after = (
        os.getcwd(),
        dict(os.environ),
        list(sys.argv),
        (sys.stdin, sys.stdout, sys.stderr),
        {s: signal.getsignal(s) for s in SIGNALS},
    )
    assert after == before


def test_a_run_that_outlives_its_timeout_is_stopped(corpus: Path, tmp_path: Path) -> None:
    """The run's own rg is killed and reaped, and the next run is unharmed."""
    slow = tmp_path / "rg"
    slow.write_text(f"#!/bin/sh\necho $$ > {tmp_path / 'pid'}\nexec sleep 30\n")
    slow.chmod(0o755)
    with pytest.raises(subprocess.TimeoutExpired):
        run_asrch(["scout", "connect", "."], cwd=corpus, env={"ASRCH_RG": str(slow)}, timeout=1)
    pid = int((tmp_path / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert run_asrch(["scout", "connect", "."], cwd=corpus).status == 0


def test_runs_side_by_side_on_threads_are_each_run_alone(corpus: Path) -> None:
    """`asrch.cli.main` reads and changes nothing of the process (its searcher, working
    directory and streams are the run's), so in-process runs need no lock."""
    alone = [run_asrch(argv, cwd=corpus, cold=False) for argv in COMMANDS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda argv: run_asrch(argv, cwd=corpus, cold=False), COMMANDS))
    assert together == alone
