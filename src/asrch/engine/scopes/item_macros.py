"""Rust's item macros (`cfg_fs! { fn ... }`): a macro's braced body parsed again as items,
so that its definitions enclose what they hold (`Grammar.item_macros`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from asrch.engine.scopes.parse import parse

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from asrch.engine.scopes.grammars import Grammar
    from asrch.engine.scopes.parse import Budget


def braced(tree: Node) -> bool:
    first = tree.child(0) if tree.child_count else None
    return first is not None and first.type == "{"


MACRO_DEPTH = 4
"""Item macros inside item macros (`cfg_rt! { cfg_fs! { ... } }`) followed at most."""


def macro_items(macro: Node, grammar: Grammar, data: bytes, budget: Budget) -> list[Tree]:
    """A macro's body parsed as items (`Grammar.item_macros`): its braced body, else each
    braced block directly in it (`stable: { fn ... }`), each kept only if it parses without
    any error."""
    body = macro.named_child(macro.named_child_count - 1) if macro.named_child_count else None
    trees: list[Tree] = []
    if body is not None and body.type == "token_tree" and braced(body):
        budget.spend(body.descendant_count)
        whole = _as_items(body, grammar, data, budget)
        if whole is not None:
            trees.append(whole)
        else:
            for block in body.named_children:
                if block.type == "token_tree" and braced(block):
                    part = _as_items(block, grammar, data, budget)
                    if part is not None:
                        trees.append(part)
    return trees


def _as_items(block: Node, grammar: Grammar, data: bytes, budget: Budget) -> Tree | None:
    tree = parse(grammar, data, budget.deadline, (block.start_byte + 1, block.end_byte - 1))
    return None if tree is None or tree.root_node.has_error else tree
