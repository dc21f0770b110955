"""D53: the regions of a source file that fold in `show` (a leading licence or header
comment block; an in-file test region), from the same tree-sitter parse and grammar
table as the scope lines (`engine/scopes`), not a second loading.

A clean function of (grammar, bytes, whether the path is a test file) → regions
(`regions_in`), and the `Scopes` port's adapter (`read_regions`). A parse that fails or
passes its bounds gives no region: nothing folds, no match is ever dropped.

Test regions, by what the parse says (spec/sample_show.en.md):
- Rust: a module (`mod`) under a `#[cfg(...test...)]` attribute, at the top level;
- Python, in a file that is not a test file by D35's path rules: a top-level
  `class Test...` or `def test_...` (decorators included).
Go keeps its tests in `_test.go` files, a test file by path already; in-file JS/TS test
blocks are not folded yet (no parse says so reliably without the test runner's config).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from asrch.domain.limits import SCOUT_SCOPE_MAX_BYTES
from asrch.domain.regions import Region, header_from
from asrch.domain.scout import kind_of
from asrch.engine.headers import marks_tests
from asrch.engine.scopes.parse import node_bytes, parse
from asrch.engine.scopes.source import grammar_and_source

if TYPE_CHECKING:
    from tree_sitter import Node

    from asrch.engine.scopes.grammars import Grammar

_CFG_TEST = re.compile(rb"cfg\s*\(.*\btest\b", re.DOTALL)


WHAT_MAX_CHARS = 60
"""A region's name past this is cut (`...`): a long `cfg(...)` attribute."""


def _what(text: bytes | None) -> str:
    """Source text as a one-line name: whitespace runs as one space, cut to fit."""
    words = " ".join((text or b"").decode("utf-8", "replace").split())
    return words if len(words) <= WHAT_MAX_CHARS else words[: WHAT_MAX_CHARS - 3] + "..."


def _rows(node: Node) -> tuple[int, int]:
    """The node's first and last line (1-based); a node ending at a line's start ends
    on the line before."""
    end_row, end_col = node.end_point
    last = end_row if end_col == 0 and end_row > node.start_point[0] else end_row + 1
    return node.start_point[0] + 1, last


def _header(root: Node) -> Region | None:
    """The comments before any code, from the file's first line (`header_from`)."""
    comments: list[tuple[int, int]] = []
    code: int | None = None
    for child in root.children:
        if "comment" in child.type or child.type in ("hash_bang_line", "shebang"):
            comments.append(_rows(child))
            continue
        code = child.start_point[0] + 1
        break
    return header_from(comments, code)


def _rust_tests(root: Node, data: bytes) -> list[Region]:
    out = []
    attributes: list[Node] = []
    for child in root.named_children:
        if child.type == "attribute_item":
            attributes.append(child)
            continue
        if "comment" in child.type:
            continue
        if (
            child.type == "mod_item"
            and not child.has_error
            and child.child_by_field_name("body") is not None
        ):
            cfg = next((a for a in attributes if _CFG_TEST.search(node_bytes(a, data))), None)
            named = child.child_by_field_name("name")
            if cfg is not None and named is not None:
                what = _what(node_bytes(cfg, data) + b" mod " + node_bytes(named, data))
                start = _rows(attributes[0])[0]
                out.append(Region(start, _rows(child)[1], "tests", what))
        attributes = []
    return out


def _python_tests(root: Node, data: bytes) -> list[Region]:
    out = []
    for child in root.named_children:
        definition = child
        if child.type == "decorated_definition":
            inner = child.child_by_field_name("definition")
            if inner is None:
                continue
            definition = inner
        named = definition.child_by_field_name("name")
        if named is None or child.has_error:
            continue
        name = _what(node_bytes(named, data))
        if definition.type == "class_definition" and name.startswith("Test"):
            out.append(Region(*_rows(child), "tests", f"class {name}"))
        elif definition.type == "function_definition" and name.startswith("test_"):
            out.append(Region(*_rows(child), "tests", f"def {name}"))
    return out


def regions_in(grammar: Grammar, data: bytes, *, test_file: bool) -> tuple[Region, ...]:
    """The header comment and, in a file that is not a test file, the test regions of
    `data`, in line order; none when the parse passed its bounds."""
    tree = parse(grammar, data)
    if tree is None:
        return ()
    root = tree.root_node
    found: list[Region] = []
    header = _header(root)
    if header is not None:
        found.append(header)
    if not test_file:
        if grammar.module == "tree_sitter_rust":
            found += _rust_tests(root, data)
        elif grammar.module == "tree_sitter_python":
            found += _python_tests(root, data)
    return tuple(sorted(found))


def read_regions(path: str, file: str) -> tuple[Region, ...]:
    """The `Scopes` port's `regions` for one file opened at `path`: none when it has no
    grammar or cannot be read."""
    source = grammar_and_source(path, file)
    if isinstance(source, str):
        return ()
    grammar, data = source
    return regions_in(grammar, data, test_file=kind_of(file) == "test")


def read_tests(path: str, file: str) -> tuple[Region, ...]:
    """D53 in scout: the in-file test regions of `file` (opened at `path`), parsed only
    when its text holds a test marker (`engine/headers.marks_tests`); none for a test
    file by its path, a file with no grammar, one that cannot be read or one larger than
    `SCOUT_SCOPE_MAX_BYTES` (scout parses no larger file, issue 39)."""
    if kind_of(file) == "test":
        return ()
    source = grammar_and_source(path, file, SCOUT_SCOPE_MAX_BYTES)
    if isinstance(source, str) or not marks_tests(source[1], source[0].module):
        return ()
    grammar, data = source
    return tuple(r for r in regions_in(grammar, data, test_file=False) if r.kind == "tests")
