"""Whether a process still runs, and an rg stand-in that says when it started, for the
tests that a child never outlives asrch. Waits are for a condition, under a deadline:
never a guessed sleep."""

import os
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Running (a zombie is dead: its parent may be gone and init slow to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def sleeping_rg(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose rg records its pid, then sleeps for a minute (exec, so the
    recorded pid is the process that must die); and the file of recorded pids."""
    pids = tmp_path / "rg-pids"
    script = tmp_path / "sleeping-rg"
    script.write_text(f"#!/bin/sh\necho $$ >> {pids}\nexec sleep 60\n")
    script.chmod(0o755)
    return {**os.environ, "ASRCH_RG": str(script)}, pids


def recorded(pids: Path, at_least: int = 1, timeout: float = 20) -> list[int]:
    """The pids of the rg stand-ins started so far, once there are `at_least`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [int(p) for p in pids.read_text().split()] if pids.exists() else []
        if len(found) >= at_least:
            return found
        time.sleep(0.02)
    raise AssertionError("the rg stand-in never started")


def all_gone(pids: list[int], timeout: float = 5) -> bool:
    """Whether every one of `pids` has ended (or does within `timeout`)."""
    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
