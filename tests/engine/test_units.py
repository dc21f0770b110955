"""The syntactic units around a line (D51) from a real tree-sitter parse, in each of the
10 languages of the scope reader, and the docstrings and comment blocks an answer folds;
what the parse cannot tell for sure gives no unit (engine/scopes/units.py)."""

from pathlib import Path
from typing import Any

import pytest

from asrch.domain.units import Around, Fold, Unit
from asrch.engine.scopes import TreeSitterScopes
from asrch.engine.scopes.units import UNITS
from tests.support.source_lines import file_lines

_JS_BLOCKS = """\
function f(n) {
  try {
    for (const x of n) {
      use(x);
    }
  } catch (e) {
    return 1;
  } finally {
    done();
  }
  switch (n) {
    case 1:
      return 2;
    default:
      return 3;
  }
}
"""
"""JavaScript and TypeScript (`.ts`, `.tsx`) read these blocks alike."""

SOURCES = {
    "a.c": """\
int f(int n) {
    // one
    // two
    // three
    // four
    for (int i = 0; i < n; i++) {
        switch (i) {
        case 1:
            n += 1;
            break;
        default:
            n -= 1;
        }
    }
    if (n) {
        return 1;
    } else if (n > 2) {
        return 2;
    } else {
        return 3;
    }
}
""",
    "a.cc": """\
namespace app {
int g(int n) {
    try {
        for (auto x : items) {
            use(x);
        }
    } catch (const std::exception& e) {
        return 1;
    }
    return 0;
}
}
""",
    "a.rs": """\
fn f(n: u32) -> u32 {
    /// doc one
    /// doc two
    /// doc three
    /// doc four
    let x = match n {
        1 => {
            2
        }
        _ => 3,
    };
    loop {
        if x > 1 {
            break;
        }
    }
    x
}
""",
    "a.go": """\
package main

func f(n int) int {
	for i := 0; i < n; i++ {
		switch i {
		case 1:
			n++
		default:
			n--
		}
	}
	if n > 1 {
		return 1
	} else {
		return 2
	}
}
""",
    "a.js": _JS_BLOCKS,
    "a.ts": _JS_BLOCKS,
    "a.tsx": _JS_BLOCKS,
    "A.java": """\
class A {
    int f(int n) {
        try {
            for (int x : items) {
                use(x);
            }
        } catch (Exception e) {
            return 1;
        }
        switch (n) {
            case 1:
                return 2;
            default:
                return 3;
        }
    }
}
""",
    "a.rb": """\
class A
  def f(n)
    begin
      n.each do |x|
        use(x)
      end
    rescue StandardError
      return 1
    end
    case n
    when 1
      2
    else
      3
    end
  end
end
""",
    "a.sh": """\
f() {
  for x in "$@"; do
    use "$x"
  done
  case "$1" in
    a)
      echo a
      ;;
    *)
      echo b
      ;;
  esac
  if [ -n "$1" ]; then
    echo yes
  elif [ -z "$2" ]; then
    echo no
  fi
}
""",
    "a.py": '''\
class Router:
    def route(self, method):
        """Route a request.

        Each method has its handler.
        """
        if method == "GET":
            return 1
        elif method == "POST":
            with lock:
                return 2
        else:
            return 3
''',
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("file", "line", "units"),
    [
        (
            "a.py",
            8,
            [
                ("statement", 8, 8),
                ("branch", 7, 8),
                ("if", 7, 13),
                ("definition", 2, 13),
                ("definition", 1, 13),
            ],
        ),
        (
            "a.py",
            11,
            [
                ("statement", 11, 11),
                ("block", 10, 11),
                ("branch", 9, 11),
                ("if", 7, 13),
                ("definition", 2, 13),
                ("definition", 1, 13),
            ],
        ),
        (
            "a.c",
            9,
            [
                ("statement", 9, 9),
                ("branch", 8, 10),
                ("match", 7, 13),
                ("loop", 6, 14),
                ("definition", 1, 22),
            ],
        ),
        (
            "a.c",
            18,
            [
                ("statement", 18, 18),
                ("branch", 17, 19),
                ("if", 17, 21),
                ("if", 15, 21),
                ("definition", 1, 22),
            ],
        ),
        (
            "a.cc",
            8,
            [
                ("statement", 8, 8),
                ("branch", 7, 9),
                ("try", 3, 9),
                ("definition", 2, 11),
                ("definition", 1, 12),
            ],
        ),
        (
            "a.rs",
            8,
            [("statement", 8, 8), ("branch", 7, 9), ("match", 6, 11), ("definition", 1, 18)],
        ),
        (
            "a.rs",
            14,
            [("statement", 14, 14), ("if", 13, 15), ("loop", 12, 16), ("definition", 1, 18)],
        ),
        (
            "a.go",
            7,
            [
                ("statement", 7, 7),
                ("branch", 6, 7),
                ("match", 5, 10),
                ("loop", 4, 11),
                ("definition", 3, 17),
            ],
        ),
        (
            "a.js",
            4,
            [
                ("statement", 4, 4),
                ("loop", 3, 5),
                ("branch", 2, 6),
                ("try", 2, 10),
                ("definition", 1, 17),
            ],
        ),
        (
            "a.ts",
            13,
            [("statement", 13, 13), ("branch", 12, 13), ("match", 11, 16), ("definition", 1, 17)],
        ),
        (
            "a.tsx",
            9,
            [("statement", 9, 9), ("branch", 8, 10), ("try", 2, 10), ("definition", 1, 17)],
        ),
        (
            "A.java",
            12,
            [
                ("statement", 12, 12),
                ("branch", 11, 12),
                ("match", 10, 15),
                ("definition", 2, 16),
                ("definition", 1, 17),
            ],
        ),
        (
            "a.rb",
            5,
            [
                ("statement", 5, 5),
                ("block", 4, 6),
                ("branch", 3, 6),
                ("try", 3, 9),
                ("definition", 2, 16),
                ("definition", 1, 17),
            ],
        ),
        (
            "a.rb",
            14,
            [
                ("statement", 14, 14),
                ("branch", 13, 14),
                ("match", 10, 15),
                ("definition", 2, 16),
                ("definition", 1, 17),
            ],
        ),
        (
            "a.sh",
            7,
            [("statement", 7, 7), ("branch", 6, 8), ("match", 5, 12), ("definition", 1, 18)],
        ),
        (
            "a.sh",
            16,
            [("statement", 16, 16), ("branch", 15, 16), ("if", 13, 17), ("definition", 1, 18)],
        ),
    ],
)
def test_the_units_around_a_line_innermost_first(
    tree: Path, file: str, line: int, units: list[tuple[str, int, int]]
) -> None:
    found = TreeSitterScopes(cwd=str(tree)).units(file, [line])
    assert not isinstance(found, str)
    around = found[line]
    assert isinstance(around, Around)
    assert around.units == tuple(Unit(*u) for u in units)  # type: ignore[arg-type]


