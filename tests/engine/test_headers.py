"""D53 in scout: the header comment read without a parse (engine/headers.py) is the one
the parse finds (engine/regions.py), in every language of the grammar table, on made-up
sources and on the stdlib's own files; a header that cannot be told is none."""

import sysconfig
from pathlib import Path

import pytest

from asrch.domain.limits import HEADER_READ_BYTES, SCOUT_SCOPE_MAX_BYTES
from asrch.domain.regions import Region
from asrch.engine.headers import MODULES, marks_tests, may_hold_tests, read_header
from asrch.engine.regions import read_tests, regions_in
from asrch.engine.scopes.grammars import LANGUAGES, grammar_of

SLASH = {
    "licence": "// Copyright 2026 A.\n// Licensed under X.\n// See LICENSE.\n\nint a;\n",
    "doc touching": "// Copyright 2026 A.\n// Licensed under X.\n// See LICENSE.\nint a;\n",
    "two runs": "// Copyright\n// A\n\n// More\n// words\n\n// doc\nint a;\n",
    "block": "/*\n * Copyright 2026 A.\n * Licensed.\n */\n\nint a;\n",
    "block then code": "/* Copyright\n * A\n * B */ int a;\n",
    "short": "// one\n// two\n\nint a;\n",
    "late": "\n// one\n// two\n// three\n\nint a;\n",
    "only comments": "// one\n// two\n// three\n",
    "none": "int a;\n// one\n// two\n// three\n",
    "trailing code comment": "// a\n// b\n// c\n\nint a; // d\n",
}
HASH = {
    "licence": "# Copyright 2026 A.\n# Licensed under X.\n# See LICENSE.\n\nx = 1\n",
    "shebang": "#!/usr/bin/env x\n# Copyright\n# Licensed\n\nx = 1\n",
    "doc touching": "# a\n# b\n# c\nx = 1\n",
    "two runs": "# a\n# b\n\n# c\n\n# doc\nx = 1\n",
    "short": "# a\n\nx = 1\n",
    "none": "x = 1\n# a\n# b\n# c\n",
    "indented": "  # a\n  # b\n  # c\n\nx = 1\n",
}
EXTRA = {
    ("t.rs", "inner attribute"): "#![allow(x)]\n// a\n// b\n// c\n\nfn f() {}\n",
    ("t.rs", "inner doc"): "//! a\n//! b\n//! c\n\nfn f() {}\n",
    ("t.rs", "nested block"): "/* a /* b */\n c\n d */\n\nfn f() {}\n",
    ("t.js", "hashbang"): "#!/usr/bin/env node\n// a\n// b\n\nlet a = 1;\n",
    ("t.ts", "hashbang"): "#!/usr/bin/env node\n// a\n// b\n\nlet a = 1;\n",
    ("t.rb", "begin"): "=begin\nCopyright\nA\n=end\n\nx = 1\n",
    ("t.go", "build tags"): "// Copyright\n// A\n// B\n\n//go:build x\n\npackage p\n",
    ("t.c", "preprocessor"): "// a\n// b\n// c\n\n#include <x.h>\n",
    ("t.py", "docstring"): '"""Doc.\n\nMore.\n"""\nx = 1\n',
    ("t.py", "encoding"): "# -*- coding: utf-8 -*-\n# a\n# b\n\nimport os\n",
}
NAMES = {"c": "t.c", "cc": "t.cc", "rs": "t.rs", "go": "t.go", "js": "t.js", "ts": "t.ts",
         "tsx": "t.tsx", "java": "t.java"}  # fmt: skip
CASES = [
    *((name, key, text) for name in NAMES.values() for key, text in SLASH.items()),
    *((name, key, text) for name in ("t.py", "t.rb", "t.sh") for key, text in HASH.items()),
    *((name, key, text) for (name, key), text in EXTRA.items()),
]


def _parsed(name: str, data: bytes) -> Region | None:
    grammar = grammar_of(name)
    assert grammar is not None
    found = [r for r in regions_in(grammar, data, test_file=True) if r.kind == "header"]
    return found[0] if found else None


def _header(path: Path, name: str) -> Region | None:
    found = read_header(str(path), name)
    return None if found is None else found.region


def test_the_extension_table_is_the_grammar_table() -> None:
    assert {ext: grammar.module for ext, grammar in LANGUAGES.items()} == MODULES


@pytest.mark.parametrize(("name", "key", "text"), CASES, ids=[f"{n}-{k}" for n, k, _ in CASES])
def test_the_header_read_without_a_parse_is_the_parse_s(
    tmp_path: Path, name: str, key: str, text: str
) -> None:
    (tmp_path / name).write_text(text)
    assert _header(tmp_path / name, name) == _parsed(name, text.encode())


def test_some_cases_are_headers_and_some_are_not(tmp_path: Path) -> None:
    """The table above is no table of Nones: the parse agrees on real headers."""
    (tmp_path / "a.c").write_text(SLASH["licence"])
    (tmp_path / "b.c").write_text(SLASH["doc touching"])
    (tmp_path / "c.c").write_text(SLASH["two runs"])
    assert _header(tmp_path / "a.c", "a.c") == Region(1, 3, "header", "header comment")
    assert _header(tmp_path / "b.c", "b.c") is None
    assert _header(tmp_path / "c.c", "c.c") == Region(1, 5, "header", "header comment")


