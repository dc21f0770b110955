"""D48 against an attacker (issue 31): shapes that put a match after a definition's end on
the same line, inputs that crash or stall a naive walk, a file swapped or edited between
rg's read and the parse. The answer is the `.txt` answer plus correct scope lines or
none: never a traceback, a hang, or a definition that does not enclose the hit."""

import json
import math
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio
import pytest

from asrch.domain.lines import Scope, SourceLine
from asrch.engine.binary import resolve_rg
from asrch.engine.scopes import Grammar, TreeSitterScopes
from tests.support.cli import run_asrch
from tests.support.source_lines import file_lines


def _scope(path: Path, line: int, column: int | None = None) -> list[int] | None:
    at = None if column is None else {line: column}
    found = (
        TreeSitterScopes(cwd=str(path.parent))
        .of(path.name, file_lines(path, [line], at=at))
        .scopes.get(line)
    )
    return None if found is None else [s.line for s in found]


# --- the match's position, not the line's first byte (`} n() { return X; }`) -----------

AFTER_A_CLOSING_BRACE = [
    ("c.c", "int m(void) {\n  return 1;\n} int n(void) { return X; }\n"),
    ("r.rs", "fn m() -> i32 {\n    1\n} fn n() -> i32 { X }\n"),
    ("g.go", "package p\n\nfunc m() int {\n\treturn 1\n}; func n() int { return X }\n"),
    ("j.js", "function m() {\n  return 1;\n} function n() { return X; }\n"),
    ("b.rb", "def m\n  1\nend; def n; X; end\n"),
    ("s.sh", "m() {\n  echo 1\n}; n() { echo X; }\n"),
    ("s2.c", "struct item {\n  int a;\n}; int X = 3;\n"),
]


@pytest.mark.parametrize(("name", "source"), AFTER_A_CLOSING_BRACE)
def test_a_match_after_a_closing_brace_is_not_in_the_closed_definition(
    tmp_path: Path, name: str, source: str
) -> None:
    path = tmp_path / name
    path.write_text(source)
    number = source.count("\n", 0, source.index("X")) + 1
    column = source.split("\n")[number - 1].index("X")
    # Placed at X: outside the definition the line's first byte closes.
    assert _scope(path, number, column) == []
    # The line's first byte is still in it: what the walk used to read.
    first = _scope(path, number, 0)
    assert first != [] and first is not None


# --- crashes and hangs ------------------------------------------------------------------


def _show_json(path: Path, term: str = "X") -> dict[str, object]:
    done = run_asrch(["show", "--format", "json", term, str(path), "--context", "0"])
    assert done.status == 0, done
    answer: dict[str, object] = json.loads(done.out)
    return answer


@pytest.mark.parametrize(
    "body",
    [
        # 1,200 operands nest 1,200 binary expressions; one error among them.
        "  int x = a @ " + " + ".join(f"a{i}" for i in range(1200)) + ";\n",
        # ~1,000 nested brackets, each with an error inside.
        "  int x = " + "(" * 1000 + "1" + "@)" * 1000 + ";\n",
        "  int x = " + "(" * 1000 + "1" + ")" * 1000 + ";\n",
    ],
)
def test_deep_trees_are_walked_without_recursion(tmp_path: Path, body: str) -> None:
    path = tmp_path / "deep.c"
    path.write_text("int f(void) {\n" + body + "  return X;\n}\n")
    snippets: list[dict[str, list[dict[str, object]]]] = _show_json(path)["snippets"]  # type: ignore[assignment]
    (line,) = snippets[0]["lines"]
    assert line["scope"] in ([], [{"line": 1, "text": "int f(void) {"}])
    assert line["scope_known"] is not (line["scope"] == [])


def test_a_fifo_swapped_in_is_not_opened_to_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f.py")
    lines = [SourceLine(1, b"X = 1\n", True, (0, 1))]
    assert TreeSitterScopes(cwd=str(tmp_path)).of("f.py", lines).scopes == {1: None}


