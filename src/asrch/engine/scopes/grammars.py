"""The grammar table: which grammar reads a file (by its extension), which of its nodes
are definitions, and loading a grammar from its wheel (once per process)."""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from tree_sitter import Language


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
    """Braces alone make blocks (C, C++, TypeScript): an ERROR with no brace in it, inside
    a statement, header or list, moves none (`_annotation`): it is no error (a macro in C,
    vitest's `importOriginal<typeof import('x')>()` in TypeScript)."""
    preprocessor: bool = False
    """`#if` groups (C, C++): the file as written reads each branch after the other
    (`Verdicts.configurations`), and a line left uncertain is read again with the first
    branches taken (`first_branches.py`)."""
    """Only the preprocessor encloses a function (C): an error-free function met inside an
    ERROR node still gives its lines their whole scope (curl's lib/http.c parses as one
    ERROR from line 27 to its end, an `#ifndef` its parse could not close)."""


C_PREPROC = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"})
C_TYPES = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
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
ASSIGNMENTS = frozenset({"assignment", "assignment_expression"})
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
    frozenset({"function_definition"}) | C_TYPES,
    top_level=frozenset({"declaration", "type_definition"}),
    transparent=C_PREPROC,
    functions_not_in=frozenset({"compound_statement"}),
    functions_are_outermost=True,
    annotations=True,
    preprocessor=True,
)
CPP = Grammar(
    "tree_sitter_cpp",
    "language",
    frozenset({"function_definition", "class_specifier", "namespace_definition"}) | C_TYPES,
    top_level=frozenset({"declaration", "type_definition", "alias_declaration"}),
    transparent=C_PREPROC
    | {"linkage_specification", "declaration_list", "namespace_definition", "template_declaration"},
    functions_not_in=frozenset({"compound_statement"}),
    annotations=True,
    preprocessor=True,
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
    annotations=True,
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


def load_language(grammar: Grammar) -> Language:
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
