"""Scope lines (D31): the definitions around a line, from a real parse with tree-sitter.

The `Scopes` port's adapter. It reads the file again (the search saw it through rg), parses
it with the grammar its extension names (`LANGUAGES`), and walks from the root to each
asked line. tree-sitter is imported only here, and only when a supported file is asked
about: the count-only commands never load it (tests/cli/test_imports.py).

Truth first: a scope line is a claim. The walk gives up on a line (no scope, never a
guess) when

- the file has no grammar here, is larger than `SCOPE_MAX_BYTES`, or cannot be read;
- the line is past the end of the file as read now;
- the path from the root down to the line goes through an ERROR or a MISSING node (the
  structure around the line is unknown);
- a definition on that path has an error in its header (the part before the line), or
  ends in a MISSING token (an unclosed body: its end, and so what it encloses, is a guess);
- (C only, where nothing but the preprocessor encloses a function: an ERROR on the path
  above an error-free function, whose declarator has a parameter list and whose body
  ends in a real brace, is no reason to give up: that function and what it holds are
  certain)
- inside the innermost definition, an ERROR precedes the line at any level of the path
  (an error before the line can hide a definition that should enclose it);
- a definition sits beside an ERROR node with a brace in it or a MISSING node (among its
  parent's children) and holds an error itself, or is a top-level declaration: recovery
  may have cut a definition short there and read its tail as new top-level code (C's
  `#ifdef` halves of one body), so where it starts or ends is a guess.

(C and C++: a line left uncertain is walked again in the file with the first branch of
each `#if` group taken, `_FirstBranches`, and placed only where every configuration that
has the line agrees.)

An error elsewhere, such as a C macro that tree-sitter cannot read in another function, or
after the line in the same one, does not make the line's definitions uncertain: their
headers and the body up to the line parsed cleanly.
"""

from __future__ import annotations

import bisect
import os
import re
import stat
import sys
import threading
import time
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

from asrch.domain.limits import (
    SCOPE_DEPTH,
    SCOPE_MAX_BYTES,
    SCOPE_NODE_VISITS,
    SCOPE_PARSE_SECONDS,
    SCOPE_PARSE_WORK,
    SCOPE_PARSE_WORK_PER_BYTE,
)
from asrch.domain.lines import Definition, Placements, Scope, SourceLine, Unplaced
from asrch.engine.decoding import as_rg_reads

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import ModuleType

    from tree_sitter import Language, Node, Tree


class Grammar(NamedTuple):
    """Where a language's grammar lives and which of its nodes are definitions."""

    module: str
    """The grammar wheel's module (`tree_sitter_python`, …)."""
    function: str
    """The module's function that returns the language."""
    definitions: frozenset[str]
    """Node types that are a definition wherever they are."""
    top_level: frozenset[str] = frozenset()
    """Node types that are a definition only at the top level and spanning lines (a C
    table initializer, a Go `var (` block)."""
    transparent: frozenset[str] = frozenset()
    """Node types that do not end the top level (`#ifdef`, `export`, `extern "C"`)."""
    functions_not_in: frozenset[str] = frozenset()
    """Parents under which a `function_definition` is not one (C: a "function" inside a
    function body is a macro call followed by a block; C has no nested functions)."""
    functions_are_outermost: bool = False
    misread_around: bool = False
    """No function sits right in a block (C++: a local class's methods sit in its body):
    one that does, with a return type and without any error, is a real function inside
    something misread as one (pugixml's `PUGI__NS_END namespace pugi {`, a macro that
    closes namespaces), and gives its lines their scope from itself down."""
    item_macros: frozenset[str] = frozenset()
    """Containers of items where a macro's `{ ... }` may hold items (Rust's `cfg_fs! { fn
    ... }`): parsed again as items, its definitions enclose what they hold. A body that does
    not parse cleanly as items is left as it was: tokens."""
    annotations: bool = False
    """Braces alone make blocks (C, C++): an ERROR with no brace in it, inside a statement,
    header or list, moves none (`_annotation`): it is no error."""
    """Only the preprocessor encloses a function (C): an error-free function met inside an
    ERROR node still gives its lines their whole scope (curl's lib/http.c parses as one
    ERROR from line 27 to its end, an `#ifndef` its parse could not close)."""


_C_PREPROC = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"})
_C_TYPES = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
_JS_DEFINITIONS = frozenset(
    {
        "class_declaration",
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
    }
)
# `expression_statement`: only an assignment (`res.send = function send(body) {`, CommonJS's
# way to define a function), never a call that takes a closure (`app.get('/', function () {`).
_JS_TOP = frozenset({"lexical_declaration", "variable_declaration", "expression_statement"})
_ASSIGNMENTS = frozenset({"assignment", "assignment_expression"})
"""An `expression_statement` that defines something (Python's and JavaScript's node types)."""
_TS_DEFINITIONS = _JS_DEFINITIONS | {
    "abstract_class_declaration",
    "interface_declaration",
    "enum_declaration",
    "internal_module",
    "module",
}
_TS_TOP = _JS_TOP | {"type_alias_declaration"}

