"""D31 for C against an independent oracle: Universal Ctags (`--fields=+ne` gives each
function's, struct's, union's and enum's first and last line) on a real C tree.

Slow, and skipped where Universal Ctags is not installed (Debian: `universal-ctags`);
CI does not install system packages. The tree is `ASRCH_C_TREE` (for instance a
checkout of curl), else /usr/src and /usr/share; only its `.c` files are compared (a `.h`
may be C++, which ctags' C parser misreads: namespaces and classes are not C).

For every code line inside a function ctags found, the adapter either declines (no
scope: tree-sitter's recovery made it uncertain), or its scope is ctags' chain, or that
chain plus a struct/union/enum declared inside the function (which ctags leaves out).
It never claims another function.
"""

import collections
import json
import os
import subprocess
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_DEPTH
from asrch.engine.scopes import TreeSitterScopes
from tests.support.scope_oracles import ctags_or_skip
from tests.support.source_lines import file_lines


def _spans(ctags: str, files: list[Path]) -> dict[str, list[tuple[int, int, str]]]:
    options = ["--languages=C", "--kinds-C=fsug", "--output-format=json", "--fields=+ne"]
    done = subprocess.run(
        [ctags, *options, "-f", "-", *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    spans: dict[str, list[tuple[int, int, str]]] = collections.defaultdict(list)
    for line in done.stdout.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag" and "end" in tag:
            spans[tag["path"]].append((tag["line"], tag["end"], tag["kind"]))
    return spans


def _code_lines(source: bytes) -> list[int]:
    comment = (b"#", b"/*", b"*", b"//")
    lines = source.split(b"\n")
    return [n for n, ln in enumerate(lines, 1) if ln.strip() and not ln.strip().startswith(comment)]


@pytest.mark.slow
def test_c_scopes_agree_with_universal_ctags() -> None:
    ctags = ctags_or_skip()
    given = os.environ.get("ASRCH_C_TREE")
    trees = [Path(given)] if given else [Path("/usr/src"), Path("/usr/share")]
    files = sorted(p for tree in trees for p in tree.rglob("*.c") if p.is_file())
    if not files:
        pytest.skip(f"no .c files under {' '.join(map(str, trees))}; set ASRCH_C_TREE")
    spans = _spans(ctags, files)
    tally: collections.Counter[str] = collections.Counter()
    for path in files:
        source = path.read_bytes()
        lines = _code_lines(source)
        found = TreeSitterScopes().of(str(path), file_lines(path, lines)).scopes
        for n in lines:
            around = [(s, e, k) for s, e, k in spans.get(str(path), []) if s < n <= e]
            if not any(k == "function" for _, _, k in around):
                continue
            expected = sorted(s for s, _, _ in around)[-SCOPE_DEPTH:]
            scope = found.get(n)
            if scope is None:
                tally["declined"] += 1
                continue
            got = [s.line for s in scope]
            if got == expected:
                tally["same"] += 1
            elif not got:
                tally["none"] += 1
            else:
                # Only a local type ctags leaves out may be added, inside the function.
                function = next(s for s, _, k in around if k == "function")
                extra = [g for g in got if g not in expected]
                assert got[0] == function or function not in got[: len(got) - len(extra)], (
                    f"{path}:{n}: scope {got}, ctags says {expected}"
                )
                assert all(function < g < n for g in extra), (
                    f"{path}:{n}: scope {got}, ctags says {expected}"
                )
                tally["local type"] += 1
    compared = sum(tally.values())
    if compared < 1_000:
        pytest.skip(f"only {compared} lines in C functions under {' '.join(map(str, trees))}")
    # Declining is allowed (macros, K&R definitions and `#ifdef` halves of a body make
    # tree-sitter recover), but most lines must get their scope: curl's lib/ 88%.
    assert tally["same"] + tally["local type"] >= compared * 0.6, tally
