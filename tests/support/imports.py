"""The modules a command line imports, as `python -X importtime` lists them: what the
start-up tests hold (no pydantic on the command line, no tree-sitter for counts)."""

import subprocess
import sys
from pathlib import Path


def imported_modules(cwd: Path, *args: str, statuses: tuple[int, ...] = (0,)) -> set[str]:
    """Every module `python -m asrch ARGS` imports, run in a fresh interpreter in `cwd`;
    its exit status must be one of `statuses`."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "asrch", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode in statuses, done.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "cumulative" not in line
    }