PYTHON = Grammar(
    "tree_sitter_python",
    "language",
    frozenset({"class_definition", "function_definition"}),
    top_level=frozenset({"expression_statement"}),
)
C = Grammar(
    "tree_sitter_c",
    "language",
    frozenset({"function_definition"}) | _C_TYPES,
    top_level=frozenset({"declaration", "type_definition"}),
    transparent=_C_PREPROC,
    functions_not_in=frozenset({"compound_statement"}),
    functions_are_outermost=True,
    annotations=True,
)
CPP = Grammar(
    "tree_sitter_cpp",
    "language",
    frozenset({"function_definition", "class_specifier", "namespace_definition"}) | _C_TYPES,
    top_level=frozenset({"declaration", "type_definition", "alias_declaration"}),
    transparent=_C_PREPROC
    | {"linkage_specification", "declaration_list", "namespace_definition", "template_declaration"},
    functions_not_in=frozenset({"compound_statement"}),
    annotations=True,
    misread_around=True,
)
RUST = Grammar(
    "tree_sitter_rust",
    "language",
    frozenset(
        {
            "function_item",
            "impl_item",
            "trait_item",
            "mod_item",
            "struct_item",
            "enum_item",
            "union_item",
            "macro_definition",
        }
    ),
    top_level=frozenset({"const_item", "static_item", "type_item"}),
    transparent=frozenset({"mod_item", "declaration_list"}),
    item_macros=frozenset({"source_file", "declaration_list"}),
)
GO = Grammar(
    "tree_sitter_go",
    "language",
    frozenset({"function_declaration", "method_declaration", "type_spec"}),
    top_level=frozenset({"type_declaration", "var_declaration", "const_declaration"}),
)
JAVASCRIPT = Grammar(
    "tree_sitter_javascript",
    "language",
    _JS_DEFINITIONS,
    top_level=_JS_TOP,
    transparent=frozenset({"export_statement"}),
)
TYPESCRIPT = Grammar(
    "tree_sitter_typescript",
    "language_typescript",
    _TS_DEFINITIONS,
    top_level=_TS_TOP,
    transparent=frozenset({"export_statement", "ambient_declaration"}),
)
TSX = TYPESCRIPT._replace(function="language_tsx")
JAVA = Grammar(
    "tree_sitter_java",
    "language",
    frozenset(
        {
            "class_declaration",
            "interface_declaration",
            "enum_declaration",
            "record_declaration",
            "annotation_type_declaration",
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
        }
    ),
)
RUBY = Grammar(
    "tree_sitter_ruby",
    "language",
    frozenset({"class", "module", "method", "singleton_method", "singleton_class"}),
)
BASH = Grammar("tree_sitter_bash", "language", frozenset({"function_definition"}))

LANGUAGES: dict[str, Grammar] = {
    ".py": PYTHON,
    ".pyi": PYTHON,
    ".c": C,
    ".h": CPP,
    ".cc": CPP,
    ".cpp": CPP,
    ".cxx": CPP,
    ".c++": CPP,
    ".hh": CPP,
    ".hpp": CPP,
    ".hxx": CPP,
    ".h++": CPP,
    ".rs": RUST,
    ".go": GO,
    ".js": JAVASCRIPT,
    ".mjs": JAVASCRIPT,
    ".cjs": JAVASCRIPT,
    ".jsx": JAVASCRIPT,
    ".ts": TYPESCRIPT,
    ".mts": TYPESCRIPT,
    ".cts": TYPESCRIPT,
    ".tsx": TSX,
    ".java": JAVA,
    ".rb": RUBY,
    ".rake": RUBY,
    ".gemspec": RUBY,
    ".sh": BASH,
    ".bash": BASH,
}
"""The grammar of a file, by its extension (lower-cased); any other file gets no scope."""

_LANGUAGES: dict[tuple[str, str], Language] = {}
_LOADING = threading.Lock()
"""One lock around loading a grammar: `_binding` edits `sys.modules`, and 2 first parses at
once in one MCP server met each other's bare package (`KeyError: 'tree_sitter_python'`)."""


def grammar_of(file: str) -> Grammar | None:
    return LANGUAGES.get(os.path.splitext(file)[1].lower())


def _language(grammar: Grammar) -> Language:
    key = (grammar.module, grammar.function)
    with _LOADING:
        if key not in _LANGUAGES:
            import tree_sitter

            language: Callable[[], object] = getattr(_binding(grammar.module), grammar.function)
            _LANGUAGES[key] = tree_sitter.Language(language())
        return _LANGUAGES[key]


