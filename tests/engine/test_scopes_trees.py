"""D31/D48 on whole trees (issue 31): the share of code lines inside a function whose
scope lines include that function (target: at least 98 %), and none that name a function
not enclosing them, against oracles apart from tree-sitter (Universal Ctags for C and
C++, the small Rust lexer of tests/support/scope_oracles.py).

Every run reads trees written at test time (tests/support/source_trees.py: the shapes
issue 31 met, in files of our own). An environment variable names a real checkout
instead, to measure it by hand (issue 31's figures; never committed, never needed):

- `ASRCH_GIT_TREE`: git's `builtin/` (C), git/git at
  1a3e64c6c4a623626ff0687008732a8e007e2a1c;
- `ASRCH_TOKIO_TREE`: tokio's `tokio/src/runtime/` (Rust), tokio-rs/tokio at
  ea91b33ca57ff0581b38e735cc108f831bccbdaa;
- `ASRCH_LNAV_TREE`: lnav's `src/` without `third-party/` (C++), tstack/lnav at
  bb0005f96c8dc486ee0b9005a4562be0ef61c878.

For instance: `git --git-dir=GIT_DIR archive COMMIT builtin | tar -x -C /tmp/git` then
`ASRCH_GIT_TREE=/tmp/git/builtin`. Files over the 1 MB limit (D31: never parsed) are left
out of the figure.
"""

import os
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_MAX_BYTES
from asrch.engine.scopes import TreeSitterScopes
from tests.support.scope_oracles import (
    Figures,
    ctags_functions,
    ctags_or_skip,
    figures,
    rust_functions,
)
from tests.support.source_lines import file_lines
from tests.support.source_trees import write_tree


def _tree(variable: str, language: str, tmp_path: Path) -> Path:
    """The checkout `variable` names, else a tree of `language` written now."""
    given = os.environ.get(variable)
    if given:
        assert Path(given).is_dir(), f"{variable}={given} is not a directory"
        return Path(given)
    return write_tree(tmp_path / language, language, files=7)


def _files(root: Path, *patterns: str) -> list[Path]:
    return sorted(
        p
        for pattern in patterns
        for p in root.rglob(pattern)
        if p.is_file() and "third-party" not in p.parts and p.stat().st_size <= SCOPE_MAX_BYTES
    )


def _place(path: Path, numbers: list[int]) -> dict[int, list[int] | None]:
    found = TreeSitterScopes().of(str(path), file_lines(path, numbers)).scopes
    return {n: None if found.get(n) is None else [s.line for s in found[n] or ()] for n in numbers}


def _check(result: Figures, floor: float) -> None:
    assert not result.wrong, "\n".join(result.wrong[:20])
    assert result.lines > 5_000, result
    assert result.share >= floor, result


@pytest.mark.slow
def test_c_like_git_builtin(tmp_path: Path) -> None:
    files = _files(_tree("ASRCH_GIT_TREE", "c", tmp_path), "*.c")
    _check(figures(ctags_functions(ctags_or_skip(), "C", files), _place), 0.98)


@pytest.mark.slow
def test_rust_like_tokio_runtime(tmp_path: Path) -> None:
    files = _files(_tree("ASRCH_TOKIO_TREE", "rust", tmp_path), "*.rs")
    _check(figures({p: rust_functions(p.read_bytes()) for p in files}, _place), 0.98)


@pytest.mark.slow
def test_cpp_like_lnav_src(tmp_path: Path) -> None:
    files = _files(_tree("ASRCH_LNAV_TREE", "c++", tmp_path), "*.cc", "*.hh", "*.cpp")
    # The 98 % target (issue 31) met: 98.8 % since lines an `#if` group's error hid are
    # read in its first branches, an invented `::` (`PUGI__FN T name(`), name (`o = {}`)
    # or label's `;` moves no brace, nor does a brace in a string, an error without a
    # brace cuts no body and a clean function in a block is placed from itself down
    # (88.3 % before); the rest: a macro after a declarator (`) NOEXCEPT_MACRO(...)`)
    # leaving a stray `}`, `#if` halves inside expressions.
    _check(figures(ctags_functions(ctags_or_skip(), "C++", files), _place), 0.985)
