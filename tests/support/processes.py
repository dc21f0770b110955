"""Whether a process still runs, for the tests that a child never outlives asrch."""

from pathlib import Path


def alive(pid: int) -> bool:
    """Running (a zombie is dead: its parent may be gone and init slow to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
