"""The tree-sitter `Scopes` adapter (D31) on real files: the definitions it names, and
where it names none rather than guess."""

import subprocess
import sys
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_MAX_BYTES, SCOUT_SCOPE_MAX_BYTES
from asrch.domain.lines import Definition, Scope, SourceLine
from asrch.engine.scopes import LANGUAGES, TreeSitterScopes
from tests.support.source_lines import file_lines

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scopes"


def _of(file: str, lines: list[int], cwd: Path = FIXTURE) -> dict[int, tuple[Scope, ...] | None]:
    return TreeSitterScopes(cwd=str(cwd)).of(file, file_lines(cwd / file, lines)).scopes


def _headers(file: str, line: int, cwd: Path = FIXTURE) -> list[int] | None:
    found = _of(file, [line], cwd).get(line)
    return None if found is None else [s.line for s in found]


@pytest.mark.parametrize(
    ("file", "line", "headers"),
    [
        # Python: nested classes and functions; the innermost 3 kept.
        ("src/pool.py", 13, [9, 12]),
        ("src/pool.py", 17, [9, 16]),  # the def, not its decorator on line 15
        ("src/pool.py", 22, [19, 20, 21]),
        ("src/pool.py", 24, [9, 19, 20]),
        ("src/pool.py", 4, [3]),  # a top-level table spanning lines
        ("src/pool.py", 21, [9, 19, 20]),  # a header is not a scope of its own line
        ("src/pool.py", 1, []),
        # C: a struct, a table initializer, a function named on its second line.
        ("src/table.c", 7, [5]),
        ("src/table.c", 12, [10]),
        ("src/table.c", 20, [16]),
        ("src/table.c", 16, []),
        ("src/table.c", 24, []),  # a one-line function: its header is the line
        # Rust: mod, impl, fn; a closure is no definition.
        ("src/queue.rs", 14, [3, 8, 13]),
        ("src/queue.rs", 5, [3, 4]),
        ("src/queue.rs", 22, [20, 21]),
        # Go: a type, a var block, a method; a func literal is no definition.
        ("src/server.go", 4, [3]),
        ("src/server.go", 9, [8]),
        ("src/server.go", 15, [13]),
        # TypeScript and JavaScript.
        ("src/client.ts", 2, [1]),
        ("src/client.ts", 11, [6, 9]),
        ("src/client.ts", 17, [15, 16]),
        ("src/widget.js", 9, [6, 7, 8]),
        ("src/widget.js", 2, [1]),
        # CommonJS: a function defined by assignment; a call taking a closure is none.
        ("src/router.js", 5, [3]),
        ("src/router.js", 10, []),
        ("src/router.js", 13, []),
        # Java: the method's name line, not its annotation; a lambda is no definition.
        ("src/Scheduler.java", 8, [3, 7]),
        ("src/Scheduler.java", 13, [3, 11, 12]),
        # Ruby: module, class, `class << self`, def.
        ("src/mailer.rb", 10, [1, 2, 7]),
        ("src/mailer.rb", 16, [2, 14, 15]),
    ],
)
def test_the_definitions_around_a_line(file: str, line: int, headers: list[int]) -> None:
    assert _headers(file, line) == headers


def test_a_header_is_the_line_as_in_the_file() -> None:
    found = _of("src/table.c", [20])
    assert found[20] == (Scope(line=16, text=b"backoff(int attempt)", name=(0, 7)),)


def test_a_file_without_a_grammar_gets_none() -> None:
    assert _of("src/notes.txt", [1, 2, 3]) == {}


def test_a_line_past_the_end_gets_none() -> None:
    assert _of("src/pool.py", [500]) == {500: None}


def test_a_missing_file_gets_none(tmp_path: Path) -> None:
    lines = [SourceLine(1, b"x\n", True)]
    assert TreeSitterScopes(cwd=str(tmp_path)).of("gone.py", lines).scopes == {1: None}


