"""Definition name lines (D52): which lines of a file name a definition, from the same
tree-sitter parse as the scope lines (the grammar table and the parse bounds of
`engine/scopes`, not a second loading).

A clean function of (grammar, bytes) → line kinds (`name_lines`), so that another reader of
the same question (the folding of test regions) can ask it of any file; the `Definitions`
port's adapter (`read_definitions`) adds the file's reading and the reasons a file is not
parsed.

What names a definition, per language (spec/definitions.en.md): a function or method, a
class, struct, union, enum, trait, interface, type alias, module or namespace and a macro
wherever they stand (nested ones too); a constant, static or variable only at the module
level (outside any function or class: C's file scope, a namespace, Go's package block), and
the explicit constant items of a language anywhere outside a function (Rust's `const` and
`static` in an `impl`, Java's `static` fields and interface constants, Ruby's constants in a
class body). A declaration that only declares (a C prototype, an `extern` variable, a C++
method declared in its class) names nothing: the definition is elsewhere.

Truth first, as for scope lines: a line that names no definition but lies inside an ERROR
node (or past where the parse stops reading the file as the language does) is uncertain,
never guessed to be a plain line: the answer counts it as not parsed.

The cost is the parse of each file asked about (≈9 MB/s on Python); what is read of the
tree is only the definitions that intersect the asked rows (one query in C per file,
bounded to their range).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple

from asrch.domain.definitions import NameLines
from asrch.engine.scopes.astray import astray_from
from asrch.engine.scopes.grammars import Grammar, load_language
from asrch.engine.scopes.parse import Budget, OverBudgetError, parse
from asrch.engine.scopes.source import grammar_and_source, line_starts

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tree_sitter import Node, Query

    from asrch.domain.definitions import NotParsed
    from asrch.domain.lines import SourceLine

Kind = Literal["function", "type", "module", "macro", "value"]
"""What a name line defines: a function or method; a class, struct, union, enum, trait,
interface or type alias; a module or namespace; a macro; a constant, static or variable."""


class LineKinds(NamedTuple):
    """What the parse says of a file's lines (1-based numbers)."""

    names: dict[int, Kind]
    """The lines where a definition's name stands, with what it defines (the outermost
    kind when a line names 2: `struct s { ... } s_t;` names a type twice)."""
    uncertain: frozenset[int]
    """Asked lines that name nothing the parse could read but lie where it could not read
    the file (an ERROR node, or past where it stops reading as the language does)."""


Names = Callable[["Node"], list["Node"]]


class _Rule(NamedTuple):
    kind: Kind
    names: Names
    module_level: bool = False
    """A value: named only outside the language's function and class bodies."""


class _Rules(NamedTuple):
    nodes: dict[str, _Rule]
    not_module: frozenset[str] = frozenset()
    """Ancestors that put a value inside a function or class (not at the module level)."""
    skip: tuple[tuple[str, str], ...] = ()
    """(parent, child) node types: a child right in such a parent defines nothing where it
    stands (C's "function" right in a function body, a macro and a block: `FOREACH(x) {`;
    bash's `FOO=1 cmd`, the command's environment). The parents are captured (`@parent`)
    and the child looked for among their children, never by asking a node for its parent:
    tree-sitter finds a parent by descending from the root again, recursively, which
    overflowed the C stack on blocks 10,000 deep (issue 39); nor by a query pattern
    `(parent (child) @skip)`: its cursor keeps a state per open parent and scans them all
    at each node, 9 minutes on blocks 100,000 deep."""
    top: tuple[str, _Rule] | None = None
    """A query pattern capturing `@top`, and what such a node defines (Ruby: a variable
    assigned right in the file's `program`)."""


def _name(node: Node) -> list[Node]:
    named = node.child_by_field_name("name")
    return [] if named is None else [named]


def _names(node: Node) -> list[Node]:
    """Every `name` field (Go's `const a, b = 1, 2`)."""
    return list(node.children_by_field_name("name"))


