"""Rust's item macros (`cfg_fs! { fn ... }`): a macro's braced body parsed again as items,
so that its definitions enclose what they hold (`Grammar.item_macros`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from asrch.engine.scopes.parse import node_bytes, parse

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from asrch.engine.scopes.grammars import Grammar
    from asrch.engine.scopes.parse import Budget


def braced(tree: Node) -> bool:
    first = tree.child(0) if tree.child_count else None
    return first is not None and first.type == "{"


MACRO_DEPTH = 4
"""Item macros inside item macros (`cfg_rt! { cfg_fs! { ... } }`) followed at most."""


class MacroItems(NamedTuple):
    trees: list[Tree]
    """The parts of the body read as items, each a tree of its own."""
    headed: list[tuple[int, int]]
    """Blocks that are the body of an item the parse could not read (`impl<> Waiter {`):
    what encloses their lines is unknown."""


_ITEM_KEYWORDS = frozenset(
    {b"fn", b"impl", b"trait", b"mod", b"struct", b"enum", b"union", b"macro_rules"}
)


def macro_items(macro: Node, grammar: Grammar, data: bytes, budget: Budget) -> MacroItems:
    """A macro's body parsed as items (`Grammar.item_macros`): its braced body, else each
    braced block directly in it (`stable: { fn ... }`), each kept only if it parses without
    any error. A block after an item's keyword in the body is that item's body, the item
    one the parse could not read as a whole (tokio's `impl<> Waiter {`): not read as
    items of the top level, but `headed`."""
    body = macro.named_child(macro.named_child_count - 1) if macro.named_child_count else None
    found = MacroItems([], [])
    if body is not None and body.type == "token_tree" and braced(body):
        budget.spend(body.descendant_count)
        whole = _as_items(body, grammar, data, budget)
        if whole is not None:
            found.trees.append(whole)
            return found
        headed = False
        for block in body.children:
            if block.type == "token_tree" and braced(block):
                if headed:
                    found.headed.append((block.start_byte, block.end_byte))
                elif (part := _as_items(block, grammar, data, budget)) is not None:
                    found.trees.append(part)
                headed = False
            elif block.child_count == 0 and node_bytes(block, data) in _ITEM_KEYWORDS:
                headed = True
    return found


def _as_items(block: Node, grammar: Grammar, data: bytes, budget: Budget) -> Tree | None:
    tree = parse(grammar, data, budget.deadline, (block.start_byte + 1, block.end_byte - 1))
    return None if tree is None or tree.root_node.has_error else tree