def test_a_dense_one_line_table_stops_the_parse_at_its_bound(tmp_path: Path) -> None:
    # 960 KB, 480,000 elements on one line: no scope rather than 1 s and 140 MB.
    path = tmp_path / "big.c"
    path.write_text("static const int big[] = {" + "1," * 480_000 + "X};\n")
    assert _scope(path, 1, path.read_text().index("X")) is None


def test_first_parses_at_once_in_one_process_load_each_grammar_once(tmp_path: Path) -> None:
    # `_binding` edits sys.modules: without the lock, 2 threads loading grammars at once
    # met each other's bare package (KeyError: 'tree_sitter_python').
    files = {
        "a.py": "class A:\n    def f(self):\n        return X\n",
        "b.c": "int f(void) {\n  return X;\n}\n",
        "c.rs": "fn f() -> i32 {\n    X\n}\n",
        "d.go": "package p\nfunc f() int {\n\treturn X\n}\n",
        "e.js": "function f() {\n  return X;\n}\n",
        "f.rb": "def f\n  X\nend\n",
        "g.sh": "f() {\n  echo X\n}\n",
        "h.java": "class H {\n  int f() {\n    return X;\n  }\n}\n",
    }
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    program = textwrap.dedent(
        f"""
        import threading
        from pathlib import Path
        from asrch.engine.scopes import TreeSitterScopes
        from tests.support.source_lines import file_lines
        root = Path({str(tmp_path)!r})
        names = {sorted(files)!r}
        start = threading.Barrier(len(names) * 2)
        failed = []
        def one(name):
            start.wait()
            try:
                lines = file_lines(root / name, [2, 3])
                found = TreeSitterScopes(cwd=str(root)).of(name, lines).scopes
                assert any(found.values()), (name, found)
            except BaseException as exc:
                failed.append(repr(exc))
        threads = [threading.Thread(target=one, args=(n,)) for n in names * 2]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failed, failed
        """
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


# --- blocks nested deep in `#if` branches (issue 39, item 1) -----------------------------


def _nested_if(depth: int) -> str:
    """Each `#if`/`#else` branch opens a block: tree-sitter's recovery nests hidden nodes
    `depth` deep, and `Node.parent` recursed through them in C (SIGSEGV at 10,000)."""
    return (
        "int f(void) {\n"
        + "#if A\n{\n#else\n{\n#endif\n" * depth
        + "int needle;\n"
        + "}\n" * depth
        + "}\n"
    )


@pytest.mark.parametrize("command", ["show", "scout"])
def test_blocks_nested_deep_in_if_branches_answer_with_no_scope(
    tmp_path: Path, command: str
) -> None:
    # A process of its own (`cold`): the crash it guards against kills the interpreter.
    (tmp_path / "d.c").write_text(_nested_if(10_000))
    line = 5 * 10_000 + 2
    done = run_asrch([command, "needle", "d.c"], cwd=tmp_path, cold=True)
    assert done.status == 0, done
    assert f"{line}=(unknown)\n{line}:int needle;\n" in done.out, done.out
    argv = ["show", "--format", "json", "needle", "d.c", "--context", "0"]
    shown = run_asrch(argv, cwd=tmp_path, cold=True)
    assert shown.status == 0, shown
    (snippet,) = json.loads(shown.out)["snippets"]
    assert [(x["line"], x["scope"], x["scope_known"]) for x in snippet["lines"]] == [
        (line, [], False)
    ]


def test_the_innermost_definition_of_a_line_nested_deep_in_if_branches_is_unknown(
    tmp_path: Path,
) -> None:
    (tmp_path / "d.c").write_text(_nested_if(10_000))
    program = (
        "from asrch.engine.scopes import TreeSitterScopes\n"
        f"print(TreeSitterScopes(cwd={str(tmp_path)!r}).around('d.c', {5 * 10_000 + 2}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, "uncertain\n"), done.stderr


def test_an_mcp_scout_over_blocks_nested_deep_leaves_the_server_answering(
    tmp_path: Path,
) -> None:
    from mcp import Client, StdioServerParameters

    (tmp_path / "d.c").write_text(_nested_if(10_000))
    (tmp_path / "a.py").write_text("def f():\n    return needle\n")
    asrch = Path(sys.executable).parent / "asrch"
    # This process's environment whole (the SDK passes a few variables only by default).
    server = StdioServerParameters(
        command=str(asrch), args=["mcp"], cwd=str(tmp_path), env=dict(os.environ)
    )
    texts: list[str] = []

    async def run() -> None:
        async with Client(server) as client:
            for path in ("d.c", "a.py"):
                result = await client.call_tool("scout", {"query": "needle", "path": path})
                assert result.is_error is False
                block = result.content[0]
                assert block.type == "text"
                texts.append(block.text)

    anyio.run(run)
    assert "50002=(unknown)\n50002:int needle;" in texts[0]
    assert "1=def f():\n2:    return needle" in texts[1]


def test_the_walk_stops_at_its_deadline_and_leaves_every_line_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The parses and walks of one file end by one deadline on this thread's CPU clock
    # (`file_deadline`, read once per `_CLOCK_EVERY` visits): past it, the lines left get
    # no scope; none is dropped.
    from asrch.engine.scopes import parse, reader

    budget = parse.Budget(10**9, deadline=time.thread_time() - 1)
    with pytest.raises(parse.OverBudgetError):
        for _ in range(parse._CLOCK_EVERY):
            budget.spend()
    path = tmp_path / "a.c"
    depth = 2 * parse._CLOCK_EVERY  # a path that long: the clock is read on the way down
    path.write_text(
        "int g(void) {\n  return X;\n}\nint f(void) {\n"
        + "{\n" * depth
        + "X;\n"
        + "}\n" * depth
        + "}\n"
    )
    asked = file_lines(path, [2, 5 + depth])
    assert all(TreeSitterScopes(cwd=str(tmp_path)).of("a.c", asked).scopes.values())
    whole = parse.parse  # the parse itself is let through: this is about the walk

    def parsed(grammar: Grammar, data: bytes, _: float, within: object = None) -> object:
        return whole(grammar, data, math.inf)

    monkeypatch.setattr(reader, "parse", parsed)
    monkeypatch.setattr(reader, "file_deadline", lambda _: time.thread_time() - 1)
    found = TreeSitterScopes(cwd=str(tmp_path)).of("a.c", asked).scopes
    assert found == {2: (Scope(1, b"int g(void) {", (4, 5)),), 5 + depth: None}


# --- the file edited between rg's read and the parse -------------------------------------

BEFORE = "def old():\n    return X\n"
AFTER = "class Evil:\n    def new(self):\n        return X\n"


def test_a_file_edited_after_rg_read_it_gets_no_scope(tmp_path: Path) -> None:
    # A wrapper runs the real rg, then (for the search that reads lines) rewrites the file
    # before asrch parses it: line 2 is no longer the line rg reported.
    target = tmp_path / "w.py"
    target.write_text(BEFORE)
    (tmp_path / "after").write_text(AFTER)
    wrapper = tmp_path / "rg"
    wrapper.write_text(
        textwrap.dedent(
            f"""\
            #!/bin/sh
            {resolve_rg()!s} "$@"
            status=$?
            case " $* " in *" --json "*) cp {str(tmp_path / "after")!r} {str(target)!r} ;; esac
            exit $status
            """
        )
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    done = run_asrch(
        ["show", "--format", "json", "X", "w.py", "--context", "0"],
        cwd=tmp_path,
        env={"ASRCH_RG": str(wrapper)},
    )
    assert done.status == 0, done
    assert target.read_text() == AFTER, "the wrapper did not run"
    (snippet,) = json.loads(done.out)["snippets"]
    (line,) = snippet["lines"]
    assert (line["line"], line["text"], line["scope"], line["scope_known"]) == (
        2,
        "    return X",
        [],
        False,
    )
    target.write_text(BEFORE)
    text = run_asrch(
        ["show", "X", "w.py", "--context", "0"], cwd=tmp_path, env={"ASRCH_RG": str(wrapper)}
    )
    assert "2=(unknown)\n2:    return X\n" in text.out
    assert "Evil" not in text.out and "new" not in text.out


def test_a_label_before_a_line_directive_is_no_crash(tmp_path: Path) -> None:
    # re2c output (lnav's log_level_re.cc): tree-sitter invents a `;` after the label, in
    # a statement with nothing else; asking its siblings about it raised IndexError.
    path = tmp_path / "l.cc"
    path.write_text(
        'int f(int c)\n{\n    loop:\n    \n#line 74 "x.cc"\n{\n\tint X = c;\n\tgoto loop;\n}\n}\n'
    )
    assert _scope(path, 7) in (None, [1])


@pytest.mark.parametrize("end", ["EOF ", " EOF", "EOF;"])
def test_a_heredoc_end_bash_would_not_take_ends_the_certainty(tmp_path: Path, end: str) -> None:
    # bash reads on to the real `EOF`: `g` below is heredoc text, not a function.
    path = tmp_path / "h.sh"
    path.write_text(f"f() {{\n  cat <<EOF\n{end}\n}}\ng() {{\n  echo X\n}}\nEOF\n}}\n")
    assert _scope(path, 6) is None
    (tmp_path / "ok.sh").write_text("f() {\n  cat <<-EOF\n\tx\n\tEOF\n}\ng() {\n  echo X\n}\n")
    assert _scope(tmp_path / "ok.sh", 7) == [6]


@pytest.mark.parametrize(
    ("name", "source", "line"),
    [
        # Python ends the comment at the CR: `g` is a function of its own there.
        ("cr.py", "def f():\n    pass  # note\rdef g():\n    return X\n", 3),
        # The brace after the CR closes `f` for a compiler that ends the line there.
        ("cr.c", "int f(void) {\n  return 1; // note\r}\nint g(void) {\n  return X;\n}\n", 4),
    ],
)
def test_past_a_lone_cr_no_line_is_placed(
    tmp_path: Path, name: str, source: str, line: int
) -> None:
    path = tmp_path / name
    path.write_bytes(source.encode())
    assert _scope(path, line) is None
    assert _scope(path, 1) == []  # before it, as before


# --- real code (D48): what a reader sees as a definition -----------------------------------


@pytest.mark.parametrize(
    ("name", "source", "line", "headers"),
    [
        (
            "u.c",
            "static int cmd(int argc,\n\t\tstruct repository *repo UNUSED)\n{\n\treturn X;\n}\n",
            4,
            [1],
        ),
        ("n.c", "static void NORETURN\ndie_x(void)\n{\n\tX();\n}\n", 4, [2]),
        ("k.c", "static int k(UNUSED struct gc *cfg)\n{\n\treturn X;\n}\n", 3, [1]),
        ("m.c", "int m(void)\n{\n\tfor_each_item(i, l)\n\t\tfree(i);\n\treturn X;\n}\n", 5, [1]),
        ("p.c", 'int p(long n)\n{\n\tprintf("%" PRId64 "\\n", n);\n\treturn X;\n}\n', 4, [1]),
        (
            "r.cc",
            "class A {\n  const std::string&\n  get() const\n  {\n    return X;\n  }\n};\n",
            5,
            [1, 3],
        ),
        (
            "f.hh",
            "struct S {\n  template<typename... A>\n  bool any(A... a) const\n  {\n"
            "    return (this->has(a) || ...);\n  }\n  int g()\n  {\n    return X;\n  }\n};\n",
            9,
            [1, 7],
        ),
        (
            "i.rs",
            "impl S {\n    cfg_fs! {\n        pub fn f(&self) {\n            X;\n"
            "        }\n    }\n}\n",
            4,
            [1, 3],
        ),
        (
            "v.rs",
            "impl S {\n    cfg_v! {\n        stable: {\n            fn f() {\n                X;\n"
            "            }\n        },\n    }\n}\n",
            5,
            [1, 4],
        ),
    ],
)
def test_real_code_shapes_get_their_scope(
    tmp_path: Path, name: str, source: str, line: int, headers: list[int]
) -> None:
    path = tmp_path / name
    path.write_text(source)
    assert _scope(path, line) == headers


def test_a_macro_body_that_is_no_items_stays_tokens(tmp_path: Path) -> None:
    path = tmp_path / "t.rs"
    path.write_text("impl S {\n    m! {\n        x => {\n            X\n        },\n    }\n}\n")
    assert _scope(path, 4) == [1]


@pytest.mark.parametrize(
    "source",
    [
        # tokio's broadcast.rs:454: `impl<>` is no item to the grammar, the body whole
        # fails; its block read alone made `fn a` top level (issue 39, item 11).
        "m! {\n    impl<> Waiter {\n        fn a(self) -> u8 {\n            X\n"
        "        }\n    }\n}\n",
        "impl S {\n    m! {\n        impl<> Waiter {\n            fn a(self) -> u8 {\n"
        "                X\n            }\n        }\n    }\n}\n",
        # proptest's `fn f(x in 0..9) {`: a function the parse cannot read holds X.
        "impl S {\n    proptest! {\n        fn f(x in 0..9) {\n            X;\n"
        "        }\n    }\n}\n",
    ],
)
def test_a_block_of_an_item_a_macro_body_could_not_read_gets_no_scope(
    tmp_path: Path, source: str
) -> None:
    path = tmp_path / "w.rs"
    path.write_text(source)
    line = source.count("\n", 0, source.index("X")) + 1
    assert _scope(path, line) is None


def test_an_error_in_a_body_left_unclosed_counts_whatever_it_holds(tmp_path: Path) -> None:
    # `END_DUMP` hides dump's `}`: `deepest` is read inside it, with an error in its header.
    path = tmp_path / "d.c"
    path.write_text(
        "#define END_DUMP }\nvoid dump(int d)\n{\n  if (d)\n    puts(X);\nEND_DUMP\n\n"
        "int deepest(void) { return X; }\n"
    )
    assert _scope(path, 5) == [2]
    assert _scope(path, 8, 27) is None


def test_a_file_whose_parse_root_is_an_error_places_nothing(tmp_path: Path) -> None:
    # The root is an ERROR; inside it `class A` is no class_declaration, and the method
    # alone would have been printed without it (a chain that loses its outer class).
    path = tmp_path / "root.ts"
    path.write_text("[,abstract\nclass A {\n  m() {\n    return X;\n  }\n}\n")
    assert _scope(path, 4) is None
    path.write_text("class A {\n  m() {\n    return X;\n  }\n}\n")
    assert _scope(path, 3) == [1, 2]


# --- an error confined to its node in TypeScript (issue 39, item 11) ---------------------

VITEST = """\
import { vi } from 'vitest';

vi.mock('./x', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./x')>();
  return { ...actual };
});

import { X } from './needle';

describe('suite', () => {
  const y = X;
});

class Box {
  open() {
    return X;
  }
}
"""


def test_a_typescript_error_without_a_brace_is_confined_to_its_node(tmp_path: Path) -> None:
    # The grammar cannot read `importOriginal<typeof import('x')>()` (238 of gemini-cli's
    # 2,156 files): `>()` is an error in one statement, no brace in it. What follows is
    # placed: a column-0 import and a closure's line at the top level, a method in its class.
    path = tmp_path / "a.test.ts"
    path.write_text(VITEST)
    assert [_scope(path, n) for n in (8, 11, 16)] == [[], [], [14, 15]]
    # An error that holds a brace may be a header cut off its block: still no guess.
    path.write_text(VITEST.replace("<typeof import('./x')>()", "<typeof { import('./x')>()"))
    assert _scope(path, 8) is None
