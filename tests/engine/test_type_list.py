"""`asrch --type-list`: the names `--type` takes, from the rg asrch runs (issue 22).

The unknown-type hint points at it, so it must work where rg itself is not on PATH:
an install's rg sits beside its interpreter, not on the shell's PATH.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

from asrch.engine.binary import resolve_rg


def _asrch(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # PATH without any rg: asrch finds the one beside its interpreter.
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "asrch", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_type_list_is_rgs_list_and_the_hint_counts_it(tmp_path: Path) -> None:
    listed = _asrch("--type-list", cwd=tmp_path)
    assert (listed.returncode, listed.stderr) == (0, "")
    rg = subprocess.run(
        [resolve_rg(), "--no-config", "--type-list"], capture_output=True, text=True, check=True
    )
    assert listed.stdout == rg.stdout
    assert "py: *.py, *.pyi\n" in listed.stdout
    unknown = _asrch("scout", "x", "--type", "pyhton", cwd=tmp_path)
    assert unknown.returncode == 2
    hint = re.search(r"`asrch --type-list` lists all (\d+)\n$", unknown.stderr)
    assert hint is not None, unknown.stderr
    assert int(hint.group(1)) == listed.stdout.count("\n")
