"""D53 in scout: a file's header comment read without a parse, and whether its text holds
a test marker, so that a scout over thousands of matching files parses none of them for
their headers (spec/cli_behavior.en.md, "Header comments and in-file tests rank last").

The lexical reader finds the comments before any code from the file's first bytes (at
most `HEADER_READ_BYTES`) by each language's comment syntax, and `header_from` makes the
header of them exactly as the parse's comment nodes make it in `engine/regions.py`
(tests/engine/test_headers.py holds the two to each other, on the stdlib too). A header
that runs past the bytes read, or a block comment left open, is not known: nothing of
the file folds. No tree-sitter is imported here.
"""

from __future__ import annotations

import os
import re

from asrch.domain.limits import HEADER_READ_BYTES, SCOUT_SCOPE_MAX_BYTES
from asrch.domain.regions import Header, header_from
from asrch.engine.decoding import as_rg_reads
from asrch.engine.file_bytes import first_bytes

MODULES: dict[str, str] = {
    **dict.fromkeys((".py", ".pyi"), "tree_sitter_python"),
    ".c": "tree_sitter_c",
    **dict.fromkeys(
        (".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++"), "tree_sitter_cpp"
    ),
    ".rs": "tree_sitter_rust",
    ".go": "tree_sitter_go",
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx"), "tree_sitter_javascript"),
    **dict.fromkeys((".ts", ".mts", ".cts", ".tsx"), "tree_sitter_typescript"),
    ".java": "tree_sitter_java",
    **dict.fromkeys((".rb", ".rake", ".gemspec"), "tree_sitter_ruby"),
    **dict.fromkeys((".sh", ".bash"), "tree_sitter_bash"),
}
"""The grammar table's extensions (`engine/scopes/grammars.LANGUAGES`) and each one's
grammar module, here so that a scout reads headers without importing the parser's
package (tests/engine/test_headers.py holds the two tables equal)."""


def module_of(file: str) -> str | None:
    return MODULES.get(os.path.splitext(file)[1].lower())


_HASH = frozenset({"tree_sitter_python", "tree_sitter_ruby", "tree_sitter_bash"})
"""Languages whose line comments begin with `#` (the others: `//` and `/* */`)."""
_SHEBANG = frozenset({"tree_sitter_javascript", "tree_sitter_typescript", "tree_sitter_rust"})
"""`//` languages whose grammar reads a first line `#!...` as a comment (a hashbang)."""
_BLANKS = b" \t\r\f\v"

_PY_TESTS = re.compile(rb"^(?:class Test|(?:async )?def test_)", re.MULTILINE)
_RS_TESTS = re.compile(rb"#\[cfg\([^\]\n]*\btest\b")


def _read(path: str, most: int) -> tuple[bytes, bool] | None:
    """The first `most` bytes of a regular file of at most `SCOPE_MAX_BYTES` (show folds
    no larger one), and whether that is the whole file; read as `read_source` reads it."""
    data = first_bytes(path, most)
    if isinstance(data, str):
        return None
    return data[:most], len(data) <= most


def leading_comments(
    data: bytes, module: str, *, whole: bool
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The leading comments of `data` (first and last line of each) and the line where
    its code begins (None: no code), in `module`'s comment syntax; None when it cannot
    be told from `data` (the comments run to its end and it is not the whole file, or a
    block comment is left open)."""
    hash_comments = module in _HASH
    nested = module == "tree_sitter_rust"
    comments: list[tuple[int, int]] = []
    at, line, size = 0, 1, len(data)
    while at < size:
        byte = data[at : at + 1]
        if byte in _BLANKS:
            at += 1
        elif byte == b"\n":
            at, line = at + 1, line + 1
        elif at == 0 and data.startswith(b"#!") and (hash_comments or module in _SHEBANG):
            if nested and data.startswith(b"#![", at):
                return comments, line  # Rust: an inner attribute, code
            at = _line_end(data, at)
            comments.append((line, line))
        elif hash_comments and byte == b"#":
            at = _line_end(data, at)
            comments.append((line, line))
        elif module == "tree_sitter_ruby" and data.startswith(b"=begin", at) and _starts(data, at):
            end = data.find(b"\n=end", at)
            if end < 0:
                return None
            last = line + data.count(b"\n", at, end + 1)
            comments.append((line, last))
            at, line = _line_end(data, end + 1), last
        elif not hash_comments and data.startswith(b"//", at):
            at = _line_end(data, at)
            comments.append((line, line))
        elif not hash_comments and data.startswith(b"/*", at):
            end = _block_end(data, at, nested=nested)
            if end < 0:
                return None
            last = line + data.count(b"\n", at, end)
            comments.append((line, last))
            at, line = end, last
        else:
            return comments, line
    return (comments, None) if whole else None


def _starts(data: bytes, at: int) -> bool:
    return at == 0 or data[at - 1 : at] == b"\n"


def _line_end(data: bytes, at: int) -> int:
    """Where the line holding `at` ends (its newline, not taken), or the data's end."""
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end


def _block_end(data: bytes, at: int, *, nested: bool) -> int:
    """Just past the `*/` that closes the `/*` at `at` (Rust's nest), or -1: left open."""
    depth, index = 1, at + 2
    while depth:
        close = data.find(b"*/", index)
        if close < 0:
            return -1
        opening = data.find(b"/*", index, close) if nested else -1
        if opening >= 0:
            depth, index = depth + 1, opening + 2
        else:
            depth, index = depth - 1, close + 2
    return index


def read_header(path: str, file: str) -> Header | None:
    """The header comment of `file` (opened at `path`) as `show` folds it, and its text,
    read without a parse; None when it has none, no grammar, or it cannot be told."""
    module = module_of(file)
    if module is None:
        return None
    head = _read(path, HEADER_READ_BYTES)
    if head is None:
        return None
    data, whole = as_rg_reads(head[0]), head[1]
    found = leading_comments(data, module, whole=whole)
    if found is None or b"\x00" in data:
        return None
    region = header_from(*found)
    if region is None:
        return None
    end = 0
    for _ in range(region.end):
        end = data.find(b"\n", end) + 1 or len(data)
    return Header(region, data[:end])


def marks_tests(data: bytes, module: str) -> bool:
    """Whether a Python or Rust file's text may hold a test region `show` folds: only
    then is it parsed for one (a `class Test` or a `def test_` at the start of a line; a
    `#[cfg(...test...)]`)."""
    if module == "tree_sitter_python":
        return _PY_TESTS.search(data) is not None
    if module == "tree_sitter_rust":
        return _RS_TESTS.search(data) is not None
    return False


def may_hold_tests(path: str, file: str) -> bool:
    """`marks_tests` of `file` (opened at `path`, at most `SCOUT_SCOPE_MAX_BYTES`: scout
    parses no larger file, issue 39), without loading the parser: a file without a
    marker is never parsed."""
    module = module_of(file)
    if module not in ("tree_sitter_python", "tree_sitter_rust"):
        return False
    data = first_bytes(path, SCOUT_SCOPE_MAX_BYTES, SCOUT_SCOPE_MAX_BYTES)
    if isinstance(data, str) or len(data) > SCOUT_SCOPE_MAX_BYTES:
        return False
    return marks_tests(data, module)
