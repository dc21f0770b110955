"""Issue 32, item 10: a listed scout, sample, show and show --line hold what can be
printed of a long line (D8), not the line: peak memory of asrch's own process (its
VmHWM; rg's buffer is rg's) on a generated 200 MB one-line file."""

import subprocess
import sys
from pathlib import Path

import pytest

_PEAK = """
import io, sys
from asrch.entry import main
out = sys.stdout
sys.stdout = io.StringIO()
status = main(sys.argv[1:])
text, sys.stdout = sys.stdout.getvalue(), out
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(status, int(hwm.split()[1]))
print(text, end="")
"""


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    with (root / "big.js").open("wb") as out:
        out.write(b"var a = 1;\n")
        out.write(b"x" * (100 << 20) + b"needle" + b"y" * (100 << 20) + b"\n")
        out.write(b"end\n")
    return root


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["scout", "needle", "big.js"],
        ["sample", "needle", "big.js"],
        ["show", "needle", "big.js"],
        ["show", "needle", "big.js", "--line", "2"],
    ],
    ids=["scout-listed", "sample", "show", "show-line"],
)
def test_a_200_mb_line_is_printed_without_being_held(big: Path, args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *args], cwd=big, capture_output=True, check=True
    )
    head, _, text = done.stdout.decode().partition("\n")
    status, peak_kib = map(int, head.split())
    assert status == 0, done.stderr
    # Before: 818 MiB for the first three, 219 MiB for show --line.
    assert peak_kib < 64 * 1024, f"{args}: {peak_kib} KiB"
    line = next(ln for ln in text.splitlines() if ln.startswith("2:"))
    assert line.startswith("2:[+104857400 bytes]…" + "x" * 100)
    assert "needle" in line and line.endswith(" bytes]")
    assert len(line.encode()) <= 800