def _binding(package: str) -> ModuleType:
    """The grammar wheel's compiled module (`PACKAGE._binding`), which holds the language.

    Imported without running the package's `__init__`, which imports `importlib.resources`
    for query files asrch never reads: ≈4 ms of the call's start-up, a fifth of parsing a
    150 KB file. A bare package stands in while the binding loads, then leaves
    `sys.modules`: anything importing the package later runs its `__init__` whole (and it
    finds its binding loaded). `__import__`, the import statement's own path, so that
    `-X importtime` lists the binding as it did when the package imported it. Called under
    `_LOADING` only."""
    import importlib.util

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    spec = None if package in sys.modules else importlib.util.find_spec(package)
    if spec is None or spec.submodule_search_locations is None:
        __import__(name)  # the package whole (or its own ImportError)
        return sys.modules[name]
    sys.modules[package] = importlib.util.module_from_spec(spec)
    try:
        __import__(name)
    finally:
        del sys.modules[package]
    return sys.modules[name]


class _OverBudgetError(Exception):
    """The file's bound on the walk was reached: its remaining lines get no scope."""


class _Budget:
    """Nodes the walk may still visit for one file (`SCOPE_NODE_VISITS`)."""

    def __init__(self, visits: int) -> None:
        self.left = visits

    def spend(self, count: int = 1) -> None:
        self.left -= count
        if self.left < 0:
            raise _OverBudgetError


def _parse(grammar: Grammar, data: bytes, within: tuple[int, int] | None = None) -> Tree | None:
    """The tree of `data`, or None once the parse passed its bounds (`SCOPE_PARSE_WORK`:
    parse work for the bytes read so far; `SCOPE_PARSE_SECONDS` of this thread's CPU).
    A parser per call: a tree-sitter parser is not to be shared between threads."""
    import tree_sitter

    parser = tree_sitter.Parser(_language(grammar))
    if within is not None:
        start, end = within
        points = (_point(data, start), _point(data, end))
        parser.included_ranges = [tree_sitter.Range(*points, start, end)]
    checks = 0
    started = time.thread_time()

    def read(offset: int, _point: object) -> bytes:
        return data[offset : offset + _CHUNK]

    def stop(offset: int, _has_error: bool) -> bool:
        nonlocal checks
        checks += 1
        if checks > SCOPE_PARSE_WORK + SCOPE_PARSE_WORK_PER_BYTE * offset:
            return True
        return time.thread_time() - started > SCOPE_PARSE_SECONDS

    try:
        return parser.parse(read, progress_callback=stop)
    except ValueError:  # stopped ("Parsing failed")
        return None


_CHUNK = 1 << 16


def _point(data: bytes, offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


def _header_row(node: Node) -> int:
    """The row that names a definition: `static int` / `main(void)` names it on the second."""
    named = node.child_by_field_name("name")
    if named is None and node.type in ("function_definition", "declaration"):
        # C and C++ name a function or a table by its declarator, not by a `name`; the
        # name is the innermost one (`*\nname(void)` puts a pointer's `*` on the line before).
        named = node.child_by_field_name("declarator")
        while named is not None and (inner := _declarator(named)):
            named = inner
    return int((named or node).start_point[0])


def _declarator(node: Node) -> Node | None:
    """The declarator inside `node`: its `declarator` field, or for a C++ reference
    (`const T&` on the line before, `name()` on its own), its last named child."""
    inner = node.child_by_field_name("declarator")
    if inner is None and node.type == "reference_declarator" and node.named_child_count:
        inner = node.named_child(node.named_child_count - 1)
    return inner


def _last_leaf_missing(node: Node) -> bool:
    while node.child_count:
        last = node.child(node.child_count - 1)
        if last is None:
            return False
        node = last
    return bool(node.is_missing)


def _moves_no_brace(node: Node) -> bool:
    """The `;` tree-sitter invents after a call that opens a block: C's loop macros
    (`jv_array_foreach(a, i, x) {`), or the `::` it invents between 2 names in a C++
    declarator, after a macro before the return type (`PUGI__FN xpath_string
    string_value(...)` read as `xpath_string::string_value`), or the `;` it invents
    after a label a directive follows (re2c's `loop:` then `#line 74`, then the block), or
    a name (C++'s `f(options opts = {})`: a type before the `{}`). Which brace closes
    which is untouched by any."""
    if node.type in _NAMES:
        return True
    if node.type == "::":
        return node.parent is not None and node.parent.type == "qualified_identifier"
    statement = node.parent
    if node.type != ";" or statement is None or statement.type != "expression_statement":
        return False
    if statement.named_child_count == 0:
        label = statement.parent
        return label is not None and label.type == "labeled_statement"
    if statement.named_child_count != 1:
        return False
    call = statement.named_child(0)  # (an index past the end raises, not None)
    after = statement.next_sibling
    return (
        call is not None
        and call.type == "call_expression"
        and after is not None
        and (after.type in _STATEMENTS or after.type.endswith("_statement"))
    )


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
    }
    | _C_PREPROC
)
"""Where C and C++ list statements, members or definitions: an error there may be a header
cut off its block."""