def test_every_language_of_the_scope_reader_has_a_table() -> None:
    from asrch.engine.scopes import LANGUAGES

    assert {g.module for g in LANGUAGES.values()} == set(UNITS)


@pytest.mark.parametrize(
    ("file", "line", "folds"),
    [
        ("a.py", 8, (Fold("docstring", 3, 6),)),
        ("a.c", 9, (Fold("comment", 2, 5),)),
        ("a.rs", 14, (Fold("comment", 2, 5),)),
        ("a.js", 4, ()),
    ],
)
def test_docstrings_and_comment_blocks_of_4_lines_or_more(
    tree: Path, file: str, line: int, folds: tuple[Fold, ...]
) -> None:
    found = TreeSitterScopes(cwd=str(tree)).units(file, [line])
    assert not isinstance(found, str)
    around = found[line]
    assert isinstance(around, Around) and around.folds == folds


def test_a_comment_after_code_is_no_comment_line(tree: Path) -> None:
    (tree / "t.py").write_text(
        "def f():\n    a = 1  # x\n    # y\n    # z\n    # w\n    return a\n"
    )
    found = TreeSitterScopes(cwd=str(tree)).units("t.py", [6])
    assert not isinstance(found, str)
    around = found[6]
    assert isinstance(around, Around) and around.folds == ()  # 3 comment lines only


def test_what_is_not_parsed_says_why(tree: Path) -> None:
    reader = TreeSitterScopes(cwd=str(tree))
    (tree / "notes.txt").write_text("def f():\n    pass\n")
    assert reader.units("notes.txt", [1]) == "no_grammar"
    (tree / "bin.py").write_bytes(b"def f():\n    x = '\x00'\n")
    assert reader.units("bin.py", [1]) == {1: "binary"}
    (tree / "big.py").write_text("x = 1\n" * 200_000)
    assert reader.units("big.py", [1]) == "too_large"
    assert reader.units("missing.py", [1]) == "unreadable"


def test_a_line_the_parse_cannot_place_gets_no_unit(tree: Path) -> None:
    """An error before the line inside its definition: where the units end is a guess."""
    (tree / "e.py").write_text("def f():\n    x = (\n    if x:\n        return 1\n")
    found = TreeSitterScopes(cwd=str(tree)).units("e.py", [4])
    assert found == {4: "uncertain"}


