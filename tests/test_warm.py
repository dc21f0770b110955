"""A run from the warm server is the run a fresh interpreter makes (tests/support/warm.py):
same stdout, stderr and exit status, byte for byte, whatever the command, its working
directory and its environment."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import warm

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"

COMMANDS: list[list[bytes]] = [
    [b"scout", b"connect", b"."],
    [b"scout", b"--format", b"json", b"connect", b"src"],
    [b"survey", b"--term", b"connect", b"--term", b"pool", b".", b"src"],
    [b"sample", b"--word", b"connect", b"src/net/pool.py", b"--clusters", b"2"],
    [b"show", b"connect", b"src/net/pool.py", b"--line", b"3"],
    [b"show", b"--format", b"json", b"e", b"src/net/pool.py"],  # refused: exit 3
    [b"show", b"--line", b"3.5", b"connect", b"src/net/pool.py"],  # exit 2
    [b"scout", b"nothing-here-\xff", b"."],  # not UTF-8: exit 2 with rg's reason
    [b"frobnicate"],  # unknown command, with the help
    [b"sample", b"--help"],
    [b"scout", b"connect", b"missing/"],
]


def _cold(argv: list[bytes], cwd: Path, env: dict[str, str]) -> warm.Done:
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"asrch", *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    return warm.Done(done.returncode, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("warm") / "corpus"
    shutil.copytree(CORPUS, root)
    return root


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: b" ".join(a).decode("latin-1"))
def test_a_warm_run_prints_what_a_fresh_process_prints(corpus: Path, argv: list[bytes]) -> None:
    env = dict(os.environ)
    assert warm.run(argv, cwd=corpus, env=env, timeout=60) == _cold(argv, corpus, env)


def test_the_environment_is_the_runs_own(corpus: Path, tmp_path: Path) -> None:
    """ASRCH_RG set for one run only: that run uses it, the next one does not."""
    fake = tmp_path / "rg"
    fake.write_text("#!/bin/sh\necho 'not json at all'\n")
    fake.chmod(0o755)
    argv = [b"scout", b"connect", b"."]
    env = {**os.environ, "ASRCH_RG": str(fake)}
    broken = warm.run(argv, cwd=corpus, env=env, timeout=60)
    assert broken == _cold(argv, corpus, env)
    assert broken.status == 4
    assert warm.run(argv, cwd=corpus, env=dict(os.environ), timeout=60).status == 0


def test_a_run_that_outlives_its_timeout_is_stopped(corpus: Path, tmp_path: Path) -> None:
    slow = tmp_path / "rg"
    slow.write_text("#!/bin/sh\nexec sleep 30\n")
    slow.chmod(0o755)
    env = {**os.environ, "ASRCH_RG": str(slow)}
    with pytest.raises(subprocess.TimeoutExpired):
        warm.run([b"scout", b"connect", b"."], cwd=corpus, env=env, timeout=1)