def _annotation(node: Node) -> bool:
    """An ERROR inside a statement, a header, a parameter or an argument list that holds no
    brace: a macro the grammar did not expect (`struct repository *repo UNUSED)`, `static
    void NORETURN f(void)`, `"%" PRId64`, `list_first_entry(&h, struct x, list)`), a fold
    expression C++17 wrote and the grammar cannot read. Every brace of the file is then a
    real token outside it: which block holds which is as parsed (`Grammar.annotations`).
    A brace in a string is none (`FMT_STRING(ANSI_BOLD("{}") " -- {}" MSG)`): in a short
    error, only brace tokens count."""
    parent = node.parent
    if parent is None or parent.type in _BLOCKS or parent.is_error:
        return False
    text = node.text or b""
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


class _Verdicts:
    """What the walk learns about a node, kept for the file's other lines (by node id), so
    that the lines of one file cost one pass over the parts of the tree they share."""

    def __init__(self, budget: _Budget, grammar: Grammar) -> None:
        self.budget = budget
        self.grammar = grammar
        self._first_error: dict[tuple[int, bool], int | None] = {}
        self._broken: dict[int, int | None] = {}
        self._cut: dict[int, bool] = {}
        self._erred_before: dict[int, int | None] = {}
        self._items: dict[int, list[Tree]] = {}
        self._harmless: dict[int, bool] = {}
        self.data = b""

    def items(self, macro: Node, target: int) -> Node | None:
        """The part of a macro's body around `target` parsed as items (`Grammar.item_macros`):
        its braced body, else each braced block directly in it (`stable: { fn ... }`), each
        kept only if it parses without any error."""
        key = macro.id
        if key not in self._items:
            body = (
                macro.named_child(macro.named_child_count - 1) if macro.named_child_count else None
            )
            trees: list[Tree] = []
            if body is not None and body.type == "token_tree" and _braced(body):
                self.budget.spend(body.descendant_count)
                whole = self._as_items(body)
                if whole is not None:
                    trees.append(whole)
                else:
                    for block in body.named_children:
                        if block.type == "token_tree" and _braced(block):
                            part = self._as_items(block)
                            if part is not None:
                                trees.append(part)
            self._items[key] = trees
        for tree in self._items[key]:
            root = tree.root_node
            if root.start_byte <= target < root.end_byte:
                return root
        return None

    def _as_items(self, block: Node) -> Tree | None:
        tree = _parse(self.grammar, self.data, (block.start_byte + 1, block.end_byte - 1))
        return None if tree is None or tree.root_node.has_error else tree

    def first_error(self, node: Node, *, strict: bool = False) -> int | None:
        """Where the first error in `node` that may move a brace begins (None: it has
        none): an error node, or a token tree-sitter had to invent. A loop with a cursor,
        not a recursion: 1,000 nested brackets are 2,000 levels of tree. `strict`: in a
        body tree-sitter had to close, not every brace is a real token, so an error with
        none in it may still be where the body should have ended (`END_DUMP` then `int
        f(void) {`): every error node counts."""
        if node.is_error or node.is_missing:
            return None if self.harmless(node, strict=strict) else int(node.start_byte)
        if not node.has_error:
            return None
        key = (node.id, strict)
        if key in self._first_error:
            return self._first_error[key]
        found: int | None = None
        cursor = node.walk()
        descend = cursor.goto_first_child()
        while descend:
            self.budget.spend()
            child = cursor.node
            assert child is not None
            if (child.is_error or child.is_missing) and not self.harmless(child, strict=strict):
                found = int(child.start_byte)
                break
            if (
                child.has_error
                and not child.is_missing
                and not child.is_error
                and cursor.goto_first_child()
            ):
                continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    descend = False
                    break
        self._first_error[key] = found
        return found

    def harmless(self, node: Node, *, strict: bool = False) -> bool:
        """An error node or invented token that moves no brace."""
        if node.is_missing:
            return _moves_no_brace(node)
        if strict or not self.grammar.annotations:
            return False
        key = node.id
        if key not in self._harmless:
            self._harmless[key] = _annotation(node)
        return self._harmless[key]

    def erred(self, node: Node) -> bool:
        return self.first_error(node) is not None

    def broken(self, container: Node) -> bool:
        """An ERROR node with a brace in it, or a MISSING node, among the children:
        tree-sitter's recovery may have cut a definition short here and left its tail as
        siblings (C's `#ifdef` halves of a body), whose closing brace it cannot place. An
        ERROR without a brace (a string pasted from macros, `" " ANSI_RE("(") "..."`)
        cut no body."""
        if self.broken_at(container) is None:
            return False
        key = container.id
        if key not in self._cut:
            self.budget.spend(container.child_count)
            self._cut[key] = any(
                (child.is_missing or b"{" in (text := child.text or b"") or b"}" in text)
                and not self.harmless(child)
                for child in container.children
                if child.is_error or child.is_missing
            )
        return self._cut[key]

    def erred_before(self, container: Node) -> int | None:
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
                if child.has_error and self.first_error(child) is not None:
                    found = int(child.start_byte)
                    break
            self._erred_before[key] = found
        return self._erred_before[key]

    def broken_at(self, container: Node) -> int | None:
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
                    and not self.harmless(child)
                ):
                    found = int(child.start_byte)
                    break
                more = cursor.goto_next_sibling()
            self._broken[key] = found
        return self._broken[key]


