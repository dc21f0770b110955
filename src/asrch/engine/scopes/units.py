"""The syntactic units around a line (D51, `show --scope`), from the parse the scope lines
read: the statements, blocks and definitions that hold the line, and the docstrings and
comment blocks near it that an answer may fold.

Truth first, as for scope lines: a line the scope walk cannot place gets no unit, and a
unit whose node holds a parse error is no unit (where it ends is a guess).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from asrch.domain.limits import SCOPE_FOLD_MIN, SCOPE_NODE_VISITS, SCOPE_UNIT_MAX
from asrch.domain.units import Around, Fold, Unit, UnitKind
from asrch.engine.scopes.astray import astray_from
from asrch.engine.scopes.parse import Budget, OverBudgetError, file_deadline, parse
from asrch.engine.scopes.source import grammar_and_source, line_starts
from asrch.engine.scopes.verdicts import verdicts_of
from asrch.engine.scopes.walk import path_to, placed

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tree_sitter import Node, Tree

    from asrch.domain.lines import Unplaced
    from asrch.engine.scopes.grammars import Grammar

    Parser: TypeAlias = Callable[[Grammar, bytes, float], Tree | None]
    """How a file is parsed: `parse`, or the reader's, which keeps the tree for the scope
    lines of the same answer."""


class Units(NamedTuple):
    """One language's node types as units (D51)."""

    kinds: dict[str, UnitKind]
    """Node types and the kind of unit each is (a definition type of the scope reader's
    grammar is a `definition` besides)."""
    bodies: frozenset[str]
    """Node types whose named children are statements (a block, a module, a case body)."""
    comments: frozenset[str] = frozenset({"comment"})
    docstrings: bool = False
    """A string statement first in a body is a docstring (Python)."""


_C_LIKE_KINDS: dict[str, UnitKind] = {
    "if_statement": "if",
    "else_clause": "branch",
    "for_statement": "loop",
    "while_statement": "loop",
    "do_statement": "loop",
    "switch_statement": "match",
    "case_statement": "branch",
}
_C_BODIES = frozenset(
    {
        "translation_unit",
        "compound_statement",
        "case_statement",
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
    }
)
_JS_KINDS: dict[str, UnitKind] = {
    "if_statement": "if",
    "else_clause": "branch",
    "for_statement": "loop",
    "for_in_statement": "loop",
    "while_statement": "loop",
    "do_statement": "loop",
    "switch_statement": "match",
    "switch_case": "branch",
    "switch_default": "branch",
    "try_statement": "try",
    "catch_clause": "branch",
    "finally_clause": "branch",
    "class_static_block": "block",
}
_JS_BODIES = frozenset(
    {"program", "statement_block", "class_body", "switch_case", "switch_default"}
)

