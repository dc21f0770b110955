"""Issue 20, item 14: ordinary conditions are not bugs (exit 70).

A stdout that cannot be written (a full disk, a closed descriptor) is an output error:
one line on stderr, exit 74 (sysexits' EX_IOERR); a deleted working directory is the
caller's to fix: one line, exit 2. Real processes, real /dev/full.
"""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.jsonrpc import initialize

ASRCH = f"{shlex.quote(sys.executable)} -m asrch"
CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")

INITIALIZE = json.dumps(initialize(1))


def _shell(line: str, cwd: Path = CORPUS, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", line],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [
        "scout connect",
        "scout connect --format json",
        "survey --term connect --term retry",
        "sample connect src/net/pool.py",
        "show connect src/net/pool.py --line 3",
        "--help",
        "scout --help",
    ],
)
def test_a_full_disk_is_an_output_error(args: str) -> None:
    done = _shell(f"{ASRCH} {args} >/dev/full")
    assert (done.returncode, done.stderr) == (
        74,
        "error: cannot write the answer to stdout: No space left on device\n",
    )


@pytest.mark.parametrize("args", ["scout connect", "scout connect --format json", "--version"])
def test_a_closed_stdout_is_an_output_error(args: str) -> None:
    done = _shell(f"{ASRCH} {args} >&-")
    assert (done.returncode, done.stderr) == (
        74,
        "error: cannot write the answer: stdout is closed\n",
    )


def test_with_stderr_closed_too_the_status_still_says_it() -> None:
    assert _shell(f"{ASRCH} scout connect >&- 2>&-").returncode == 74


def test_the_server_with_a_closed_stdout() -> None:
    done = _shell(f"{ASRCH} mcp >&-")
    assert (done.returncode, done.stderr) == (74, "error: cannot serve: stdout is closed\n")


def test_the_server_on_a_full_disk() -> None:
    done = _shell(f"{ASRCH} mcp >/dev/full", stdin=INITIALIZE + "\n")
    assert (done.returncode, done.stderr) == (
        74,
        "error: cannot answer the client: stdout: No space left on device\n",
    )


def test_the_server_in_a_deleted_working_directory(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [
            "sh",
            "-c",
            f"cd {shlex.quote(str(gone))} && rmdir {shlex.quote(str(gone))} && exec {ASRCH} mcp",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "error: the working directory no longer exists; start asrch mcp in a directory, "
        "or give --root DIR\n",
    )
