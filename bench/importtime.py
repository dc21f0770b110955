"""Where `asrch scout` spends its start-up: `python -X importtime`, biggest first."""

import subprocess
import sys
import tempfile
from pathlib import Path

from bench.run import with_bytecode


def main(top: int = 15) -> None:
    # Without bytecode the import times would be the compiler's (docs/performance.md).
    print(with_bytecode(None))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "a.txt").write_text("connect\n")
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "asrch", "scout", "connect", tmp],
            capture_output=True,
            text=True,
            check=True,
        )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        self_us, cumulative_us, name = (
            part.strip() for part in line.removeprefix("import time:").split("|")
        )
        rows.append((int(cumulative_us), int(self_us), name))
    total = max(rows)[0]
    print(f"import time of asrch scout: {total / 1000:.1f} ms cumulative")
    print(f"{'cumulative ms':>14} {'self ms':>8}  module")
    for cumulative, own, name in sorted(rows, reverse=True)[:top]:
        print(f"{cumulative / 1000:14.1f} {own / 1000:8.1f}  {name}")


if __name__ == "__main__":
    main()
