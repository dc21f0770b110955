"""D53: the header comment and in-file test regions, from a real tree-sitter parse."""

from asrch.domain.regions import Region
from asrch.engine.regions import read_regions, regions_in
from asrch.engine.scopes import grammar_of

RUST = b"""\
// Copyright 2026 The Authors.
// Licensed under the Apache License, Version 2.0.
// See LICENSE.

use std::fmt;

pub fn shell() -> &'static str {
    "sh"
}

#[cfg(test)]
mod tests {
    #[test]
    fn it() {
        assert_eq!(super::shell(), "sh");
    }
}
"""


def _regions(name: str, data: bytes, *, test_file: bool = False) -> tuple[Region, ...]:
    grammar = grammar_of(name)
    assert grammar is not None
    return regions_in(grammar, data, test_file=test_file)


def test_rust_header_and_cfg_test_module() -> None:
    assert _regions("a.rs", RUST) == (
        Region(1, 3, "header", "header comment"),
        Region(11, 17, "tests", "#[cfg(test)] mod tests"),
    )


def test_a_test_file_folds_its_header_only() -> None:
    assert _regions("a.rs", RUST, test_file=True) == (Region(1, 3, "header", "header comment"),)


def test_a_doc_comment_touching_the_first_item_is_not_a_header() -> None:
    data = b"/// One.\n/// Two.\n/// Three.\npub fn f() {}\n"
    assert _regions("a.rs", data) == ()


def test_a_short_leading_comment_is_not_a_header() -> None:
    assert _regions("a.py", b"# one\n# two\n\nx = 1\n") == ()


def test_a_comment_after_code_is_not_a_header() -> None:
    assert _regions("a.py", b"x = 1\n# one\n# two\n# three\n\ny = 2\n") == ()


def test_python_test_class_and_function_decorators_included() -> None:
    data = (
        b"def take():\n    return 1\n\n\n"
        b"class TestTake:\n    def test_it(self):\n        assert take() == 1\n\n\n"
        b"@mark\ndef test_two():\n    assert take()\n"
    )
    assert _regions("pool.py", data) == (
        Region(5, 7, "tests", "class TestTake"),
        Region(10, 12, "tests", "def test_two"),
    )


def test_a_cfg_attribute_spread_over_lines_names_the_region_on_one() -> None:
    data = b"fn f() {}\n\n#[cfg(all(\n    test,\n    unix\n))]\nmod unix_tests {\n}\n"
    assert _regions("a.rs", data) == (
        Region(3, 8, "tests", "#[cfg(all( test, unix ))] mod unix_tests"),
    )


def test_a_module_without_cfg_test_is_code() -> None:
    assert _regions("a.rs", b"#[cfg(unix)]\nmod imp {\n    fn f() {}\n}\n") == ()


def test_no_grammar_or_unreadable_no_region(tmp_path: object) -> None:
    assert read_regions("/nonexistent/a.rs", "a.rs") == ()
    assert read_regions("/nonexistent/a.txt", "a.txt") == ()
