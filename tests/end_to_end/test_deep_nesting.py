"""Blocks nested 100,000 deep (issue 39's class in D51's units and `scout --def`): each
answers in well under a second, where asking tree-sitter for parents (`show --scope`) or
a query pattern over parent and child (`scout --def`) took minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_asrch

DEPTH = 100_000


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("deep")
    nested = "{\n" * DEPTH + "int needle;\n" + "}\n" * DEPTH
    (root / "inside.c").write_text("int f(void) {\n" + nested + "}\n")
    (root / "after.c").write_text(
        "int g(void) {\n" + nested + "}\nint needle(void) { return 0; }\n"
    )
    return root


def test_show_scope_answers_on_a_line_100000_blocks_deep(tree: Path) -> None:
    line = DEPTH + 2
    done = run_asrch(["show", "inside.c", "--line", str(line), "--scope"], cwd=tree)
    assert done.status == 0, done
    out = done.stdout.decode().splitlines()
    assert f"{line}-int needle;" in out
    assert out[-1].startswith("note: ")  # past the file's bound: D46's window, and why


def test_show_scope_gives_units_on_a_line_20000_blocks_deep(tmp_path: Path) -> None:
    depth = 20_000  # within the walk's bounds: the units, by the path from the root
    (tmp_path / "k.c").write_text(
        "int f(void) {\n" + "{\n" * depth + "int needle;\n" + "}\n" * depth + "}\n"
    )
    done = run_asrch(["show", "k.c", "--line", str(depth + 2), "--scope"], cwd=tmp_path)
    assert done.status == 0, done
    assert "  unit: statement" in done.stdout.decode().splitlines()


def test_scout_def_counts_a_line_100000_blocks_deep_and_finds_the_next(tree: Path) -> None:
    done = run_asrch(["scout", "--def", "needle", "."], cwd=tree)
    assert done.status == 0, done
    out = done.stdout.decode().splitlines()
    assert f"{2 * DEPTH + 4}:int needle(void) {{ return 0; }}" in out
    assert out[-1].startswith("note: ")  # the deep line is counted, never dropped
