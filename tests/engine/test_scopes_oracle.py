"""D31 against an independent oracle: Python's own `ast` on the standard library.

For every line of many stdlib files, the adapter's scope must be the chain of `def` /
`class` (and, at the top level, assignments spanning lines) that `ast` says encloses it,
innermost 3 kept. The adapter may decline a line (no claim: never a wrong one), but only
rarely on valid code. `show --line N --format json` is checked on a sample of the same
lines, end to end. The big version runs in `slow`.
"""

import ast
import json
import os
import random
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_DEPTH, SCOPE_MAX_BYTES
from asrch.engine.scopes import TreeSitterScopes
from tests.support.cli import run_asrch
from tests.support.source_lines import file_lines

STDLIB = Path(os.__file__).parent
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _oracle(tree: ast.Module, last_line: int) -> dict[int, list[int]]:
    """line -> header lines of the definitions enclosing it, outermost first."""
    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, DEFINITIONS):
            spans.append((node.lineno, node.end_lineno or node.lineno))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and (node.end_lineno or 0) > node.lineno:
            spans.append((node.lineno, node.end_lineno or node.lineno))
    chains: dict[int, list[int]] = {n: [] for n in range(1, last_line + 1)}
    for start, end in sorted(spans):
        for n in range(start + 1, end + 1):
            if start not in chains[n]:
                chains[n].append(start)
    return {n: sorted(c)[-SCOPE_DEPTH:] for n, c in chains.items()}


def _code_lines(source: bytes) -> list[int]:
    """Lines with code on them: blank and comment-only lines are where `ast` (which ends
    a body at its last statement) and a parse tree (which may keep a trailing comment
    in the block) can disagree without either being wrong."""
    out = []
    for n, line in enumerate(source.split(b"\n"), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            out.append(n)
    return out


def _files(count: int, seed: int) -> list[Path]:
    found = sorted(
        p
        for p in STDLIB.rglob("*.py")
        if "test" not in p.parts
        and "site-packages" not in p.parts
        and p.stat().st_size <= SCOPE_MAX_BYTES
    )
    return random.Random(seed).sample(found, min(count, len(found)))


def _check(files: list[Path]) -> tuple[int, int]:
    """(lines compared, lines declined); fails on the first wrong claim."""
    compared = declined = 0
    for path in files:
        source = path.read_bytes()
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        lines = _code_lines(source)
        expected = _oracle(tree, source.count(b"\n") + 1)
        found = TreeSitterScopes().of(str(path), file_lines(path, lines)).scopes
        for n in lines:
            scope = found.get(n)
            if scope is None:
                declined += 1
                continue
            compared += 1
            got = [s.line for s in scope]
            assert got == expected[n], f"{path}:{n}: scope {got}, ast says {expected[n]}"
    return compared, declined


def test_the_adapter_agrees_with_ast_on_a_few_stdlib_files() -> None:
    compared, declined = _check(_files(12, seed=31))
    assert compared > 2_000
    assert declined <= compared // 100


SHARDS = 4
"""The whole stdlib in 4 interleaved parts, so the test workers share its ~70 s; each part
is held to the whole's rules on its own (a quarter of the lines, at most 1% declined)."""


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_the_adapter_agrees_with_ast_on_the_stdlib(shard: int) -> None:
    compared, declined = _check(_files(10_000, seed=31)[shard::SHARDS])
    assert compared > 200_000 // SHARDS
    assert declined <= compared // 100


def _show_scope(path: Path, line: int) -> list[int]:
    argv = ["show", "--format", "json", "--regex", ".", str(path), "--line", str(line)]
    # In-process (tests/support/cli.py, held to a fresh interpreter byte for byte by
    # tests/cli/test_runner.py): what is checked is the answer, not the process.
    done = run_asrch([*argv, "--context", "0"], timeout=60)
    assert done.status == 0, done
    (snippet,) = json.loads(done.out)["snippets"]
    (printed,) = snippet["lines"]
    return [s["line"] for s in printed["scope"]]


def _show_sample(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for path in _files(count, seed):
        source = path.read_bytes()
        lines = _code_lines(source)
        if not lines:
            continue
        line = rng.choice(lines)
        expected = _oracle(ast.parse(source), source.count(b"\n") + 1)[line]
        assert _show_scope(path, line) == expected, f"show --line {line} {path}"


def test_show_line_prints_the_ast_chain() -> None:
    _show_sample(4, seed=24)


@pytest.mark.slow
def test_show_line_prints_the_ast_chain_on_many_files() -> None:
    _show_sample(120, seed=24)