class _Walk(NamedTuple):
    definitions: list[Node]
    uncertain: bool


def _path(root: Node, target: int, budget: _Budget) -> list[Node]:
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


def _placed(root: Node, target: int, grammar: Grammar, verdicts: _Verdicts) -> _Walk:
    """`_walk`, and where it is uncertain in C++, the walk from the deepest function on the
    path that sits right in a block (`_misread_around`)."""
    walk = _walk(root, target, grammar, verdicts)
    if not walk.uncertain or not grammar.misread_around:
        return walk
    inner = next(
        (
            node
            for node in reversed(_path(root, target, verdicts.budget))
            if node.type == "function_definition"
            and node.parent is not None
            and node.parent.type == "compound_statement"
            and node.child_by_field_name("type") is not None
            and _clean_function(node, verdicts)
        ),
        None,
    )
    if inner is None:
        return walk
    rest = _walk(inner, target, grammar, verdicts, top=False)
    return walk if rest.uncertain else _Walk([inner, *rest.definitions], uncertain=False)


def _walk(
    root: Node,
    target: int,
    grammar: Grammar,
    verdicts: _Verdicts,
    depth: int = 0,
    *,
    top: bool = True,
) -> _Walk:
    """The definition nodes on the path from the root to byte `target`, outermost first.

    An error met before the path inside a definition needs no look of its own: it lies
    before the target in that definition, which `first_error` already refused."""
    definitions: list[Node] = []
    container = root
    # Inside an ERROR node, waiting for an error-free function (`functions_are_outermost`).
    lost = False
    if root.is_error:  # the whole file is one: its first node may be no real one
        if not grammar.functions_are_outermost:
            return _Walk([], uncertain=True)
        lost = True
    # Past an error at a level where nothing encloses the target yet: "the top level" is
    # a guess there (recovery may have cut a header off its block: `int f(int a X) {`).
    astray = False
    for child in _path(root, target, verdicts.budget):
        node, container = container, child  # `node` holds `child`
        if not definitions and not astray:
            broken_at = verdicts.erred_before(node)
            astray = broken_at is not None and broken_at < child.start_byte
        if (child.is_error or child.is_missing) and verdicts.harmless(child):
            continue
        if child.is_missing or (child.is_error and not grammar.functions_are_outermost):
            return _Walk([], uncertain=True)
        if child.is_error:
            definitions, lost = [], True
            continue
        if (
            child.type == "macro_invocation"
            and node.type in grammar.item_macros
            and depth < _MACRO_DEPTH
            and (items := verdicts.items(child, target)) is not None
        ):
            inner = _walk(items, target, grammar, verdicts, depth + 1)
            return _Walk(definitions + inner.definitions, uncertain=lost or inner.uncertain)
        if lost:
            if _clean_function(child, verdicts):
                definitions.append(child)
                lost = False
            continue
        if _is_definition(child, node, grammar, top=top):
            # An error in the definition before the target may be a header that should
            # enclose it, or where its body really ended (an unclosed body swallows what
            # follows); one after it changes nothing before it.
            first_error = verdicts.first_error(child, strict=_last_leaf_missing(child))
            if (first_error is not None and first_error <= target) or (
                verdicts.broken(node)
                and (first_error is not None or child.type in grammar.top_level)
            ):
                return _Walk([], uncertain=True)
            definitions.append(child)
        top = top and child.type in grammar.transparent
    return _Walk(definitions, uncertain=lost or (astray and not definitions))


_CONDITIONAL = re.compile(
    rb"^[ \t]*#[ \t]*(ifdef|ifndef|if|elifdef|elifndef|elif|else|endif)\b", re.MULTILINE
)
_ELSE = re.compile(rb"[ \t]*#[ \t]*else\b")
_BLANK = bytes.maketrans(bytes(range(256)), b" " * 10 + b"\n" + b" " * 245)
"""Every byte a space, but a line break."""


class _Group(NamedTuple):
    """One `#if` ... `#endif` of a file, in bytes: where it starts and ends (its directive
    lines included), the part its first branch keeps (after the `#if` line up to the
    group's next directive), and whether its branches are even in braces: none closes more
    than it opened, and each leaves as many open (none without an `#else`, whose missing
    branch is empty): what follows the group is in the same blocks whichever is taken."""

    start: int
    kept: tuple[int, int]
    end: int
    even: bool


def _line_end(data: bytes, offset: int) -> int:
    """The end of the directive line at `offset`, its `\\`-continued lines included."""
    end = data.find(b"\n", offset)
    while end > 0 and data[end - 1 : end] == b"\\":
        end = data.find(b"\n", end + 1)
    return len(data) if end < 0 else end