UNITS: dict[str, Units] = {
    "tree_sitter_python": Units(
        {
            "decorated_definition": "definition",
            "if_statement": "if",
            "elif_clause": "branch",
            "else_clause": "branch",
            "for_statement": "loop",
            "while_statement": "loop",
            "match_statement": "match",
            "case_clause": "branch",
            "try_statement": "try",
            "except_clause": "branch",
            "except_group_clause": "branch",
            "finally_clause": "branch",
            "with_statement": "block",
        },
        frozenset({"module", "block"}),
        docstrings=True,
    ),
    "tree_sitter_c": Units(_C_LIKE_KINDS, _C_BODIES),
    "tree_sitter_cpp": Units(
        {
            **_C_LIKE_KINDS,
            "for_range_loop": "loop",
            "try_statement": "try",
            "catch_clause": "branch",
            "template_declaration": "definition",
        },
        _C_BODIES | {"declaration_list", "field_declaration_list"},
    ),
    "tree_sitter_rust": Units(
        {
            "if_expression": "if",
            "else_clause": "branch",
            "for_expression": "loop",
            "while_expression": "loop",
            "loop_expression": "loop",
            "match_expression": "match",
            "match_arm": "branch",
            "unsafe_block": "block",
            "async_block": "block",
        },
        frozenset({"source_file", "block", "declaration_list"}),
        frozenset({"line_comment", "block_comment"}),
    ),
    "tree_sitter_go": Units(
        {
            "if_statement": "if",
            "for_statement": "loop",
            "expression_switch_statement": "match",
            "type_switch_statement": "match",
            "select_statement": "match",
            "expression_case": "branch",
            "type_case": "branch",
            "communication_case": "branch",
            "default_case": "branch",
        },
        frozenset(
            {
                "source_file",
                "statement_list",
                "expression_case",
                "type_case",
                "communication_case",
                "default_case",
            }
        ),
    ),
    "tree_sitter_javascript": Units(_JS_KINDS, _JS_BODIES),
    "tree_sitter_typescript": Units(_JS_KINDS, _JS_BODIES),
    "tree_sitter_java": Units(
        {
            "if_statement": "if",
            "for_statement": "loop",
            "enhanced_for_statement": "loop",
            "while_statement": "loop",
            "do_statement": "loop",
            "switch_expression": "match",
            "switch_block_statement_group": "branch",
            "switch_rule": "branch",
            "try_statement": "try",
            "try_with_resources_statement": "try",
            "catch_clause": "branch",
            "finally_clause": "branch",
            "synchronized_statement": "block",
            "static_initializer": "block",
        },
        frozenset(
            {
                "program",
                "block",
                "class_body",
                "interface_body",
                "enum_body_declarations",
                "constructor_body",
                "switch_block_statement_group",
            }
        ),
        frozenset({"line_comment", "block_comment"}),
    ),
    "tree_sitter_ruby": Units(
        {
            "if": "if",
            "unless": "if",
            "elsif": "branch",
            "else": "branch",
            "while": "loop",
            "until": "loop",
            "for": "loop",
            "case": "match",
            "case_match": "match",
            "when": "branch",
            "in_clause": "branch",
            "begin": "try",
            "rescue": "branch",
            "ensure": "branch",
            "do_block": "block",
            "block": "block",
        },
        frozenset({"program", "body_statement", "then", "else", "do", "block_body", "begin"}),
    ),
    "tree_sitter_bash": Units(
        {
            "if_statement": "if",
            "elif_clause": "branch",
            "else_clause": "branch",
            "for_statement": "loop",
            "c_style_for_statement": "loop",
            "while_statement": "loop",
            "case_statement": "match",
            "case_item": "branch",
        },
        frozenset(
            {
                "program",
                "compound_statement",
                "do_group",
                "if_statement",
                "elif_clause",
                "else_clause",
                "case_item",
            }
        ),
    ),
}
"""Each grammar's node types as units (D51), by the grammar wheel's module (TSX shares
TypeScript's). A node type not named here is a unit only as a statement of a body."""


def _rows(node: Node) -> tuple[int, int]:
    """The node's first and last line (0-based); a node that ends with its line's newline
    ends on that line."""
    first, (last, column) = node.start_point[0], node.end_point
    if column == 0 and last > first:
        last -= 1
    return int(first), int(last)


def _unit(node: Node, kind: UnitKind) -> Unit:
    first, last = _rows(node)
    return Unit(kind, first + 1, last + 1)


def _kind(node: Node, parent: Node, grammar: Grammar, units: Units) -> UnitKind | None:
    if node.type in grammar.definitions:
        if parent.type in grammar.functions_not_in:
            return "block"  # C: a macro followed by a block (`FOREACH(x) {`)
        return "definition"
    kind = units.kinds.get(node.type)
    if kind is not None:
        return kind
    if node.is_named and parent.type in units.bodies:
        return None if node.type in units.comments else "statement"
    return None


_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})


def _branches(units: Units) -> frozenset[str]:
    return frozenset(t for t, k in units.kinds.items() if k == "branch")


def _first_branch(node: Node, row: int, branches: frozenset[str]) -> Unit | None:
    """An if's or a try's first part, when `row` is in it: from its first line to the end
    of what comes before its first `else`/`elif`/`except` clause (no node of its own).
    Siblings by index: tree-sitter finds `prev_sibling` through the parent, O(depth)."""
    children = node.children
    for index, child in enumerate(children):
        if child.type in branches:
            # Comments after its last statement belong to what follows (`# else:` notes).
            at = index - 1
            while at >= 0 and children[at].type in _COMMENTS:
                at -= 1
            before = children[at] if at >= 0 else None
            if before is None or child.start_point[0] <= row:
                return None
            end = before  # a block without a closing token (Python's) may end in comments
            while end.child_count and (tail := end.children[-1]).type in _COMMENTS:
                code = [c for c in end.children if c.type not in _COMMENTS]
                end = code[-1] if code else tail
                if not code:
                    break
            last = _rows(end)[1]
            if row > last:
                return None
            kind: UnitKind = "branch"
            return Unit(kind, int(node.start_point[0]) + 1, last + 1)
    return None


