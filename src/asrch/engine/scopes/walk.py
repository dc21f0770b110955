"""The walk from a tree's root down to a byte: the definitions around it, outermost first,
or uncertain (the verdicts on the errors it meets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from asrch.engine.scopes.grammars import ASSIGNMENTS, C_TYPES
from asrch.engine.scopes.item_macros import MACRO_DEPTH

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tree_sitter import Node

    from asrch.engine.scopes.grammars import Grammar
    from asrch.engine.scopes.parse import Budget
    from asrch.engine.scopes.verdicts import Up, Verdicts


def header_row(node: Node) -> int:
    """The row that names a definition: `static int` / `main(void)` names it on the second."""
    return int((_name_node(node) or node).start_point[0])


def _name_node(node: Node) -> Node | None:
    """The node that names a definition, if the grammar gives one."""
    named = node.child_by_field_name("name")
    if named is None and node.type in ("function_definition", "declaration"):
        # C and C++ name a function or a table by its declarator, not by a `name`; the
        # name is the innermost one (`*\nname(void)` puts a pointer's `*` on the line before).
        named = node.child_by_field_name("declarator")
        while named is not None and (inner := _declarator(named)):
            named = inner
    return named


def name_span(node: Node, line_start: int, line_end: int) -> tuple[int, int] | None:
    """Where a definition's name stands in its header line (D55), if it does."""
    named = _name_node(node)
    if named is None or named.start_byte < line_start or named.end_byte > line_end:
        return None
    return int(named.start_byte) - line_start, int(named.end_byte) - line_start


def _declarator(node: Node) -> Node | None:
    """The declarator inside `node`: its `declarator` field, or for a C++ reference
    (`const T&` on the line before, `name()` on its own), its last named child."""
    inner = node.child_by_field_name("declarator")
    if inner is None and node.type == "reference_declarator" and node.named_child_count:
        inner = node.named_child(node.named_child_count - 1)
    return inner


def last_leaf_missing(node: Node, budget: Budget) -> bool:
    while node.child_count:
        budget.spend()
        last = node.child(node.child_count - 1)
        if last is None:
            return False
        node = last
    return bool(node.is_missing)


class Walk(NamedTuple):
    definitions: list[Node]
    """The definitions around the target, outermost first (each one is on `path`)."""
    uncertain: bool
    path: Sequence[Node] = ()
    """The nodes from the top down to the target: in each tree, from its root's child (an
    item macro's body is a tree of its own, `item_macros.py`). What `Node.parent` would
    say, without asking tree-sitter (`verdicts.Up`)."""
    tops: frozenset[int] = frozenset({0})
    """The indexes in `path` of the nodes right below a tree's root."""

    def parent(self, node: Node) -> Node | None:
        """`node`'s parent on the path (None: a tree's root, or off the path)."""
        for index in range(len(self.path) - 1, -1, -1):
            if self.path[index].id == node.id:
                return None if index in self.tops else self.path[index - 1]
        return None

    def ancestors(self, node: Node) -> list[Node]:
        """`node` and the nodes above it in its tree, innermost first (its root left out)."""
        for index in range(len(self.path) - 1, -1, -1):
            if self.path[index].id == node.id:
                top = max(t for t in self.tops if t <= index)
                return list(self.path[top : index + 1])[::-1]
        return []


def path_to(root: Node, target: int, budget: Budget) -> list[Node]:
    """The nodes from the root's child down to the deepest one holding byte `target`
    (tree-sitter's cursor finds each level's child, in C)."""
    path: list[Node] = []
    cursor = root.walk()
    while cursor.goto_first_child_for_byte(target) is not None:
        budget.spend()
        node = cursor.node
        if node is None or node.start_byte > target:
            break  # between 2 children: in their parent's own text
        path.append(node)
    return path


def placed(root: Node, target: int, grammar: Grammar, verdicts: Verdicts) -> Walk:
    """`_walk`, and where it is uncertain in C++, the walk from the deepest function on the
    path that sits right in a block (`_misread_around`)."""
    walk = _walk(root, target, grammar, verdicts)
    if not walk.uncertain or not grammar.misread_around:
        return walk
    path = path_to(root, target, verdicts.budget)
    lineage = [None, root, *path]  # path[index]'s grandparent is lineage[index]
    inner = next(
        (
            index
            for index in range(len(path) - 1, -1, -1)
            if (node := path[index]).type == "function_definition"
            and (parent := lineage[index + 1]) is not None
            and parent.type == "compound_statement"
            and node.child_by_field_name("type") is not None
            and _clean_function(node, verdicts, (lineage[index], parent))
        ),
        None,
    )
    if inner is None:
        return walk
    up = (lineage[inner], lineage[inner + 1])
    rest = _walk(path[inner], target, grammar, verdicts, up=up, top=False)
    if rest.uncertain:
        return walk
    return Walk(
        [path[inner], *rest.definitions],
        uncertain=False,
        path=[*path[: inner + 1], *rest.path],
        tops=frozenset({0} | {inner + 1 + top for top in rest.tops if top}),
    )


