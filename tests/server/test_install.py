"""D39: a real install of the checkout without the `mcp` extra, then `asrch mcp`.

The suite's own environment has the extra; hiding one module (tests/cli/
test_imports.py) cannot show what a user's install lacks. This test installs the
checkout into a scratch virtual environment exactly as a user would without the extra
(pip, from the registries), and runs the command it installed.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]


def _copy_of_checkout(to: Path) -> Path:
    """The files a build reads: pip builds a directory in place, and must not leave a
    build/ or an egg-info in the checkout under test."""
    to.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(CHECKOUT / name, to / name)
    shutil.copytree(
        CHECKOUT / "src",
        to / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    return to


@pytest.mark.slow
def test_asrch_mcp_after_an_install_without_the_extra(tmp_path: Path) -> None:
    source = _copy_of_checkout(tmp_path / "asrch checkout")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    # The extra's pieces are really absent (anyio is the first the server imports).
    for module in ("mcp", "anyio"):
        probe = subprocess.run(
            [str(python), "-c", f"import {module}"], capture_output=True, timeout=60, check=False
        )
        assert probe.returncode != 0, f"{module} is installed without the extra"

    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(venv / "bin" / "asrch"), "mcp"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
        env=environment,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "error: asrch mcp needs the mcp extra, which is not installed (no module anyio); "
        f"install it with: {python} -m pip install '{source}[mcp]'\n"
    )
    # The command it names installs the extra, and then the server starts and ends
    # when its client closes stdin.
    again = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", f"{source}[mcp]"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    served = subprocess.run(
        [str(venv / "bin" / "asrch"), "mcp"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
        env=environment,
    )
    assert (served.returncode, served.stdout, served.stderr) == (0, "", "")