def units_of(
    root: Node, grammar: Grammar, data: bytes, target: int, budget: Budget
) -> tuple[Unit, ...]:
    """The units that hold byte `target`, innermost first (`units_and_statements`)."""
    return units_and_statements(root, grammar, data, target, budget)[0]


def units_and_statements(
    root: Node, grammar: Grammar, data: bytes, target: int, budget: Budget
) -> tuple[tuple[Unit, ...], tuple[tuple[int, int], ...]]:
    """The units that hold byte `target`, innermost first: each node around it that the
    language's table names, or that is a statement of a body; a node that holds a parse
    error is none. Nested units with the same lines are one (the outer kind kept: an
    `if` rather than the statement that is the `if`).

    The nodes around the target are the path down from the root (`path_to`), never
    `Node.parent`: tree-sitter finds a parent by descending from the root again, so
    climbing would cost depth² (issue 39's class). Past `budget`, `OverBudgetError`.

    And, when the innermost unit is longer than `SCOPE_UNIT_MAX` lines (the target is in
    its header, or between its statements), the statements inside it that start within
    its first `SCOPE_UNIT_MAX` lines (`statements_in`): where its beginning may be cut,
    and where its body begins (issue 40); none otherwise (no walk for a line in the body)."""
    units = UNITS[grammar.module]
    branches = _branches(units)
    row = data.count(b"\n", 0, target)
    path = path_to(root, target, budget)
    found: list[Unit] = []
    long: Node | None = None
    for index in range(len(path) - 1, -1, -1):
        budget.spend()
        node, parent = path[index], path[index - 1] if index else root
        kind = _kind(node, parent, grammar, units)
        if kind is not None and not node.has_error:
            if kind in ("if", "try") and (first := _first_branch(node, row, branches)):
                found.append(first)
            unit = _unit(node, kind)
            if long is None and unit.lines > SCOPE_UNIT_MAX:
                long = node
            if found and (found[-1].start, found[-1].end) == (unit.start, unit.end):
                found[-1] = unit if found[-1].kind == "statement" else found[-1]
            else:
                found.append(unit)
    if long is None or found[0].lines <= SCOPE_UNIT_MAX:
        return tuple(found), ()  # a line in a smaller unit is in the body: no beginning
    last_row = long.start_point[0] + SCOPE_UNIT_MAX - 1
    return tuple(found), statements_in(long, units, last_row, budget)


def statements_in(
    node: Node, units: Units, last_row: int, budget: Budget
) -> tuple[tuple[int, int], ...]:
    """The statements (named children of a body, at any depth, comments not) inside
    `node` that start by `last_row` (0-based), as 1-based line ranges in line order. Only
    nodes that start by `last_row` are visited, each counted against `budget`."""
    out: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        parent = stack.pop()
        body = parent.type in units.bodies
        for child in parent.children:
            budget.spend()
            if child.start_point[0] > last_row:
                break
            if body and child.is_named and child.type not in units.comments:
                first, last = _rows(child)
                out.append((first + 1, last + 1))
            stack.append(child)
    return tuple(sorted(out))


