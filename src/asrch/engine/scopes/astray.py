"""Where what a parse says stops being what the language reads (a lone CR, a heredoc end
bash would not take): no line past it is placed."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from asrch.engine.scopes.grammars import BASH
from asrch.engine.scopes.parse import node_bytes

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from asrch.engine.scopes.grammars import Grammar


def astray_from(grammar: Grammar, tree: Tree, data: bytes) -> int:
    """Where what the parse says stops being what the language reads (past the end: all
    of the file is read alike). Past a lone CR, the language (Python, a C compiler) may see
    a line break where rg and tree-sitter see none; past a heredoc end bash would not
    accept, bash reads on where tree-sitter stopped."""
    astray = _lone_cr(data)
    if grammar is BASH and b"<<" in data:
        astray = min(astray, _bad_heredoc(tree.root_node, data))
    return astray


_LONE_CR = re.compile(rb"\r(?!\n)")


def _lone_cr(data: bytes) -> int:
    """Where the first CR not followed by LF is (past the end: none)."""
    found = _LONE_CR.search(data)
    return len(data) + 1 if found is None else found.start()


def _bad_heredoc(root: Node, data: bytes) -> int:
    """Where the first heredoc whose end line bash would not take as its end begins (past
    the end: none). bash ends a heredoc only at a line that is its word exactly (after
    leading tabs with `<<-`); tree-sitter also at `EOF `, ` EOF`, `EOF;`."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "heredoc_redirect":
            end = next((c for c in node.children if c.type == "heredoc_end"), None)
            if end is None:
                return int(node.start_byte)
            line_start = data.rfind(b"\n", 0, end.start_byte) + 1
            line_end = data.find(b"\n", end.end_byte)
            line = data[line_start : len(data) if line_end < 0 else line_end]
            dash = any(c.type == "<<-" for c in node.children)
            if (line.lstrip(b"\t") if dash else line) != node_bytes(end, data):
                return int(node.start_byte)
            continue
        if node.child_count and (node.end_byte - node.start_byte) > 1:
            stack.extend(reversed(node.children))
    return len(data) + 1