def _opened(text: bytes) -> int | None:
    """How many blocks `text` leaves open (None: it closes one it did not open)."""
    depth = 0
    for brace in re.findall(rb"[{}]", text):
        depth += 1 if brace == b"{" else -1
        if depth < 0:
            return None
    return depth


def _first_branches(data: bytes) -> tuple[bytes, list[_Group]] | None:
    """`data` as a compiler reads it when the first branch of each `#if` group is taken:
    the directive lines and every other branch blanked, line breaks kept (every byte stays
    where it was); and the groups. None if the directives do not pair up."""
    opened: list[list[int]] = []  # each open group's directive lines: start, end, start, …
    groups: list[_Group] = []
    for found in _CONDITIONAL.finditer(data):
        bounds = [found.start(), _line_end(data, found.start())]
        if found.group(1).startswith(b"if"):
            opened.append(bounds)
            continue
        if not opened:
            return None
        lines = opened[-1]
        lines.extend(bounds)
        if found.group(1) == b"endif":
            opened.pop()
            opens = {_opened(data[a:b]) for a, b in zip(lines[1::2], lines[2::2], strict=False)}
            if not any(_ELSE.match(data, at) for at in lines[2:-2:2]):
                opens.add(0)  # no `#else`: an empty branch
            even = len(opens) == 1 and None not in opens
            groups.append(_Group(lines[0], (lines[1], lines[2]), lines[-1], even))
    if opened:
        return None
    out = bytearray(data)
    for group in groups:
        for start, end in ((group.start, group.kept[0]), (group.kept[1], group.end)):
            out[start:end] = out[start:end].translate(_BLANK)
    return bytes(out), groups


class _Groups:
    """A file's `#if` groups by where they start (groups nest or are apart), to find those
    around a byte or overlapping a span without looking at the others."""

    def __init__(self, groups: list[_Group]) -> None:
        self.groups = sorted(groups)
        self.starts = [group.start for group in self.groups]
        self._parents: list[int] = []  # the index of the group around each (-1: none)
        around: list[int] = []
        for index, group in enumerate(self.groups):
            while around and self.groups[around[-1]].end <= group.start:
                around.pop()
            self._parents.append(around[-1] if around else -1)
            around.append(index)

    def around(self, offset: int) -> list[_Group]:
        """The groups that hold byte `offset`, innermost first."""
        found: list[_Group] = []
        index = bisect.bisect_right(self.starts, offset) - 1
        while index >= 0:
            group = self.groups[index]
            if group.end > offset:
                found.append(group)
            index = self._parents[index]
        return found

    def overlapping(self, start: int, end: int) -> list[_Group]:
        inside = self.groups[
            bisect.bisect_left(self.starts, start) : bisect.bisect_left(self.starts, end)
        ]
        return self.around(start) + inside


def _within_one_branch(definition: Node, groups: list[_Group]) -> bool:
    """Every configuration that has `definition` has it whole, with the same header and
    braces: each `#if` group it overlaps (`groups`) either holds it in its first branch, or
    lies in its body with its branches even in braces."""
    body = definition.child_by_field_name("body")
    if body is None:
        return False
    start, end = definition.start_byte, definition.end_byte
    for group in groups:
        if group.kept[0] <= start and end <= group.kept[1]:
            continue
        if not (body.start_byte <= group.start and group.end <= end and group.even):
            return False
    return True


class _FirstBranches:
    """The walk again on the file with the first branch of each `#if` group taken (C,
    C++), for the lines the walk on the file as written could not place: tree-sitter
    wraps a region whose `#if` branches it cannot read as one in a single ERROR (an
    `#ifndef` around a whole file, each branch opening its own header), where nothing
    would be placed. A line is placed there only if it is `_readable`, the walk on that
    parse is certain and names a definition, and each definition around it is
    `_within_one_branch`. Parsed once per file, when first needed, within the bounds of
    a parse, and a node budget of its own (`SCOPE_NODE_VISITS`, each group looked at
    counting as 1 visit): past it, no more lines are placed this way, and the walk on
    the file as written goes on with its own."""

    def __init__(self, grammar: Grammar, data: bytes) -> None:
        self._grammar = grammar
        self._data = data
        self._budget = _Budget(SCOPE_NODE_VISITS)
        self._ready = False
        self._tree: Tree | None = None
        self._groups = _Groups([])
        self._verdicts: _Verdicts | None = None
        self._blanked = b""
        self._wholes: dict[int, bool] = {}

    def walk(self, target: int) -> _Walk | None:
        if not self._ready:
            self._ready = True
            read = _first_branches(self._data) if b"#" in self._data else None
            if read is not None and read[1]:
                self._blanked, self._groups = read[0], _Groups(read[1])
                self._tree = _parse(self._grammar, self._blanked)
                self._verdicts = _Verdicts(self._budget, self._grammar)
                self._verdicts.data = self._blanked
        if self._tree is None or self._verdicts is None:
            return None
        try:
            if not self._readable(target):
                return None
            walk = _placed(self._tree.root_node, target, self._grammar, self._verdicts)
            if not walk.definitions or not all(map(self._whole, walk.definitions)):
                return None
        except _OverBudgetError:
            self._tree = None
            return None
        return None if walk.uncertain else walk

    def _readable(self, target: int) -> bool:
        """`target` is in the branches taken, or in a group's directive lines or branches
        not taken that hold no brace: no definition and no block can start or end there,
        so what encloses the group encloses it."""
        around = self._groups.around(target)
        self._budget.spend(len(around) + 1)
        return not any(
            not group.kept[0] <= target < group.kept[1]
            and re.search(rb"[{}]", self._data[group.kept[1] : group.end]) is not None
            for group in around
        )

    def _whole(self, definition: Node) -> bool:
        key = definition.id
        if key not in self._wholes:
            groups = self._groups.overlapping(definition.start_byte, definition.end_byte)
            self._budget.spend(len(groups) + 1)
            self._wholes[key] = _within_one_branch(definition, groups)
        return self._wholes[key]