def folds_near(
    root: Node, grammar: Grammar, data: bytes, starts: Sequence[int], row: int, *, deadline: float
) -> tuple[Fold, ...]:
    """The docstrings and blocks of comment lines within `SCOPE_UNIT_MAX` lines of `row`
    that have at least `SCOPE_FOLD_MIN` lines. A comment line is a comment that begins its
    line (after blanks); adjacent ones are one block. The walk visits only nodes that
    reach into those lines, at most `SCOPE_NODE_VISITS` until the file's `deadline`: past
    either, nothing is folded. Each node goes with its parent (no `Node.parent` asked)."""
    units = UNITS[grammar.module]
    low = starts[max(0, row - SCOPE_UNIT_MAX)]
    high_row = row + SCOPE_UNIT_MAX + 1
    high = starts[high_row] if high_row < len(starts) else len(data)
    comments: list[tuple[int, int]] = []
    docstrings: list[tuple[int, int]] = []
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    budget = Budget(SCOPE_NODE_VISITS, deadline)
    while stack:
        node, parent = stack.pop()
        try:
            budget.spend()
        except OverBudgetError:
            return ()
        if node.end_byte <= low or node.start_byte >= high:
            continue
        if node.type in units.comments:
            first, last = _rows(node)
            line_start = starts[first]
            if not data[line_start : node.start_byte].strip():
                comments.append((first, last))
            continue
        if units.docstrings and parent is not None and _docstring(node, parent):
            docstrings.append(_rows(node))
            continue
        stack.extend((child, node) for child in reversed(node.children))
    out = [Fold("docstring", a + 1, b + 1) for a, b in docstrings]
    block: list[int] | None = None
    for first, last in sorted(comments):
        if block is not None and first <= block[1] + 1:
            block[1] = max(block[1], last)
            continue
        if block is not None:
            out.append(Fold("comment", block[0] + 1, block[1] + 1))
        block = [first, last]
    if block is not None:
        out.append(Fold("comment", block[0] + 1, block[1] + 1))
    return tuple(
        f for f in sorted(out, key=lambda f: f.start) if f.end - f.start + 1 >= SCOPE_FOLD_MIN
    )


def _docstring(node: Node, body: Node) -> bool:
    """A string alone as the first statement of `body`, a module, class or function body."""
    if node.type != "expression_statement" or node.named_child_count != 1:
        return False
    only = node.named_child(0)
    if only is None or only.type not in ("string", "concatenated_string"):
        return False
    first = next((c for c in body.named_children if c.type != "comment"), None)
    return first is not None and first.id == node.id


def around_lines(
    data: bytes, grammar: Grammar, lines: Sequence[int], parsed: Parser = parse
) -> dict[int, Around | Unplaced]:
    """For each line (1-based), the units around it and the folds near it, or why none is
    given: past the end or not placed for sure by the scope walk (`uncertain`), as for
    scope lines. One parse for all the lines (`parsed`: the reader's, which keeps it)."""
    if b"\x00" in data:
        return dict.fromkeys(lines, "binary")
    starts = line_starts(data)
    deadline = file_deadline(len(lines))  # the parse and walks of this file, together
    tree = parsed(grammar, data, deadline)
    if tree is None:
        return dict.fromkeys(lines, "uncertain")
    astray = astray_from(grammar, tree, data)
    verdicts = verdicts_of(grammar, data, deadline)
    out: dict[int, Around | Unplaced] = {}
    for line in lines:
        if not 1 <= line <= len(starts):
            out[line] = "none"
            continue
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(data)
        text = data[start:end]
        stripped = text.lstrip()
        target = start + (len(text) - len(stripped) if stripped.strip() else 0)
        if start >= astray:
            out[line] = "uncertain"
            continue
        try:
            walk = placed(tree.root_node, target, grammar, verdicts)
        except OverBudgetError:
            out[line] = "uncertain"
            continue
        if walk.uncertain:
            out[line] = "uncertain"
            continue
        try:
            units, statements = units_and_statements(
                tree.root_node, grammar, data, target, verdicts.budget
            )
        except OverBudgetError:
            out[line] = "uncertain"
            continue
        folds = folds_near(tree.root_node, grammar, data, starts, line - 1, deadline=deadline)
        out[line] = Around(units, folds, statements)
    return out


def units_in(
    path: str, file: str, lines: Sequence[int], parsed: Parser = parse
) -> dict[int, Around | Unplaced] | Unplaced:
    """The `Scopes.units` of the port: `file` (opened as `path`) read as the scope reader
    reads it, or why none is given for the whole file (no grammar, too large, unreadable)."""
    source = grammar_and_source(path, file)
    if isinstance(source, str):
        return source
    grammar, data = source
    return around_lines(data, grammar, lines, parsed)
