"""D50: the README's test command is what CI runs, a run that was to hold a tier fails
when that tier ran no test, and what other interpreters run names tests that exist."""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _commands(text: str) -> list[str]:
    return [line for line in text.splitlines() if ".nox-venv/bin/nox" in line]


def test_ci_runs_the_readme_s_test_command() -> None:
    readme = _commands((ROOT / "README.md").read_text(encoding="utf-8"))
    ci = _commands((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert len(readme) == 1, readme
    assert ci == readme


def test_a_tier_that_ran_no_test_fails_the_run() -> None:
    """Through xdist, as nox runs it: the workers' reports are counted in the controller."""
    done = subprocess.run(
        [
            sys.executable,
            *("-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider"),
            *("--tiers", "default,slow", "tests/domain/test_query.py"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed, done.stdout + done.stderr
    assert done.returncode == 1, done.stdout
    said = f"D50: no test of the slow tier ran (tests run per tier: default {passed[1]}, slow 0)"
    assert said in done.stdout


def _compatibility() -> list[str]:
    """noxfile.py's `COMPATIBILITY`, read as text (nox is not a test dependency)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPATIBILITY" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return [str(entry) for entry in value]
    raise AssertionError("noxfile.py defines no COMPATIBILITY")


def test_what_other_interpreters_run_names_tests_that_exist() -> None:
    """A test file renamed or a test gone fails here, not first in CI's `tests-on-3.X`."""
    entries = _compatibility()
    assert len(entries) == len(set(entries)), entries
    for entry in entries:
        path, _, test = entry.partition("::")
        assert (ROOT / path).exists(), f"{entry}: no such test file or folder"
        if test:
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(test)}\(", source, re.M), f"{entry}: no such test"
