"""Source trees in C, C++ and Rust written at test time (seeded), for D31/D48's figures
(tests/engine/test_scopes_trees.py): functions whose bodies nest blocks, loops, a
`switch`/`match`, local types, `#if` halves that each open a block, macro calls,
strings and comments holding braces, lambdas and closures, methods in classes and `impl`s
inside namespaces and modules: the shapes issue 31 met in git, lnav and tokio, in files
of this project's own, none fetched.
"""

import random
from collections.abc import Callable
from pathlib import Path

Writer = Callable[[random.Random, int], str]


_C_KINDS = ("plain", "if", "for", "switch", "ifdef", "macro", "text")
_C_WEIGHTS = (8, 4, 4, 2, 1, 2, 2)


def _c_statements(rng: random.Random, depth: int, indent: str) -> list[str]:
    """A body's statements: plain lines and, while `depth` lasts, nested blocks."""
    out: list[str] = []
    for _ in range(rng.randint(2, 5)):
        # `#if` halves as rare as in git's builtin/ (the line opening the second half is
        # declined: D31 reads the first branches).
        kind = rng.choices(_C_KINDS, weights=_C_WEIGHTS)[0]
        if depth == 0 or kind == "plain":
            out.append(f"{indent}total += value * {rng.randint(1, 99)};")
        elif kind == "if":
            out.append(f"{indent}if (value > {rng.randint(0, 9)}) {{")
            out += _c_statements(rng, depth - 1, indent + "    ")
            out.append(f"{indent}}} else {{")
            out.append(f"{indent}    total -= 1;")
            out.append(f"{indent}}}")
        elif kind == "for":
            out.append(f"{indent}for (int i = 0; i < {rng.randint(2, 9)}; i++) {{")
            out += _c_statements(rng, depth - 1, indent + "    ")
            out.append(f"{indent}}}")
        elif kind == "switch":
            out.append(f"{indent}switch (value) {{")
            out.append(f"{indent}case 1:")
            out.append(f"{indent}    total += 2;")
            out.append(f"{indent}    break;")
            out.append(f"{indent}default:")
            out.append(f"{indent}    break;")
            out.append(f"{indent}}}")
        elif kind == "ifdef":  # each half opens the same block
            out.append("#ifdef USE_FAST_PATH")
            out.append(f"{indent}if (value & 1) {{")
            out.append("#else")
            out.append(f"{indent}if (value & 2) {{")
            out.append("#endif")
            out += _c_statements(rng, depth - 1, indent + "    ")
            out.append(f"{indent}}}")
        elif kind == "macro":
            out.append(f"{indent}CHECK_RANGE(value, 0, {rng.randint(10, 99)});")
        else:
            out.append(f'{indent}log_line("{{ not a block }} /* nor a comment */");')
            out.append(f"{indent}/* a brace in a comment: {{ */")
    return out


def c_file(rng: random.Random, functions: int) -> str:
    lines = ["#include <stdio.h>", "", "#define CHECK_RANGE(v, lo, hi) ((void)0)", ""]
    lines += ["struct point {", "    int x;", "    int y;", "};", ""]
    for n in range(functions):
        static = rng.choice(["static ", ""])
        if rng.random() < 0.3:  # the return type on a line of its own, as git writes it
            lines += [f"{static}int", f"compute_{n}(int value, const char *name)"]
        else:
            lines.append(f"{static}int compute_{n}(int value, const char *name)")
        lines += ["{", "    int total = 0;"]
        if rng.random() < 0.3:
            lines += ["    struct local {", "        int a;", "    } here = {0};"]
        lines += _c_statements(rng, 3, "    ")
        lines += ["    return total;", "}", ""]
    return "\n".join(lines)