def _braced(tree: Node) -> bool:
    first = tree.child(0) if tree.child_count else None
    return first is not None and first.type == "{"


_MACRO_DEPTH = 4
"""Item macros inside item macros (`cfg_rt! { cfg_fs! { ... } }`) followed at most."""


def _clean_function(node: Node, verdicts: _Verdicts) -> bool:
    """A C function that parsed without any error: a declarator with a parameter list (not
    a macro's `FOREACH(x) {`), the body closed by a real brace."""
    if node.type != "function_definition" or verdicts.erred(node) or _last_leaf_missing(node):
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
        if node_type in _C_TYPES:
            return node.child_by_field_name("body") is not None
        return True
    if top and node_type in grammar.top_level and node.end_point[0] > node.start_point[0]:
        if node_type == "expression_statement":
            first = node.named_child(0) if node.named_child_count else None
            return first is not None and first.type in _ASSIGNMENTS
        return True
    return False


def _heads(definitions: list[Node], row: int, start: int, text: bytes) -> bool:
    """The line `text`, which begins at `start`, begins (after its indentation) with the header of
    a definition around its target named on `row`, the outermost such: its first byte that
    is not blank is where the definition starts (`def f(`, `func New(`), or a node around
    it that starts there (`export function`), or the definition started on a row above
    (`name(void)` under its return type). Not a header after other text on its line
    (`} int f(void) {`): that line may read as inside the definition printed last (D48).
    How far it is indented is the reader's to judge (render/snippets.py)."""
    own = next((d for d in definitions if _header_row(d) == row), None)
    if own is None:
        return False
    first = start + len(text) - len(text.lstrip())
    around = own
    while around.parent is not None and around.start_byte >= first:  # the file's root: no
        if around.start_byte == first:
            return True
        around = around.parent
    return own.start_byte < start


def _line_starts(data: bytes) -> list[int]:
    """The byte offset of each line (rows as tree-sitter counts them, by `\n`)."""
    # split and accumulate run in C: a 10,000-line file in well under a millisecond.
    before = accumulate(map(len, data.split(b"\n")), initial=0)
    return [total + row for row, total in enumerate(before)][:-1]


def _verdicts(grammar: Grammar, data: bytes) -> _Verdicts:
    verdicts = _Verdicts(_Budget(SCOPE_NODE_VISITS), grammar)
    verdicts.data = data
    return verdicts


def _astray(grammar: Grammar, tree: Tree, data: bytes) -> int:
    """Where what the parse says stops being what the language reads (past the end: all
    of the file is read alike). Past a lone CR, the language (Python, a C compiler) may see
    a line break where rg and tree-sitter see none; past a heredoc end bash would not
    accept, bash reads on where tree-sitter stopped."""
    astray = _lone_cr(data)
    if grammar is BASH and b"<<" in data:
        astray = min(astray, _bad_heredoc(tree.root_node, data))
    return astray


def innermost(data: bytes, grammar: Grammar, line: int) -> Definition | Unplaced:
    """The lines of the innermost definition enclosing `line` (D46, `show --scope`), by
    the walk that gives scope lines, within its bounds: no definition when the walk is
    uncertain or the parse passed its bounds. A Python definition's decorators are its
    first lines."""
    starts = _line_starts(data)
    if not 1 <= line <= len(starts):
        return "none"
    start = starts[line - 1]
    text = data[start : starts[line] if line < len(starts) else len(data)]
    tree = _parse(grammar, data)
    if tree is None:
        return "uncertain"
    if start >= _astray(grammar, tree, data):
        return "uncertain"
    target = start + _target(SourceLine(line, text, False), text)
    verdicts = _verdicts(grammar, data)
    try:
        walk = _placed(tree.root_node, target, grammar, verdicts)
        if walk.uncertain and grammar.annotations:
            walk = _FirstBranches(grammar, data).walk(target) or walk
    except _OverBudgetError:
        return "uncertain"
    if walk.uncertain:
        return "uncertain"
    if not walk.definitions:
        return "none"
    node = walk.definitions[-1]
    if node.parent is not None and node.parent.type == "decorated_definition":
        node = node.parent
    first, (last, column) = node.start_point[0], node.end_point
    if column == 0 and last > first:  # ends with its line's newline
        last -= 1
    return Definition(first + 1, last + 1)