def _identifiers(node: Node | None, kinds: frozenset[str]) -> list[Node]:
    """The plain names a target binds (`a, (b, c) = ...`), not attributes or subscripts."""
    if node is None:
        return []
    if node.type in kinds:
        return [node]
    if node.type in ("pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "type"):
        return [n for child in node.named_children for n in _identifiers(child, kinds)]
    return []


_PY_NAMES = frozenset({"identifier"})


def _python_assignment(node: Node) -> list[Node]:
    return _identifiers(node.child_by_field_name("left"), _PY_NAMES)


_C_NAMES = frozenset(
    {
        "identifier",
        "field_identifier",
        "type_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
        "template_function",
    }
)


def _innermost(declarator: Node) -> tuple[Node | None, bool]:
    """The name a C/C++ declarator declares, and whether it declares a function (a
    `function_declarator` on the way: `int f(void);` is a prototype)."""
    node: Node | None = declarator
    function = False
    while node is not None and node.type not in _C_NAMES:
        function = function or node.type == "function_declarator"
        inner = node.child_by_field_name("declarator")
        if inner is None and node.type in ("parenthesized_declarator", "reference_declarator"):
            inner = node.named_child(node.named_child_count - 1) if node.named_child_count else None
        node = inner
    return node, function


def _c_function(node: Node) -> list[Node]:
    declarator = node.child_by_field_name("declarator")
    name = None if declarator is None else _innermost(declarator)[0]
    return [] if name is None else [name]


def _c_declaration(node: Node) -> list[Node]:
    """A variable at file or namespace scope; not a prototype, not `extern`."""
    # The specifier's one token is its keyword (`Node.text` is not read: `node_bytes`).
    if any(
        c.type == "storage_class_specifier" and c.child_count and c.children[0].type == "extern"
        for c in node.children
    ):
        return []
    out = []
    for declarator in node.children_by_field_name("declarator"):
        name, function = _innermost(declarator)
        if name is not None and not function:
            out.append(name)
    return out


def _c_typedef(node: Node) -> list[Node]:
    names = (_innermost(d)[0] for d in node.children_by_field_name("declarator"))
    return [n for n in names if n is not None]


def _with_body(node: Node) -> list[Node]:
    """A struct, union, enum or class with a body (`struct s;` only names one)."""
    return _name(node) if node.child_by_field_name("body") is not None else []


def _js_variable(node: Node) -> list[Node]:
    named = node.child_by_field_name("name")
    return [named] if named is not None and named.type == "identifier" else []


def _java_static_field(node: Node) -> list[Node]:
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    if modifiers is None or not any(c.type == "static" for c in modifiers.children):
        return []
    return _java_fields(node)


def _java_fields(node: Node) -> list[Node]:
    declarators = node.children_by_field_name("declarator")
    return [n for d in declarators for n in _name(d)]


def _ruby_constant(node: Node) -> list[Node]:
    """A constant outside a method (`X = 1`)."""
    left = node.child_by_field_name("left")
    return [left] if left is not None and left.type == "constant" else []


def _ruby_variable(node: Node) -> list[Node]:
    """A variable assigned at the top level of the file (`_Rules.top`)."""
    left = node.child_by_field_name("left")
    return [left] if left is not None and left.type == "identifier" else []


def _ruby_named(node: Node) -> list[Node]:
    """`class A::B` names B."""
    named = node.child_by_field_name("name")
    if named is not None and named.type == "scope_resolution":
        named = named.child_by_field_name("name")
    return [] if named is None else [named]


def _rules(kind: Kind, names: Names, *types: str, module_level: bool = False) -> dict[str, _Rule]:
    return dict.fromkeys(types, _Rule(kind, names, module_level))


_C_RULES = {
    **_rules("function", _c_function, "function_definition"),
    **_rules("type", _with_body, "struct_specifier", "union_specifier", "enum_specifier"),
    **_rules("type", _c_typedef, "type_definition"),
    **_rules("macro", _name, "preproc_def", "preproc_function_def"),
    **_rules("value", _c_declaration, "declaration", module_level=True),
}
_C_BODIES = frozenset(
    {"function_definition", "compound_statement", "field_declaration_list", "parameter_list"}
)
_JS_RULES = {
    **_rules(
        "function",
        _name,
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
    ),
    **_rules("type", _name, "class_declaration"),
    **_rules("value", _js_variable, "variable_declarator", module_level=True),
}
_JS_BODIES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_body",
        "statement_block",
        "for_statement",
        "for_in_statement",
    }
)
_TS_RULES = {
    **_JS_RULES,
    **_rules("function", _name, "function_signature", "method_signature"),
    **_rules("function", _name, "abstract_method_signature"),
    **_rules(
        "type",
        _name,
        "abstract_class_declaration",
        "interface_declaration",
        "enum_declaration",
        "type_alias_declaration",
    ),
    **_rules("module", _name, "internal_module", "module"),
}

