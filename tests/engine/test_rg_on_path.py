"""The rg on PATH is the one `shutil.which` would find (D10), without importing shutil."""

import os
import shutil
from pathlib import Path

from asrch.engine.binary import _on_path


def _tool(path: Path, *, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(mode)


def test_the_first_executable_file_on_path_is_found_as_which_finds_it(tmp_path: Path) -> None:
    _tool(tmp_path / "plain" / "rg", mode=0o644)  # not executable
    (tmp_path / "dir" / "rg").mkdir(parents=True)  # a directory named rg
    _tool(tmp_path / "first" / "rg", mode=0o755)
    _tool(tmp_path / "second" / "rg", mode=0o755)
    dirs = [tmp_path / d for d in ("missing", "plain", "dir", "first", "second")]
    search_path = os.pathsep.join(map(str, dirs))
    assert _on_path("rg", search_path) == str(tmp_path / "first" / "rg")
    assert _on_path("rg", search_path) == shutil.which("rg", path=search_path)
    for nothing in (os.pathsep.join(map(str, dirs[:3])), ""):
        assert _on_path("rg", nothing) is None
        assert shutil.which("rg", path=nothing) is None