def _line_text(data: bytes, starts: list[int], row: int) -> bytes:
    end = starts[row + 1] - 1 if row + 1 < len(starts) else len(data)
    text = data[starts[row] : end]
    return text[:-1] if text.endswith(b"\r") else text


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
            if (line.lstrip(b"\t") if dash else line) != end.text:
                return int(node.start_byte)
            continue
        if node.child_count and (node.end_byte - node.start_byte) > 1:
            stack.extend(reversed(node.children))
    return len(data) + 1


def _target(line: SourceLine, text: bytes) -> int:
    """Where in its line a printed line is placed: its first match (a listed line with
    several: the first), else its first byte that is not blank (a blank line: its start)."""
    if line.first_match is not None and 0 <= line.first_match[0] < len(text):
        return line.first_match[0]
    stripped = text.lstrip()
    return len(text) - len(stripped) if stripped.strip() else 0


class TreeSitterScopes:
    """`Scopes` by tree-sitter, reading files as the searcher does from `cwd`."""

    def __init__(self, cwd: str | None = None, here: Callable[[str], str] | None = None) -> None:
        self._cwd = cwd
        self._here = here
        """How a file is spelled to be opened (an MCP call's pinned object)."""

    def of(self, file: str, lines: Sequence[SourceLine]) -> Placements:
        grammar = grammar_of(file)
        if grammar is None or not lines:
            return Placements({})
        unknown = Placements({line.number: None for line in lines})
        data = self._read(file)
        if data is None:
            return unknown
        tree = _parse(grammar, data)
        if tree is None:
            return unknown
        starts = _line_starts(data)
        verdicts = _verdicts(grammar, data)
        second = _FirstBranches(grammar, data)
        astray = _astray(grammar, tree, data)
        out = dict(unknown.scopes)
        heads: set[int] = set()
        for line in sorted(lines, key=lambda ln: ln.number):
            row = line.number - 1
            if not 0 <= row < len(starts):
                continue
            start = starts[row]
            end = starts[row + 1] if row + 1 < len(starts) else len(data)
            text = data[start:end]
            if text != line.text:
                continue  # not the line rg read: the file changed since
            if start >= astray:
                continue
            target = start + _target(line, text)
            try:
                walk = _placed(tree.root_node, target, grammar, verdicts)
                if walk.uncertain and grammar.annotations:
                    walk = second.walk(target) or walk
            except _OverBudgetError:
                break
            if walk.uncertain:
                continue
            scopes: list[Scope] = []
            for node in walk.definitions:
                header = _header_row(node)
                if header >= row or (scopes and scopes[-1].line == header + 1):
                    continue
                scopes.append(Scope(line=header + 1, text=_line_text(data, starts, header)))
            out[line.number] = tuple(scopes[-SCOPE_DEPTH:])
            if _heads(walk.definitions, row, start, text):
                heads.add(line.number)
        return Placements(out, frozenset(heads))

    def around(self, file: str, line: int) -> Definition | Unplaced:
        grammar = grammar_of(file)
        if grammar is None:
            return "no_grammar"
        data = self._read(file)
        if data is not None:
            return innermost(data, grammar, line)
        # Only to word the note: the bytes parsed are `_read`'s alone.
        try:
            size = os.stat(file if self._cwd is None else os.path.join(self._cwd, file)).st_size
        except OSError:
            return "unreadable"
        return "too_large" if size > SCOPE_MAX_BYTES else "unreadable"

    def _read(self, file: str) -> bytes | None:
        """The file's bytes, if it is a regular file of at most `SCOPE_MAX_BYTES`: opened
        without blocking (a FIFO swapped in since rg read the file would block `open`
        forever), and read to its end."""
        if self._here is not None:
            path = self._here(file)  # an MCP call's pinned object (engine/pins.py)
        else:
            path = file if self._cwd is None else os.path.join(self._cwd, file)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC
        try:
            fd = os.open(path, flags)
        except OSError:
            return None
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode) or status.st_size > SCOPE_MAX_BYTES:
                return None
            parts: list[bytes] = []
            size = 0
            while size <= SCOPE_MAX_BYTES:
                part = os.read(fd, SCOPE_MAX_BYTES + 1 - size)
                if not part:
                    break
                parts.append(part)
                size += len(part)
            # As rg reads it (a byte-order mark decides): rows are rg's lines.
            return None if size > SCOPE_MAX_BYTES else as_rg_reads(b"".join(parts))
        except OSError:
            return None
        finally:
            os.close(fd)