_C_SKIP = (("compound_statement", "function_definition"),)

RULES: dict[str, _Rules] = {
    "tree_sitter_python": _Rules(
        {
            **_rules("function", _name, "function_definition"),
            **_rules("type", _name, "class_definition"),
            **_rules("type", _python_assignment, "type_alias_statement"),
            **_rules("value", _python_assignment, "assignment", module_level=True),
        },
        frozenset({"function_definition", "class_definition", "lambda"}),
    ),
    "tree_sitter_c": _Rules(_C_RULES, _C_BODIES, _C_SKIP),
    "tree_sitter_cpp": _Rules(
        {
            **_C_RULES,
            **_rules("type", _with_body, "class_specifier"),
            **_rules("type", _name, "alias_declaration"),
            **_rules("module", _name, "namespace_definition"),
        },
        _C_BODIES,
        _C_SKIP,
    ),
    "tree_sitter_rust": _Rules(
        {
            **_rules("function", _name, "function_item", "function_signature_item"),
            **_rules(
                "type",
                _name,
                "struct_item",
                "enum_item",
                "union_item",
                "trait_item",
                "type_item",
            ),
            **_rules("module", _name, "mod_item"),
            **_rules("macro", _name, "macro_definition"),
            **_rules("value", _name, "const_item", "static_item", module_level=True),
        },
        frozenset({"function_item", "closure_expression"}),
    ),
    "tree_sitter_go": _Rules(
        {
            **_rules("function", _name, "function_declaration", "method_declaration"),
            **_rules("type", _name, "type_spec", "type_alias"),
            **_rules("value", _names, "const_spec", "var_spec", module_level=True),
        },
        frozenset({"function_declaration", "method_declaration", "func_literal"}),
    ),
    "tree_sitter_javascript": _Rules(_JS_RULES, _JS_BODIES),
    "tree_sitter_typescript": _Rules(_TS_RULES, _JS_BODIES),
    "tree_sitter_java": _Rules(
        {
            **_rules(
                "function",
                _name,
                "method_declaration",
                "constructor_declaration",
                "compact_constructor_declaration",
            ),
            **_rules(
                "type",
                _name,
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
                "annotation_type_declaration",
            ),
            **_rules("value", _java_static_field, "field_declaration"),
            **_rules("value", _java_fields, "constant_declaration"),
        }
    ),
    "tree_sitter_ruby": _Rules(
        {
            **_rules("function", _name, "method", "singleton_method"),
            **_rules("type", _ruby_named, "class"),
            **_rules("module", _ruby_named, "module"),
            **_rules("value", _ruby_constant, "assignment", module_level=True),
        },
        frozenset({"method", "singleton_method", "block", "do_block", "lambda"}),
        top=("(program (assignment) @top)", _Rule("value", _ruby_variable)),
    ),
    "tree_sitter_bash": _Rules(
        {
            **_rules("function", _name, "function_definition"),
            **_rules("value", _name, "variable_assignment", module_level=True),
        },
        frozenset({"function_definition"}),
        (("command", "variable_assignment"),),
    ),
}
"""Per grammar wheel (TypeScript and TSX share one): the node types that define, what
each defines and which of its children are the names."""

_QUERIES: dict[tuple[str, str], Query] = {}