def test_a_header_that_cannot_be_told_is_none(tmp_path: Path) -> None:
    """Past the bytes read, a block left open, no grammar, a binary file, a directory."""
    long = "".join(f"// line {i}\n" for i in range(HEADER_READ_BYTES // 10)) + "int a;\n"
    (tmp_path / "long.c").write_text(long)
    (tmp_path / "open.c").write_text("/* a\n b\n c\n")
    (tmp_path / "notes.txt").write_text(SLASH["licence"])
    (tmp_path / "nul.c").write_bytes(SLASH["licence"].encode() + b"\x00")
    (tmp_path / "dir.c").mkdir()
    for name in ("long.c", "open.c", "notes.txt", "nul.c", "dir.c"):
        assert _header(tmp_path / name, name) is None, name
    # Within the bytes read, and the whole file: known.
    (tmp_path / "end.c").write_text("// a\n// b\n// c\n")
    assert _header(tmp_path / "end.c", "end.c") == Region(1, 3, "header", "header comment")


def test_a_test_marker_decides_whether_a_file_is_parsed_for_tests(tmp_path: Path) -> None:
    assert marks_tests(b"x = 1\nclass TestPool:\n", "tree_sitter_python")
    assert marks_tests(b"async def test_it():\n", "tree_sitter_python")
    assert not marks_tests(b"x = 1\n    def test_it(self):\n", "tree_sitter_python")
    assert marks_tests(b'#[cfg(all(test, feature = "x"))]\nmod t {}\n', "tree_sitter_rust")
    assert not marks_tests(b'#[cfg(feature = "x")]\nmod t {}\n', "tree_sitter_rust")
    assert not marks_tests(b"class TestPool:\n", "tree_sitter_ruby")
    (tmp_path / "a.py").write_text("class TestA:\n    pass\n")
    (tmp_path / "b.py").write_text("class A:\n    pass\n")
    assert may_hold_tests(str(tmp_path / "a.py"), "a.py")
    assert not may_hold_tests(str(tmp_path / "b.py"), "b.py")
    assert not may_hold_tests(str(tmp_path / "missing.py"), "missing.py")


def test_scout_parses_no_file_over_its_bound_for_tests(tmp_path: Path) -> None:
    """Issue 39: scout's test regions, as its listing's scope lines, come only from files
    of at most `SCOUT_SCOPE_MAX_BYTES`; such a file ranks by all its lines."""
    body = "class TestA:\n    def test_a(self):\n        pass\n"
    for name, size in (("at.py", SCOUT_SCOPE_MAX_BYTES), ("over.py", SCOUT_SCOPE_MAX_BYTES + 1)):
        (tmp_path / name).write_text(body + "#" * (size - len(body) - 1) + "\n")
    assert may_hold_tests(str(tmp_path / "at.py"), "at.py")
    assert read_tests(str(tmp_path / "at.py"), "at.py")
    assert not may_hold_tests(str(tmp_path / "over.py"), "over.py")
    assert read_tests(str(tmp_path / "over.py"), "over.py") == ()


STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _stdlib_sample(every: int) -> list[Path]:
    """1 in `every` of the standard library's own files: what the interpreter's
    site-packages holds is whatever was installed there (13,353 files here, 1,790 of them
    the stdlib's), not the same tree on every machine."""
    files = sorted(p for p in STDLIB.glob("**/*.py") if "site-packages" not in p.parts)
    return [f for i, f in enumerate(files) if i % every == 0 and f.stat().st_size < 1_000_000]


@pytest.mark.parametrize("every", [20])
def test_on_the_stdlib_the_lexical_header_is_the_parse_s(every: int) -> None:
    """An oracle: the parse, on real files (1 in `every` of the stdlib's .py files)."""
    differ = []
    headers = 0
    for path in _stdlib_sample(every):
        found = _header(path, path.name)
        headers += found is not None
        if found != _parsed(path.name, path.read_bytes()):
            differ.append(str(path))
    assert not differ
    assert headers > 5  # the stdlib has licence and file headers


@pytest.mark.slow
def test_on_the_whole_stdlib_the_lexical_header_is_the_parse_s() -> None:
    test_on_the_stdlib_the_lexical_header_is_the_parse_s(1)


def test_the_header_s_text_is_its_lines_as_rg_reads_them(tmp_path: Path) -> None:
    """A byte-order mark dropped, each line with its end (CRLF kept), nothing after."""
    (tmp_path / "a.py").write_bytes(b"\xef\xbb\xbf# a\r\n# b\r\n# c\r\n\r\nx = 1\r\n")
    found = read_header(str(tmp_path / "a.py"), "a.py")
    assert found is not None
    assert found.text == b"# a\r\n# b\r\n# c\r\n"
    (tmp_path / "b.c").write_text("// a\n// b\n// c")  # no final line end
    found = read_header(str(tmp_path / "b.c"), "b.c")
    assert found is not None and found.text == b"// a\n// b\n// c"