def test_a_unit_holding_an_error_is_no_unit(tree: Path) -> None:
    """The function holds an error after the line (the line is still placed, D31): its
    end is a guess, so it is no unit; the loop before the error is one."""
    text = "int f(int n) {\n    for (;;) {\n        use(n);\n    }\n    x = a b c;\n}\n"
    (tree / "e.c").write_text(text)
    found = TreeSitterScopes(cwd=str(tree)).units("e.c", [3])
    assert found == {3: Around((Unit("statement", 3, 3), Unit("loop", 2, 4)))}


def test_a_first_branch_ends_at_its_last_statement_not_at_the_comments_after_it(
    tree: Path,
) -> None:
    """argparse's `if (...): ...` then `# if the action expect...` then `elif`: the
    comments say what the next branch does."""
    text = "if a:\n    x = 1\n    y = 2\n\n# for b:\n# the rest\nelif b:\n    z = 3\n"
    (tree / "c.py").write_text(text)
    found = TreeSitterScopes(cwd=str(tree)).units("c.py", [2])
    assert not isinstance(found, str)
    around = found[2]
    assert isinstance(around, Around)
    assert around.units[:2] == (Unit("statement", 2, 2), Unit("branch", 1, 3))


def test_the_units_and_the_scope_lines_of_one_answer_share_one_parse(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show --scope` asks for the units, then for the scope lines of the same file: a
    1 MB file costs one parse (≈140 ms), not two (bench.scopes --unit-only)."""
    from asrch.engine.scopes import reader

    calls: list[int] = []
    whole = reader.parse  # type: ignore[attr-defined]  # the name reader.py calls

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return whole(*args, **kwargs)

    monkeypatch.setattr(reader, "parse", counted)
    scopes = TreeSitterScopes(cwd=str(tree))
    assert not isinstance(scopes.units("a.py", [8]), str)
    placed = scopes.of("a.py", file_lines(tree / "a.py", [8]))
    assert placed.scopes[8] is not None and len(calls) == 1
    (tree / "a.py").write_text(SOURCES["a.py"].replace("GET", "PUT"))
    scopes.of("a.py", file_lines(tree / "a.py", [8]))
    assert len(calls) == 2  # other bytes: parsed again


def test_a_long_unit_gives_the_statements_of_its_first_lines(tree: Path) -> None:
    """Issue 40: the statements that start in a long definition's first 40 lines (at any
    depth: the loop and the statement inside it) tell where its body begins and where
    its beginning may be cut; a unit of 40 lines or fewer gives none."""
    body = "".join(f"    x{k} = {k}\n" for k in range(1, 50))
    text = f"@wrap\ndef f(\n    a,\n):\n    for i in a:\n        use(i)\n{body}    return a\n"
    (tree / "long.py").write_text(text)
    found = TreeSitterScopes(cwd=str(tree)).units("long.py", [1, 3, 6])
    assert not isinstance(found, str)
    head = found[1]
    assert isinstance(head, Around)
    assert head.units == (Unit("definition", 1, 56),)
    assert head.statements[:3] == ((5, 6), (6, 6), (7, 7))
    assert head.statements[-1] == (40, 40)  # the first 40 lines' last statement
    signature = found[3]  # the function inside the decorated definition
    assert isinstance(signature, Around)
    assert signature.statements == (*head.statements, (41, 41))  # its first 40 lines: 2-41
    inner = found[6]
    assert isinstance(inner, Around) and inner.statements == ()  # in the body: no walk
    (tree / "short.py").write_text("def g():\n    return 1\n")
    short = TreeSitterScopes(cwd=str(tree)).units("short.py", [1])
    assert not isinstance(short, str) and short[1] == Around((Unit("definition", 1, 2),))


def test_a_long_rust_function_s_statements_end_where_its_lines_do(tree: Path) -> None:
    """A brace language: a multi-line `let` ends on its `;` line, the statements of a
    block inside are statements too."""
    body = "".join(f"    let x{k} = {k};\n" for k in range(1, 40))
    text = f"fn f(\n    a: u32,\n) -> u32 {{\n    let t = [\n        1,\n    ];\n{body}    a\n}}\n"
    (tree / "long.rs").write_text(text)
    found = TreeSitterScopes(cwd=str(tree)).units("long.rs", [1])
    assert not isinstance(found, str)
    head = found[1]
    assert isinstance(head, Around) and head.units == (Unit("definition", 1, 47),)
    assert head.statements[0] == (4, 6)
    assert all(a <= 40 for a, _ in head.statements)
