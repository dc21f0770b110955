"""Scope lines (D31): the definitions around a line, from a real parse with tree-sitter.

The `Scopes` port's adapter. It reads the file again (the search saw it through rg), parses
it with the grammar its extension names (`LANGUAGES`), and walks from the root to each
asked line. tree-sitter is imported only in this package, and only when a supported file
is asked about: the count-only commands never load it (tests/cli/test_scope_imports.py).

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

(C and C++: a definition is certain only where every configuration that has the line
has it whole, `preprocessor.astride`; a line left uncertain is walked again in the file
with the first branch of each `#if` group taken, `first_branches.py`, and placed only
where every configuration that has the line agrees.)

An error elsewhere, such as a C macro that tree-sitter cannot read in another function, or
after the line in the same one, does not make the line's definitions uncertain: their
headers and the body up to the line parsed cleanly.

The modules, by idea: `grammars` (the table, loading a grammar), `parse` (one parse and
its bounds), `verdicts` (which errors move a brace), `item_macros` (Rust's), `walk` (root
to line), `preprocessor` (C/C++ `#if` groups), `first_branches` (the `#if` re-reading),
`astray` (where the parse stops being the language), `reader` (the port's adapter).
"""

from asrch.engine.scopes.grammars import LANGUAGES, PYTHON, Grammar, grammar_of
from asrch.engine.scopes.grammars import load_language as _language
from asrch.engine.scopes.reader import TreeSitterScopes, innermost

__all__ = [
    "LANGUAGES",
    "PYTHON",
    "Grammar",
    "TreeSitterScopes",
    "_language",
    "grammar_of",
    "innermost",
]
