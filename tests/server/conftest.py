"""The MCP server's tests need the `mcp` extra (`pip install -e '.[test,mcp]'`, as nox does)."""

import shutil
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the mcp extra; install .[test,mcp]")

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A fresh copy of fixtures/corpus, outside any git repository."""
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root, symlinks=True)
    return root