def test_a_file_above_the_size_limit_gets_none(tmp_path: Path) -> None:
    body = "def f():\n" + "    x = 1\n" * (SCOPE_MAX_BYTES // 10 + 1)
    (tmp_path / "big.py").write_text(body)
    assert _of("big.py", [2], tmp_path) == {2: None}
    (tmp_path / "small.py").write_text("def f():\n    x = 1\n")
    assert _headers("small.py", 2, tmp_path) == [1]


def test_a_file_above_the_bound_asked_for_is_not_parsed_and_says_so(tmp_path: Path) -> None:
    """Issue 39: scout's listing asks with `SCOUT_SCOPE_MAX_BYTES`; a file above it gets
    no entry at all (no `N=(unknown)`) and `too_large`; one at the bound is parsed."""
    head = "def f():\n"
    line = "    x = " + "1" * 91 + "\n"  # 100 bytes: few nodes a byte, in the parse's bounds
    body = head + line * ((SCOUT_SCOPE_MAX_BYTES - len(head)) // len(line))
    (tmp_path / "at.py").write_text(body + "\n" * (SCOUT_SCOPE_MAX_BYTES - len(body)))
    (tmp_path / "over.py").write_text(body + "\n" * (SCOUT_SCOPE_MAX_BYTES - len(body) + 1))
    reader = TreeSitterScopes(cwd=str(tmp_path))
    at = reader.of("at.py", file_lines(tmp_path / "at.py", [2]), SCOUT_SCOPE_MAX_BYTES)
    assert [s.line for s in at.scopes[2] or ()] == [1] and not at.too_large
    over = reader.of("over.py", file_lines(tmp_path / "over.py", [2]), SCOUT_SCOPE_MAX_BYTES)
    assert over.scopes == {} and over.too_large
    assert _headers("over.py", 2, tmp_path) == [1]  # show's bound: parsed


def test_crlf_lines_are_placed_and_their_headers_cut_at_the_ending(tmp_path: Path) -> None:
    (tmp_path / "w.py").write_bytes(b"class A:\r\n    def f(self):\r\n        return 1\r\n")
    found = _of("w.py", [3], tmp_path)
    assert found[3] == (Scope(1, b"class A:", (6, 7)), Scope(2, b"    def f(self):", (8, 9)))


@pytest.mark.parametrize(
    ("file", "line", "column", "heads"),
    [
        ("src/tasks.py", 8, 4, True),  # `def run_task(` at column 0
        ("src/tasks.py", 4, None, True),  # placed at its first byte, `def`
        ("src/tasks.py", 13, None, True),  # indented (in a top-level `if`): the renderer's call
        ("src/tasks.py", 17, None, False),  # a statement, no definition
        ("src/tasks.py", 14, None, False),  # inside `trace_task`: not a top-level line
        ("src/pool.py", 12, None, True),  # a method's header, after its indentation
        ("src/pool.py", 15, None, False),  # a decorator: the def is named on line 16
        ("src/pool.py", 3, None, True),  # `LIMITS = {`, a top-level table
        ("src/table.c", 16, None, True),  # `backoff(`, its return type on line 15
        ("src/table.c", 15, None, False),  # `static int`: named on the next line
        ("src/table.c", 24, 31, True),  # `int retry_count(void) { return RETRY_MAX; }`
        ("src/limits.c", 7, 6, False),  # `} int retry_cap(void)`: after the brace
        ("src/server.go", 20, None, True),  # `func Serve(`
        ("src/queue.rs", 3, None, True),  # `pub mod jobs {`
        ("src/queue.rs", 4, None, True),  # `    pub struct Queue {` inside the module
        ("src/client.ts", 6, 13, True),  # `export class Client {`: the export around it
    ],
)
def test_a_line_that_begins_with_its_own_header(
    file: str, line: int, column: int | None, heads: bool
) -> None:
    """D48, spec/scopes section 4: such a line says itself where it is (no mark at column
    0, no header again indented as the sibling it follows: render/snippets.py)."""
    at = None if column is None else {line: column}
    found = TreeSitterScopes(cwd=str(FIXTURE)).of(file, file_lines(FIXTURE / file, [line], at=at))
    assert found.scopes[line] is not None
    assert (line in found.heads) is heads


# --- truth first: an error that makes the enclosing node uncertain gives no scope -----


def test_a_line_inside_an_error_gets_none(tmp_path: Path) -> None:
    (tmp_path / "e.py").write_text("def broken(:\n    y = 2\n    return y\n\ndef ok():\n    pass\n")
    assert _headers("e.py", 2, tmp_path) is None
    # An error in another definition does not make this one uncertain.
    assert _headers("e.py", 6, tmp_path) == [5]


def test_an_unclosed_body_encloses_only_the_lines_before_its_first_error(
    tmp_path: Path,
) -> None:
    # Where the body ends is a guess, where it starts is not (a macro may hide its `}`).
    (tmp_path / "u.c").write_text("int f(void)\n{\n  int x = 1;\n  return x;\n")
    assert _headers("u.c", 3, tmp_path) == [1]
    (tmp_path / "v.c").write_text("int f(void)\n{\n  int x = 1;\n  ) x;\n  return x;\n")
    assert _headers("v.c", 3, tmp_path) == [1]
    assert _headers("v.c", 5, tmp_path) is None


def test_the_semicolon_invented_after_a_loop_macro_is_no_error(tmp_path: Path) -> None:
    # `each(i, n) {` reads as a call missing its `;`, then a block: no brace moved.
    (tmp_path / "l.c").write_text(
        "int f(int n)\n{\n  n++;\n  each(i, n) {\n    use(i);\n  }\n  return n;\n}\n"
    )
    assert _headers("l.c", 7, tmp_path) == [1]
    # Any other invented `;` still counts: it may be a header read as a statement.
    (tmp_path / "d.c").write_text("int f(int n)\n{\n  n++;\n  n = n\n  return n;\n}\n")
    assert _headers("d.c", 5, tmp_path) is None


def test_an_error_before_the_line_in_its_definition_gets_none(tmp_path: Path) -> None:
    # The broken line may have been a header (`def inner(:`) that should enclose line 4.
    (tmp_path / "b.py").write_text(
        "class A:\n    def f(self):\n        def inner(:\n            return 1\n"
    )
    assert _headers("b.py", 4, tmp_path) is None


def test_an_error_after_the_line_or_in_another_function_does_not_matter(tmp_path: Path) -> None:
    (tmp_path / "m.c").write_text(
        "int f(void)\n{\n  return 1;\n  FOO BAR BAZ(;\n}\n\nint g(void)\n{\n  return 2;\n}\n"
    )
    assert _headers("m.c", 3, tmp_path) == [1]
    assert _headers("m.c", 9, tmp_path) == [7]


def test_a_macro_block_is_no_nested_c_function(tmp_path: Path) -> None:
    # tree-sitter reads `FOREACH(x) {` as a function definition; C has no nested ones.
    (tmp_path / "k.c").write_text("int f(void)\n{\n  FOREACH(x) {\n    use(x);\n  }\n}\n")
    assert _headers("k.c", 4, tmp_path) == [1]


def test_every_language_of_the_table_loads() -> None:
    from asrch.engine.scopes import _language

    for grammar in set(LANGUAGES.values()):
        assert _language(grammar) is not None


def test_a_struct_inside_a_c_function_is_a_definition(tmp_path: Path) -> None:
    (tmp_path / "s.c").write_text(
        "int f(void)\n{\n  struct pair {\n    int a;\n  };\n  return 0;\n}\n"
    )
    assert _headers("s.c", 4, tmp_path) == [1, 3]


def test_a_pointer_returning_function_is_named_on_its_name_line(tmp_path: Path) -> None:
    (tmp_path / "p.c").write_text("const char *\nname_of(int x)\n{\n  return 0;\n}\n")
    assert _headers("p.c", 4, tmp_path) == [2]


def test_a_top_level_declaration_beside_an_error_gets_none(tmp_path: Path) -> None:
    # Where recovery left an ERROR among the top-level nodes, a "declaration" there may be
    # the tail of a body cut short (curl's netrc.c: `#ifdef` halves of one function); an
    # error-free function beside it keeps its scope.
    (tmp_path / "h.c").write_text(
        "int f(void)\n{\n  return 0;\n}\n}\nint t[] = {\n  1,\n};\nint g(void)\n{\n  return 1;\n}\n"
    )
    assert _headers("h.c", 7, tmp_path) is None
    assert _headers("h.c", 11, tmp_path) == [9]


def test_a_header_is_read_as_cpp(tmp_path: Path) -> None:
    # A `.h` may be C++: read as C, `namespace n {` would be a "function" hiding `f`.
    (tmp_path / "n.h").write_text("namespace n {\nstatic int f(int a) {\n  return a;\n}\n}\n")
    assert _headers("n.h", 3, tmp_path) == [1, 2]


def test_a_clean_c_function_inside_an_error_keeps_its_scope(tmp_path: Path) -> None:
    # The `#if` halves open 2 blocks that 1 brace closes: tree-sitter wraps the file in
    # an ERROR. `f` parsed cleanly and C nests no function: its lines keep their scope.
    # `g` is read in the first branch: each opens 1 block, so `g` ends at the same brace
    # whichever is taken; a macro block in it is no function. A branch not taken that
    # holds a brace (line 6) is not read. Without an `#else` (`h.c`), the missing branch
    # opens none: `g` is not placed.
    (tmp_path / "e.c").write_text(
        "void g(void)\n{\n#if X\n  if (a) {\n#else\n  if (b) {\n#endif\n"
        "  FOREACH(x) {\n    use(x);\n  }\n  }\n}\nint f(void)\n{\n  return 1;\n}\n"
    )
    assert _headers("e.c", 15, tmp_path) == [13]
    assert [_headers("e.c", n, tmp_path) for n in (4, 6, 9)] == [[1], None, [1]]
    (tmp_path / "h.c").write_text(
        "void g(void)\n{\n#if X\n  if (a) {\n#endif\n  {\n  FOREACH(x) {\n    use(x);\n"
        "  }\n  }\n}\nint f(void)\n{\n  return 1;\n}\n"
    )
    assert [_headers("h.c", n, tmp_path) for n in (4, 8, 14)] == [None, None, [12]]


def test_a_grammar_package_imported_after_its_binding_is_whole() -> None:
    # The binding is loaded without the package's __init__ (engine/scopes/grammars.py, `_binding`);
    # whoever imports the package afterwards gets all of it.
    program = (
        "from asrch.engine.scopes import PYTHON, _language\n"
        "_language(PYTHON)\n"
        "import tree_sitter_python as g\n"
        "assert callable(g.language) and 'function' in g.TAGS_QUERY\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


_GUARDED_HH = """\
#ifndef GUARD_HH
#define GUARD_HH
#if defined(USE_A)
class Pool : public A {
#else
class Pool : public B {
#endif
public:
    int size() const
    {
        return n;
    }
    int n;
};
int grow(int a)
{
#ifdef FAST
    a *= 2;
#else
    a += 1;
#endif
#if SLOW
    a -= 1;
#else
    if (a) {
        a += 1;
    }
#endif
    return a;
}
#if defined(WIDE)
int shrink(long a)
#else
int shrink(int a)
#endif
{
    return a - 1;
}
#endif
"""


def test_cpp_lines_an_if_group_hides_are_read_in_its_first_branch(tmp_path: Path) -> None:
    # The 2 headers of `Pool` make tree-sitter wrap the whole `#ifndef` in 1 ERROR (lnav's
    # pugixml.cpp). With the first branch of each `#if` taken, `grow` parses whole, and
    # its groups are balanced inside its body: its lines are in `grow` in every
    # configuration, a branch not taken too when it holds no brace (line 20; not line 26).
    # `Pool` outlives the group that holds its header and `shrink`'s header differs by
    # branch: no scope.
    (tmp_path / "p.hh").write_text(_GUARDED_HH)
    assert [_headers("p.hh", n, tmp_path) for n in (18, 20, 23, 29)] == [[15]] * 4
    assert [_headers("p.hh", n, tmp_path) for n in (11, 13, 26, 37)] == [None] * 4


def test_a_group_that_moves_a_brace_places_nothing_across_it(tmp_path: Path) -> None:
    # With `X`, line 9 is in `g`; without it, in `f`: neither is claimed.
    (tmp_path / "m.cc").write_text(
        "class C {\n#if Y\n};\n#endif\n"
        "int f(int a)\n{\n#ifdef X\n    return a;\n}\nint g(int a)\n{\n#endif\n"
        "    return a + 1;\n}\n"
    )
    assert [_headers("m.cc", n, tmp_path) for n in (8, 13)] == [None, None]


def test_show_scope_reads_the_first_branch_alike(tmp_path: Path) -> None:
    (tmp_path / "p.hh").write_text(_GUARDED_HH)
    scopes = TreeSitterScopes(cwd=str(tmp_path))
    assert scopes.around("p.hh", 29) == Definition(15, 30)
    assert scopes.around("p.hh", 11) == "uncertain"


def test_a_macro_before_a_cpp_return_type_keeps_the_scope(tmp_path: Path) -> None:
    # `API T name(...)` reads as `T::name` with a `::` tree-sitter invents: no brace moves.
    (tmp_path / "a.cc").write_text(
        "API xpath_string string_value(const node& n)\n{\n    return xpath_string(n);\n}\n"
    )
    assert _headers("a.cc", 3, tmp_path) == [1]


def test_an_error_without_a_brace_beside_a_function_cuts_no_body(tmp_path: Path) -> None:
    # lnav's readline_callbacks.cc: strings pasted from macros make a top-level ERROR that
    # holds no brace; a function beside it with an error further down keeps the lines
    # before that error. A stray `}` beside it still refuses (the test above). Braces in
    # strings are no braces: the error on line 7 is confined to its call, on line 8 not.
    (tmp_path / "s.cc").write_text(
        "int a = 1;\n@ b;\n\nint show(int a)\n{\n    int b = a;\n"
        '    auto t = format(FMT(BOLD("{} {}") " -- {}" MSG), a, b);\n'
        '    auto u = format(FMT(BOLD({ 1 }) " -- " MSG), a, b);\n    return b;\n}\n'
    )
    assert [_headers("s.cc", n, tmp_path) for n in (6, 8, 9)] == [[4], [4], None]


def test_a_label_a_directive_follows_moves_no_brace(tmp_path: Path) -> None:
    # re2c's output (lnav's log_level_re.cc): tree-sitter invents the label's `;`.
    (tmp_path / "r.cc").write_text(
        'int scan(const char *p)\n{\nloop:\n#line 4 "r.re"\n{\n    if (*p++) goto loop;\n'
        "}\n    return 0;\n}\n"
    )
    assert [_headers("r.cc", n, tmp_path) for n in (6, 8)] == [[1], [1]]


def test_the_rest_of_a_body_an_error_cut_short_is_no_top_level(tmp_path: Path) -> None:
    # lnav's line_buffer.cc: `#endif` then `else {` reads as a literal whose `}` is
    # missing, and the function's next `}` ends it: lines 15-18 were read as top-level
    # statements. An error in an earlier sibling makes "the top level" a guess; with the
    # `#ifdef` (balanced) in its first branch, they are in `f`.
    (tmp_path / "e.cc").write_text(
        "int f(int a)\n{\n    if (a) {\n        a = 1;\n    }\n#ifdef X\n"
        "    else if (a > 2)\n    {\n        a = 2;\n    }\n#endif\n    else {\n"
        "        a = 3;\n    }\n    if (a > 4) {\n        a = 5;\n    }\n    return a;\n}\n"
    )
    assert [_headers("e.cc", n, tmp_path) for n in (13, 16, 18)] == [[1], [1], [1]]


def test_a_clean_cpp_function_inside_a_misread_one_keeps_its_scope(tmp_path: Path) -> None:
    # pugixml.cpp: `PUGI__NS_END` (a macro that closes namespaces) then `namespace pugi {`
    # reads as 1 function, whose body holds the namespace's functions and, on line 10, an
    # error. A C++ function sits right in a block only there: `traverse` (a return type,
    # no error) gives its lines their scope; the misread one gives none.
    (tmp_path / "n.cc").write_text(
        "PUGI__NS_BEGIN\n\tstruct name_setter\n\t{\n\t\tvoid set(node* n) { n->name = 0; }\n"
        "\t};\nPUGI__NS_END\n\nnamespace pugi\n{\n\tPUGI__FN xml_writer_stream::xml_writer_"
        "stream(std::ostream& stream): narrow_stream(&stream), wide_stream(0)\n\t{\n\t}\n\n"
        "\tPUGI__FN bool xml_node::traverse(xml_tree_walker& walker)\n\t{\n"
        "\t\twalker._depth = -1;\n\t\treturn true;\n\t}\n}\n"
    )
    assert [_headers("n.cc", n, tmp_path) for n in (16, 17, 11)] == [[14], [14], None]


def test_a_name_tree_sitter_invents_moves_no_brace(tmp_path: Path) -> None:
    # lnav's logfile.hh: `opts = {}` reads as a `{}` whose type is missing; the class's
    # methods after it keep their scope.
    (tmp_path / "l.hh").write_text(
        "class logfile {\npublic:\n    int read_line(int ll, options opts = {});\n\n"
        "    int line_base(int ll)\n    {\n        auto retval = ll;\n        return retval;\n"
        "    }\n};\n"
    )
    assert _headers("l.hh", 7, tmp_path) == [1, 5]


# --- `#if` branches that open different definitions (issue 39, item 8; D48) --------------

IF_BRANCHES = [
    # The file: the whole parse is 1 error around a clean `beta`; gcc -E puts
    # lines 8-9 in `alpha`: which definition holds them depends on the configuration.
    (
        "int f0(void);\n#if 1\nint alpha(void) {\n  int a = 1;\n#else\nint beta(void) {\n"
        "  int b = 2;\n#endif\n  int X = 1;\n  return X;\n}\n",
        {9: None, 10: None},
    ),
    # One header per branch, the same function: still 2 header lines, unknown.
    (
        "#ifdef WIDE\nint g(long a) {\n#else\nint g(int a) {\n#endif\n  return X;\n}\n",
        {6: None},
    ),
    # A definition whole in one branch, the #else one included: certain.
    (
        "#if A\nint h(void) {\n  return 1;\n}\n#else\nint h(void) {\n  return X;\n}\n#endif\n",
        {7: [6]},
    ),
    # A group in the body, even in braces, before the line: certain.
    (
        "int k(void) {\n#if A\n  if (a) {\n#else\n  if (b) {\n#endif\n  }\n  return X;\n}\n",
        {8: [1]},
    ),
    # A group the body holds after the line changes nothing before it: certain.
    (
        "int m(void) {\n  return X;\n#if A\n  if (a) {\n#endif\n  }\n}\n",
        {2: [1]},
    ),
    # A table whose initializer holds a group (no `body` field: its first `{`): certain.
    (
        "static const int t[] = {\n  1,\n#if A\n  2,\n#endif\n  3,\n  X,\n};\n",
        {7: [1]},
    ),
]


@pytest.mark.parametrize(("source", "expected"), IF_BRANCHES)
def test_a_definition_is_placed_only_where_every_configuration_has_it_whole(
    tmp_path: Path, source: str, expected: dict[int, list[int] | None]
) -> None:
    (tmp_path / "c.c").write_text(source)
    assert {line: _headers("c.c", line, tmp_path) for line in expected} == expected