def _query(grammar: Grammar) -> Query:
    """One query per grammar: every node type that may define (`@node`), every body that
    puts a value off the module level and ERROR (`@body`), the language's `skip` and
    `top` patterns."""
    key = (grammar.module, grammar.function)
    if key not in _QUERIES:
        import tree_sitter

        rules = RULES[grammar.module]
        types = " ".join(f"({t})" for t in rules.nodes)
        bodies = " ".join(f"({t})" for t in (*rules.not_module, "ERROR"))
        patterns = [f"[{types}] @node", f"[{bodies}] @body"]
        if rules.skip:
            parents = " ".join(f"({p})" for p in {p for p, _ in rules.skip})
            patterns.append(f"[{parents}] @parent")
        if rules.top is not None:
            patterns.append(rules.top[0])
        _QUERIES[key] = tree_sitter.Query(load_language(grammar), "\n".join(patterns))
    return _QUERIES[key]


def _placed(node: Node, bodies: list[Node]) -> bool | None:
    """At the module level: inside none of `bodies` (the captured function and class
    bodies and ERROR nodes around the asked rows; containment by bytes, no parent asked).
    None: inside an ERROR node only, so where the node stands is unknown (recovery may
    have dropped the class around it)."""
    start, end = node.start_byte, node.end_byte
    around = [b for b in bodies if b.start_byte <= start and end <= b.end_byte and b.id != node.id]
    if any(not b.is_error for b in around):
        return False
    return None if around else True


QUERY_DEPTH = 60_000
"""The deepest node a definition query starts at: tree-sitter's query cursor counts depth
in 16 bits, and past 65,535 levels its walk turns quadratic (minutes on blocks 100,000
deep). A line that reaches near it is not judged (`_too_deep`)."""


def _too_deep(root: Node, data: bytes, lines: Iterable[int]) -> set[int]:
    """The `lines` holding a node within `_DEPTH_MARGIN` levels of `QUERY_DEPTH`, where a
    definition could start too deep for the query: anywhere on the line, not only at its
    first or last byte (`{{...struct S {...};...}}` on one line is shallow at both ends).
    A cursor's descent into the nodes that share bytes with each line (`_reaches`), no
    parent asked; past `_DEEP_VISITS` nodes in all, the lines not yet looked at are not
    judged either. Only a file with about that many bytes can nest that deep."""
    if len(data) < QUERY_DEPTH - _DEPTH_MARGIN:
        return set()
    starts = line_starts(data)
    wanted = sorted({line for line in lines if 1 <= line <= len(starts)})
    budget = Budget(_DEEP_VISITS, float("inf"))
    deep: set[int] = set()
    for index, line in enumerate(wanted):
        end = starts[line] if line < len(starts) else len(data)
        try:
            if _reaches(root, starts[line - 1], end, QUERY_DEPTH - _DEPTH_MARGIN, budget):
                deep.add(line)
        except OverBudgetError:
            deep.update(wanted[index:])
            break
    return deep


def _reaches(root: Node, start: int, end: int, depth_limit: int, budget: Budget) -> bool:
    """Whether a node sharing bytes with `[start, end)` lies `depth_limit` levels below
    the root: depth first over those nodes only (a cursor's `goto_first_child_for_byte`
    skips the children that end before `start`; a node starting at `end` or later ends the
    walk of its siblings), never deeper than the limit."""
    cursor = root.walk()
    if cursor.goto_first_child_for_byte(start) is None:
        return False
    depth = 1
    while True:
        budget.spend()
        node = cursor.node
        inside = node is not None and node.start_byte < end
        if inside and depth >= depth_limit:
            return True
        if inside and cursor.goto_first_child_for_byte(start) is not None:
            depth += 1
            continue
        # This node is done: its next sibling if it shared bytes (the ones after a node
        # past the range are past it too), else its parent's next sibling.
        while not (inside and cursor.goto_next_sibling()):
            if depth == 1:
                return False
            cursor.goto_parent()
            depth -= 1
            inside = True


_DEPTH_MARGIN = 1_000
_DEEP_VISITS = 2_000_000
"""Nodes `_too_deep` may visit for one file (2 descents to `QUERY_DEPTH` a line for
1,000 lines; a 1 MB line of tokens ≈ 500,000)."""


