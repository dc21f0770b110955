"""`show --line N --scope` (D46): the innermost definition around a line, from the same
tree-sitter walk as the scope lines (tests/engine/test_scopes.py), and why none is given
where the walk gives none."""

import os
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_MAX_BYTES
from asrch.domain.lines import Definition
from asrch.engine.scopes import TreeSitterScopes

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scopes"


@pytest.mark.parametrize(
    ("file", "line", "found"),
    [
        # Python: the innermost of nested definitions, decorators included.
        ("src/pool.py", 22, Definition(21, 22)),
        ("src/pool.py", 24, Definition(20, 24)),
        ("src/pool.py", 20, Definition(20, 24)),  # a header line is its own definition's
        ("src/pool.py", 17, Definition(15, 17)),  # `@property` is the def's first line
        ("src/pool.py", 13, Definition(12, 13)),
        ("src/pool.py", 10, Definition(9, 24)),  # in the class, outside its methods
        ("src/pool.py", 4, Definition(3, 6)),  # a top-level table
        ("src/pool.py", 28, Definition(27, 28)),  # the last line, no newline after it
        ("src/pool.py", 1, "none"),
        ("src/pool.py", 8, "none"),
        ("src/pool.py", 29, "none"),  # past the end
        # C: a function from its return type's line to its brace; a struct; a table.
        ("src/table.c", 20, Definition(15, 22)),
        ("src/table.c", 6, Definition(5, 8)),
        ("src/table.c", 12, Definition(10, 13)),
        ("src/table.c", 24, Definition(24, 24)),
        ("src/notes.txt", 2, "no_grammar"),
        ("src/missing.py", 1, "unreadable"),
    ],
)
def test_the_innermost_definition_or_why_none(
    file: str, line: int, found: Definition | str
) -> None:
    assert TreeSitterScopes(cwd=str(FIXTURE)).around(file, line) == found


def test_a_line_the_parse_cannot_place_has_no_definition(tmp_path: Path) -> None:
    (tmp_path / "e.py").write_text("def broken(:\n    y = 2\n    return y\n\ndef ok():\n    pass\n")
    scopes = TreeSitterScopes(cwd=str(tmp_path))
    assert scopes.around("e.py", 2) == "uncertain"
    assert scopes.around("e.py", 6) == Definition(5, 6)


def test_a_file_over_the_parse_limit_is_not_parsed(tmp_path: Path) -> None:
    body = "def f():\n" + "    x = 1\n" * (SCOPE_MAX_BYTES // 10 + 1)
    (tmp_path / "big.py").write_text(body)
    assert os.path.getsize(tmp_path / "big.py") > SCOPE_MAX_BYTES
    assert TreeSitterScopes(cwd=str(tmp_path)).around("big.py", 2) == "too_large"


def test_a_binary_file_with_a_grammar_is_answered_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "blob.c").write_bytes(b"int f(void)\n{\n\x00\xff\xfe return 0;\n}\n" * 3)
    found = TreeSitterScopes(cwd=str(tmp_path)).around("blob.c", 3)
    assert found in ("uncertain", "none") or isinstance(found, Definition)


def test_an_empty_file_has_no_definition(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    assert TreeSitterScopes(cwd=str(tmp_path)).around("empty.py", 1) == "none"