def cpp_file(rng: random.Random, functions: int) -> str:
    lines = ["#include <vector>", "", "namespace app {", "namespace detail {", ""]
    per_class = 4
    for c in range(0, functions, per_class):
        lines += [f"class Worker{c} {{", " public:"]
        for m in range(c, min(c + per_class, functions)):
            const = rng.choice([" const", ""])
            lines.append(f"    int method_{m}(int value){const} {{")
            lines.append("        int total = 0;")
            if rng.random() < 0.4:
                lines += [
                    "        auto twice = [&](int x) {",
                    "            return x * 2;",
                    "        };",
                    "        total += twice(value);",
                ]
            lines += _c_statements(rng, 3, "        ")
            lines += ["        return total;", "    }", ""]
        lines += ["};", ""]
    for n in range(functions // 2):
        lines += [
            "template <typename T>",
            f"T free_{n}(const std::vector<T>& values, int value) {{",
            "    T total{};",
        ]
        lines += _c_statements(rng, 2, "    ")
        lines += ["    return total;", "}", ""]
    lines += ["}  // namespace detail", "}  // namespace app", ""]
    return "\n".join(lines)


def _rust_statements(rng: random.Random, depth: int, indent: str) -> list[str]:
    out: list[str] = []
    for _ in range(rng.randint(2, 5)):
        kind = rng.choice(["plain", "plain", "if", "for", "match", "closure", "text"])
        if depth == 0 or kind == "plain":
            out.append(f"{indent}total += value * {rng.randint(1, 99)};")
        elif kind == "if":
            out.append(f"{indent}if value > {rng.randint(0, 9)} {{")
            out += _rust_statements(rng, depth - 1, indent + "    ")
            out.append(f"{indent}}} else {{")
            out.append(f"{indent}    total -= 1;")
            out.append(f"{indent}}}")
        elif kind == "for":
            out.append(f"{indent}for i in 0..{rng.randint(2, 9)} {{")
            out += _rust_statements(rng, depth - 1, indent + "    ")
            out.append(f"{indent}}}")
        elif kind == "match":
            out += [
                f"{indent}match value {{",
                f"{indent}    1 => total += 2,",
                f"{indent}    _ => {{",
                f"{indent}        total += 3;",
                f"{indent}    }}",
                f"{indent}}}",
            ]
        elif kind == "closure":
            out += [
                f"{indent}let twice = |x: i64| {{",
                f"{indent}    x * 2",
                f"{indent}}};",
                f"{indent}total += twice(value);",
            ]
        else:
            out.append(f'{indent}let _ = "{{ not a block }} // nor a comment";')
            out.append(f"{indent}// a brace in a comment: {{")
    return out


def rust_file(rng: random.Random, functions: int) -> str:
    lines = [
        "macro_rules! check {",
        "    ($v:expr) => {{ fn inside_a_macro() {} }};",
        "}",
        "",
        "pub mod runtime {",
        "    pub struct Worker {",
        "        pub id: i64,",
        "    }",
        "",
        "    impl Worker {",
    ]
    for n in range(functions):
        generic = rng.choice(["", "<T: Copy>"])
        lines.append(f"        pub fn step_{n}{generic}(&mut self, value: i64) -> i64 {{")
        lines.append("            let mut total = 0;")
        lines += _rust_statements(rng, 3, "            ")
        lines += ["            total", "        }", ""]
    lines += ["    }", "}", ""]
    return "\n".join(lines)


LANGUAGES: dict[str, tuple[str, Writer]] = {
    "c": (".c", c_file),
    "c++": (".cc", cpp_file),
    "rust": (".rs", rust_file),
}


def write_tree(root: Path, language: str, *, files: int = 12, functions: int = 24) -> Path:
    """`files` files of `functions` functions each in `language`, seeded by the language."""
    suffix, writer = LANGUAGES[language]
    rng = random.Random(f"asrch-scopes-{language}")
    root.mkdir(parents=True, exist_ok=True)
    for n in range(files):
        (root / f"part_{n}{suffix}").write_text(writer(rng, functions))
    return root