def _skipped(node: Node, parents: list[Node], skip: tuple[tuple[str, str], ...]) -> bool:
    """`node` stands right in one of `parents` that `skip` pairs with its type (its
    parent holds it by bytes and among its children; no parent asked)."""
    types = {p for p, child in skip if child == node.type}
    if not types:
        return False
    start, end = node.start_byte, node.end_byte
    return any(
        p.type in types
        and p.start_byte <= start
        and end <= p.end_byte
        and any(c.id == node.id for c in p.children)
        for p in parents
    )


def name_lines(
    grammar: Grammar, data: bytes, lines: Iterable[int] | None = None
) -> LineKinds | None:
    """The lines of `data` (as rg numbers them) where a definition's name stands, among
    `lines` (None: every line), and those of `lines` the parse could not read; None when
    the parse passed its bounds (work, time: `engine/scopes`' parse)."""
    tree = parse(grammar, data)
    if tree is None:
        return None
    import tree_sitter

    rules = RULES[grammar.module]
    asked = None if lines is None else frozenset(lines)
    cursor = tree_sitter.QueryCursor(_query(grammar))
    cursor.set_max_start_depth(QUERY_DEPTH)
    if asked is not None:
        if not asked:
            return LineKinds({}, frozenset())
        cursor.set_point_range((min(asked) - 1, 0), (max(asked), 0))
    names: dict[int, Kind] = {}
    unplaced: set[int] = set()
    captured = cursor.captures(tree.root_node)
    bodies = captured.get("body", [])
    errors = [(b.start_point[0] + 1, b.end_point[0] + 1) for b in bodies if b.is_error]
    parents = captured.get("parent", [])
    found = [
        (n, rules.nodes[n.type])
        for n in captured.get("node", [])
        if not _skipped(n, parents, rules.skip)
    ]
    if rules.top is not None:
        found += [(n, rules.top[1]) for n in captured.get("top", [])]
    for node, rule in found:
        rows = {named.start_point[0] + 1 for named in rule.names(node) if not named.is_missing}
        rows = {r for r in rows if asked is None or r in asked}
        rows -= names.keys()
        if not rows:
            continue
        if rule.module_level:
            placed = _placed(node, bodies)
            if placed is None:
                unplaced |= rows
            if not placed:
                continue
        names.update(dict.fromkeys(rows, rule.kind))
    astray = astray_from(grammar, tree, data)
    stray = data.count(b"\n", 0, astray) + 1 if astray <= len(data) else None
    candidates = asked if asked is not None else range(1, data.count(b"\n") + 2)
    too_deep = _too_deep(tree.root_node, data, candidates)
    uncertain = frozenset(
        line
        for line in candidates
        if line not in names
        and (
            line in too_deep
            or line in unplaced
            or (stray is not None and line >= stray)
            or any(first <= line <= last for first, last in errors)
        )
    )
    return LineKinds(names, uncertain)


def read_definitions(path: str, file: str, lines: Sequence[SourceLine]) -> NameLines | NotParsed:
    """The `Definitions` port for one file, opened at `path` (where the searcher reads
    `file`): which of `lines` name a definition and which the parse could not read, or why
    the file was not parsed."""
    source = grammar_and_source(path, file)
    if isinstance(source, str):
        return source
    grammar, data = source
    if not lines:  # only whether the file can be parsed: no parse
        return NameLines(frozenset())
    found = name_lines(grammar, data, (line.number for line in lines))
    if found is None:
        return "failed"
    rows = data.split(b"\n")  # in C: a Python loop over a 1 MB file's lines cost more
    changed = frozenset(
        line.number
        for line in lines
        if not 1 <= line.number <= len(rows) or _text(rows, line.number) != line.text
    )
    return NameLines(frozenset(found.names) - changed, found.uncertain | changed)


def _text(rows: list[bytes], number: int) -> bytes:
    """Line `number` as rg hands it over: its LF kept, but for the last line."""
    return rows[number - 1] + b"\n" if number < len(rows) else rows[number - 1]
