"""The bench times the asrch it runs with its bytecode written, as an installed wheel
has it: without, under `PYTHONDONTWRITEBYTECODE=1`, each run compiled asrch again (the
start-up figure was +52 ms of compiling, docs/performance.md, *Start-up again*)."""

import importlib.util
from pathlib import Path

from bench.run import with_bytecode

import asrch


def _checkout(root: Path, source: str) -> Path:
    package = root / "src" / "asrch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text(source)
    return package


def test_the_measured_checkout_gets_its_bytecode(tmp_path: Path) -> None:
    package = _checkout(tmp_path, "VALUE = 1\n")
    said = with_bytecode(tmp_path)
    assert said == f"bytecode: {package} (up to date)"
    for name in ("__init__.py", "mod.py"):
        assert Path(importlib.util.cache_from_source(str(package / name))).is_file()


def test_bytecode_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    package = _checkout(tmp_path, "def (:\n")
    assert with_bytecode(tmp_path) == f"bytecode: {package} (NOT written: runs compile)"


def test_without_a_checkout_the_installed_asrch_is_compiled() -> None:
    assert with_bytecode(None) == f"bytecode: {Path(asrch.__file__).parent} (up to date)"
