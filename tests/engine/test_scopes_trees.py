"""D31/D48 on 3 real trees (issue 31): the share of code lines inside a function whose
scope lines include that function (target: at least 98 %), and none that name a function
not enclosing them. Slow; each tree is fetched by hand, never committed, and named by an
environment variable (skipped with the reason when absent):

- `ASRCH_GIT_TREE`: git's `builtin/` (C; oracle Universal Ctags), git/git at
  1a3e64c6c4a623626ff0687008732a8e007e2a1c;
- `ASRCH_TOKIO_TREE`: tokio's `tokio/src/runtime/` (Rust; oracle the small lexer of
  tests/support/scope_oracles.py), tokio-rs/tokio at
  ea91b33ca57ff0581b38e735cc108f831bccbdaa;
- `ASRCH_LNAV_TREE`: lnav's `src/` without `third-party/` (C++; oracle Universal Ctags),
  tstack/lnav at bb0005f96c8dc486ee0b9005a4562be0ef61c878.

For instance: `git --git-dir=GIT_DIR archive COMMIT builtin | tar -x -C /tmp/git` then
`ASRCH_GIT_TREE=/tmp/git/builtin`. Files over the 1 MB limit (D31: never parsed) are left
out of the figure.
"""

import os
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_MAX_BYTES
from asrch.engine.scopes import TreeSitterScopes
from tests.support.scope_oracles import Figures, ctags, ctags_functions, figures, rust_functions
from tests.support.source_lines import file_lines


def _tree(variable: str) -> Path:
    given = os.environ.get(variable)
    if not given or not Path(given).is_dir():
        pytest.skip(f"{variable} is not set to a checkout (see this module's docstring)")
    return Path(given)


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


def _ctags_or_skip() -> str:
    program = ctags()
    if program is None:
        pytest.skip("Universal Ctags is not installed (Debian package universal-ctags)")
    return program


@pytest.mark.slow
def test_git_builtin() -> None:
    files = _files(_tree("ASRCH_GIT_TREE"), "*.c")
    _check(figures(ctags_functions(_ctags_or_skip(), "C", files), _place), 0.98)


@pytest.mark.slow
def test_tokio_runtime() -> None:
    files = _files(_tree("ASRCH_TOKIO_TREE"), "*.rs")
    _check(figures({p: rust_functions(p.read_bytes()) for p in files}, _place), 0.98)


@pytest.mark.slow
def test_lnav_src() -> None:
    files = _files(_tree("ASRCH_LNAV_TREE"), "*.cc", "*.hh", "*.cpp")
    # The 98 % target (issue 31) met: 98.8 % since lines an `#if` group's error hid are
    # read in its first branches, an invented `::` (`PUGI__FN T name(`), name (`o = {}`)
    # or label's `;` moves no brace, nor does a brace in a string, an error without a
    # brace cuts no body and a clean function in a block is placed from itself down
    # (88.3 % before); the rest: a macro after a declarator (`) NOEXCEPT_MACRO(...)`)
    # leaving a stray `}`, `#if` halves inside expressions.
    _check(figures(ctags_functions(_ctags_or_skip(), "C++", files), _place), 0.985)
