"""The error verdicts: which error nodes and invented tokens move a brace, and where the
first one in a node is, kept per node for the file's other lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from asrch.domain.limits import SCOPE_NODE_VISITS
from asrch.engine.scopes.grammars import C_PREPROC
from asrch.engine.scopes.item_macros import MacroItems, macro_items
from asrch.engine.scopes.parse import Budget, node_bytes
from asrch.engine.scopes.preprocessor import Groups, astride, read_groups

if TYPE_CHECKING:
    from tree_sitter import Node

    from asrch.engine.scopes.grammars import Grammar

Up = tuple["Node | None", "Node | None"]
"""A node's grandparent and parent (None: none, or not known), as the walk down met them.
Never `Node.parent` or a sibling: tree-sitter finds those by descending from the root again,
recursively through hidden nodes, which overflows the C stack on a tree 10,000 `#if`
blocks deep (issue 39, item 1), and costs the depth at every call."""


def _moves_no_brace(node: Node, up: Up) -> bool:
    """The `;` tree-sitter invents after a call that opens a block: C's loop macros
    (`jv_array_foreach(a, i, x) {`), or the `::` it invents between 2 names in a C++
    declarator, after a macro before the return type (`PUGI__FN xpath_string
    string_value(...)` read as `xpath_string::string_value`), or the `;` it invents
    after a label a directive follows (re2c's `loop:` then `#line 74`, then the block), or
    a name (C++'s `f(options opts = {})`: a type before the `{}`). Which brace closes
    which is untouched by any."""
    if node.type in _NAMES:
        return True
    label, statement = up
    if node.type == "::":
        return statement is not None and statement.type == "qualified_identifier"
    if node.type != ";" or statement is None or statement.type != "expression_statement":
        return False
    if statement.named_child_count == 0:
        return label is not None and label.type == "labeled_statement"
    if statement.named_child_count != 1:
        return False
    call = statement.named_child(0)  # (an index past the end raises, not None)
    after = None if label is None else _next_sibling(statement, label)
    return (
        call is not None
        and call.type == "call_expression"
        and after is not None
        and (after.type in _STATEMENTS or after.type.endswith("_statement"))
    )


def _next_sibling(node: Node, parent: Node) -> Node | None:
    """The node after `node` among `parent`'s children, by a cursor from `parent`."""
    cursor = parent.walk()
    if cursor.goto_first_child_for_byte(node.start_byte) is None:
        return None
    while cursor.node is not None and cursor.node.id != node.id:
        if not cursor.goto_next_sibling():
            return None
    return cursor.node if cursor.goto_next_sibling() else None


_NAMES = frozenset({"identifier", "type_identifier", "field_identifier", "namespace_identifier"})
"""Tokens tree-sitter may invent that are names: no brace, no end of a statement."""
_STATEMENTS = frozenset({"compound_statement", "declaration"})
"""What may follow a loop macro's call as its body: a block, or one statement
(`for_each_string_list_item(item, list)` then `free(item);` on the next line)."""
_BLOCKS = frozenset(
    {
        "translation_unit",
        "compound_statement",
        "field_declaration_list",
        "declaration_list",
        "enumerator_list",
        "linkage_specification",
        "template_declaration",
        # TypeScript's
        "program",
        "statement_block",
        "class_body",
        "interface_body",
        "enum_body",
        "object_type",
        "switch_body",
        "switch_case",
        "switch_default",
    }
    | C_PREPROC
)
"""Where C, C++ and TypeScript list statements, members or definitions: an error there may
be a header cut off its block."""


def _annotation(node: Node, parent: Node | None, data: bytes) -> bool:
    """An ERROR inside a statement, a header, a parameter or an argument list that holds no
    brace: a macro the grammar did not expect (`struct repository *repo UNUSED)`, `static
    void NORETURN f(void)`, `"%" PRId64`, `list_first_entry(&h, struct x, list)`), a fold
    expression C++17 wrote and the grammar cannot read. Every brace of the file is then a
    real token outside it: which block holds which is as parsed (`Grammar.annotations`).
    A brace in a string is none (`FMT_STRING(ANSI_BOLD("{}") " -- {}" MSG)`): in a short
    error, only brace tokens count."""
    if parent is None or parent.type in _BLOCKS or parent.is_error:
        return False
    text = node_bytes(node, data)
    if b"{" not in text and b"}" not in text:
        return True
    return len(text) <= _SHORT_ERROR and not _brace_token(node)


_SHORT_ERROR = 2_000
"""The bytes of an error whose tokens are looked at one by one (`_annotation`)."""


def _brace_token(node: Node) -> bool:
    """A `{` or `}` token in `node` (an error with no tokens in it: its text counts)."""
    stack = list(node.children)
    if not stack:
        return True
    while stack:
        below = stack.pop()
        if below.type in ("{", "}"):
            return True
        stack.extend(below.children)
    return False


class Verdicts:
    """What the walk learns about a node, kept for the file's other lines (by node id), so
    that the lines of one file cost one pass over the parts of the tree they share."""

    def __init__(self, budget: Budget, grammar: Grammar) -> None:
        self.budget = budget
        self.grammar = grammar
        self._first_error: dict[tuple[int, bool], int | None] = {}
        self._broken: dict[int, int | None] = {}
        self._cut: dict[int, bool] = {}
        self._erred_before: dict[int, int | None] = {}
        self._items: dict[int, MacroItems] = {}
        self._harmless: dict[int, bool] = {}
        self._astride: dict[int, int | None] = {}
        self._groups: Groups | None = None
        self.data = b""
        self.configurations = False
        """The file is read as written, each `#if` branch after the other (C, C++): a
        definition is certain only where every configuration has it whole (`astride`)."""

    def items(self, macro: Node, target: int) -> Node | None:
        """The part of a macro's body around `target` parsed as items (`macro_items`)."""
        key = macro.id
        if key not in self._items:
            self._items[key] = macro_items(macro, self.grammar, self.data, self.budget)
        for tree in self._items[key].trees:
            root = tree.root_node
            if root.start_byte <= target < root.end_byte:
                return root
        return None

    def in_unread_item(self, macro: Node, target: int) -> bool:
        """`target` is in a block of `macro`'s body that an item the parse could not read
        opens (`MacroItems.headed`): what encloses it is unknown."""
        self.items(macro, target)
        return any(start <= target < end for start, end in self._items[macro.id].headed)

    def astride(self, definition: Node) -> int | None:
        """Where the first `#if` group begins whose branches give `definition` a different
        header, end or braces (`preprocessor.astride`; None: none, or `configurations`
        is off, or the file's directives do not pair up)."""
        if not self.configurations:
            return None
        if self._groups is None:
            read = read_groups(self.data, self.budget) if b"#" in self.data else None
            self._groups = Groups(read or [])
        key = definition.id
        if key not in self._astride:
            groups = self._groups.overlapping(definition.start_byte, definition.end_byte)
            self.budget.spend(len(groups) + 1)
            self._astride[key] = astride(definition, groups, self.data)
        return self._astride[key]

    def first_error(self, node: Node, up: Up, *, strict: bool = False) -> int | None:
        """Where the first error in `node` that may move a brace begins (None: it has
        none): an error node, or a token tree-sitter had to invent. A loop with a cursor,
        not a recursion: 1,000 nested brackets are 2,000 levels of tree. `strict`: in a
        body tree-sitter had to close, not every brace is a real token, so an error with
        none in it may still be where the body should have ended (`END_DUMP` then `int
        f(void) {`): every error node counts. `up`: `node`'s grandparent and parent."""
        if node.is_error or node.is_missing:
            return None if self.harmless(node, up, strict=strict) else int(node.start_byte)
        if not node.has_error:
            return None
        key = (node.id, strict)
        if key in self._first_error:
            return self._first_error[key]
        found: int | None = None
        lineage = [up[1], node]  # the cursor's node's ancestors, its parent last
        cursor = node.walk()
        descend = cursor.goto_first_child()
        while descend:
            self.budget.spend()
            child = cursor.node
            assert child is not None
            if (child.is_error or child.is_missing) and not self.harmless(
                child, (lineage[-2], lineage[-1]), strict=strict
            ):
                found = int(child.start_byte)
                break
            if (
                child.has_error
                and not child.is_missing
                and not child.is_error
                and cursor.goto_first_child()
            ):
                lineage.append(child)
                continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    descend = False
                    break
                lineage.pop()
        self._first_error[key] = found
        return found

    def harmless(self, node: Node, up: Up, *, strict: bool = False) -> bool:
        """An error node or invented token that moves no brace (`up`: its grandparent and
        parent)."""
        if node.is_missing:
            return _moves_no_brace(node, up)
        if strict or not self.grammar.annotations:
            return False
        key = node.id
        if key not in self._harmless:
            self._harmless[key] = _annotation(node, up[1], self.data)
        return self._harmless[key]

    def erred(self, node: Node, up: Up) -> bool:
        return self.first_error(node, up) is not None

    def broken(self, container: Node, parent: Node | None) -> bool:
        """An ERROR node with a brace in it, or a MISSING node, among the children:
        tree-sitter's recovery may have cut a definition short here and left its tail as
        siblings (C's `#ifdef` halves of a body), whose closing brace it cannot place. An
        ERROR without a brace (a string pasted from macros, `" " ANSI_RE("(") "..."`)
        cut no body."""
        if self.broken_at(container, parent) is None:
            return False
        key = container.id
        if key not in self._cut:
            self.budget.spend(container.child_count)
            self._cut[key] = any(
                (child.is_missing or b"{" in (text := node_bytes(child, self.data)) or b"}" in text)
                and not self.harmless(child, (parent, container))
                for child in container.children
                if child.is_error or child.is_missing
            )
        return self._cut[key]

    def erred_before(self, container: Node, parent: Node | None) -> int | None:
        """Where the first child of `container` that is or holds an error begins: a body
        an error cut short (`#endif` then `else {`, read as a literal whose `}` is missing)
        leaves the rest of itself as siblings, which only look like the top level."""
        if not container.has_error:
            return None
        key = container.id
        if key not in self._erred_before:
            found = None
            for child in container.children:
                self.budget.spend()
                if child.has_error and self.first_error(child, (parent, container)) is not None:
                    found = int(child.start_byte)
                    break
            self._erred_before[key] = found
        return self._erred_before[key]

    def broken_at(self, container: Node, parent: Node | None) -> int | None:
        """Where the first ERROR or MISSING child of `container` begins (`broken`)."""
        if not container.has_error:
            return None
        key = container.id
        if key not in self._broken:
            found = None
            cursor = container.walk()
            more = cursor.goto_first_child()
            while more:
                self.budget.spend()
                child = cursor.node
                if (
                    child is not None
                    and (child.is_error or child.is_missing)
                    and not self.harmless(child, (parent, container))
                ):
                    found = int(child.start_byte)
                    break
                more = cursor.goto_next_sibling()
            self._broken[key] = found
        return self._broken[key]


def verdicts_of(grammar: Grammar, data: bytes, deadline: float) -> Verdicts:
    """The verdicts of the walk on the file as written: in C and C++, every `#if` branch
    read after the other (`Verdicts.configurations`)."""
    verdicts = Verdicts(Budget(SCOPE_NODE_VISITS, deadline), grammar)
    verdicts.data = data
    verdicts.configurations = grammar.preprocessor
    return verdicts