def _walk(
    root: Node,
    target: int,
    grammar: Grammar,
    verdicts: Verdicts,
    depth: int = 0,
    *,
    up: Up = (None, None),
    top: bool = True,
) -> Walk:
    """The definition nodes on the path from `root` to byte `target`, outermost first
    (`up`: `root`'s grandparent and parent).

    An error met before the path inside a definition needs no look of its own: it lies
    before the target in that definition, which `first_error` already refused."""
    definitions: list[Node] = []
    container = root
    # Inside an ERROR node, waiting for an error-free function (`functions_are_outermost`).
    lost = False
    if root.is_error:  # the whole file is one: its first node may be no real one
        if not grammar.functions_are_outermost:
            return Walk([], uncertain=True)
        lost = True
    # Past an error at a level where nothing encloses the target yet: "the top level" is
    # a guess there (recovery may have cut a header off its block: `int f(int a X) {`).
    astray = False
    path = path_to(root, target, verdicts.budget)
    lineage = [*up, root, *path]  # path[index]'s grandparent is lineage[index + 1]
    for index, child in enumerate(path):
        node, container = container, child  # `node` holds `child`
        above: Up = (lineage[index + 1], node)  # `child`'s grandparent and parent
        if not definitions and not astray:
            broken_at = verdicts.erred_before(node, above[0])
            astray = broken_at is not None and broken_at < child.start_byte
        if (child.is_error or child.is_missing) and verdicts.harmless(child, above):
            continue
        if child.is_missing or (child.is_error and not grammar.functions_are_outermost):
            return Walk([], uncertain=True)
        if child.is_error:
            definitions, lost = [], True
            continue
        if (
            child.type == "macro_invocation"
            and node.type in grammar.item_macros
            and depth < MACRO_DEPTH
            and verdicts.in_unread_item(child, target)
        ):
            return Walk([], uncertain=True)
        if (
            child.type == "macro_invocation"
            and node.type in grammar.item_macros
            and depth < MACRO_DEPTH
            and (items := verdicts.items(child, target)) is not None
        ):
            inner = _walk(items, target, grammar, verdicts, depth + 1)
            below = index + 1  # where the macro's own tree starts on the path
            return Walk(
                definitions + inner.definitions,
                uncertain=lost or inner.uncertain,
                path=[*path[:below], *inner.path],
                tops=frozenset({0} | {below + top for top in inner.tops}),
            )
        if lost:
            if _clean_function(child, verdicts, above):
                if _differs(child, target, verdicts):
                    return Walk([], uncertain=True)
                definitions.append(child)
                lost = False
            continue
        if _is_definition(child, node, grammar, top=top):
            # An error in the definition before the target may be a header that should
            # enclose it, or where its body really ended (an unclosed body swallows what
            # follows); one after it changes nothing before it.
            strict = last_leaf_missing(child, verdicts.budget)
            first_error = verdicts.first_error(child, above, strict=strict)
            if (first_error is not None and first_error <= target) or (
                verdicts.broken(node, above[0])
                and (first_error is not None or child.type in grammar.top_level)
            ):
                return Walk([], uncertain=True)
            if _differs(child, target, verdicts):
                return Walk([], uncertain=True)
            definitions.append(child)
        top = top and child.type in grammar.transparent
    return Walk(definitions, uncertain=lost or (astray and not definitions), path=path)


def _differs(definition: Node, target: int, verdicts: Verdicts) -> bool:
    """An `#if` group before `target` gives `definition` a different header, end or braces
    in another configuration (D48: where branches open different definitions, which one
    encloses the line is unknown). A group after the target changes nothing before it."""
    at = verdicts.astride(definition)
    return at is not None and at <= target


def _clean_function(node: Node, verdicts: Verdicts, up: Up) -> bool:
    """A C function that parsed without any error: a declarator with a parameter list (not
    a macro's `FOREACH(x) {`), the body closed by a real brace (`up`: its grandparent and
    parent)."""
    if (
        node.type != "function_definition"
        or verdicts.erred(node, up)
        or last_leaf_missing(node, verdicts.budget)
    ):
        return False
    declarator = node.child_by_field_name("declarator")
    while declarator is not None:
        if declarator.type == "function_declarator":
            return True
        declarator = declarator.child_by_field_name("declarator")
    return False


def _is_definition(node: Node, parent: Node, grammar: Grammar, *, top: bool) -> bool:
    node_type = node.type
    if node_type in grammar.definitions:
        if node_type == "function_definition" and parent.type in grammar.functions_not_in:
            return False
        if node_type in C_TYPES:
            return node.child_by_field_name("body") is not None
        return True
    if top and node_type in grammar.top_level and node.end_point[0] > node.start_point[0]:
        if node_type == "expression_statement":
            first = node.named_child(0) if node.named_child_count else None
            return first is not None and first.type in ASSIGNMENTS
        return True
    return False
