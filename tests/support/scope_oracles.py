"""Oracles for D31/D48 on real trees: which functions enclose each code line, told
apart from tree-sitter. C and C++ by Universal Ctags (`--fields=+ne`: first and last
line; the first is the line of the name); Rust by a small lexer of its own (ctags' Rust
parser gives no last line): every `fn` outside comments, strings and `macro_rules!`
bodies, and its body's braces.

`figures` gives, over the code lines inside a function (strictly after its name's line),
how many get that innermost function's header among their scope lines, and how many are
wrong: their scope names a function that does not enclose them.
"""

import collections
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

import pytest

Span = tuple[int, int]
"""A function's name line and last line, 1-based."""


class Figures(NamedTuple):
    lines: int
    """Code lines inside a function (the oracle's)."""
    placed: int
    """Of those, lines whose scope lines include their innermost function's header."""
    declined: int
    """Lines the adapter did not place (no scope: a claim it did not make)."""
    wrong: list[str]
    """`path:line: scope [...], functions [...]` for each line whose scope names a
    function that does not enclose it."""

    @property
    def share(self) -> float:
        return self.placed / self.lines if self.lines else 0.0


def ctags() -> str | None:
    for name in ("ctags-universal", "universal-ctags", "ctags"):
        found = shutil.which(name)
        if found:
            done = subprocess.run([found, "--version"], capture_output=True, text=True, check=False)
            if "Universal Ctags" in done.stdout:
                return found
    return None


def ctags_or_skip() -> str:
    """Universal Ctags, or the test skipped saying it is missing: failed under CI, where
    `.ci/run` installs it (not checked there is a failure)."""
    program = ctags()
    if program is None:
        missing = "Universal Ctags is not installed (Debian package universal-ctags)"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    return program


def ctags_functions(program: str, language: str, files: list[Path]) -> dict[Path, list[Span]]:
    """Function spans by file; C++ lambdas (`__anon…`) are no definitions (D31)."""
    options = [
        f"--languages={language}",
        f"--kinds-{language}=f",
        "--output-format=json",
        "--fields=+ne",
        "--sort=no",
    ]
    done = subprocess.run(
        [program, *options, "-f", "-", *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    spans: dict[Path, list[Span]] = collections.defaultdict(list)
    for line in done.stdout.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "end" not in tag or tag["name"].startswith("__anon"):
            continue
        spans[Path(tag["path"])].append((tag["line"], tag["end"]))
    return spans


_RUST_TOKEN = re.compile(
    rb"""
      (?P<comment>//[^\n]*)
    | (?P<block>/\*)
    | (?P<raw>b?r(?P<hashes>\#*)")
    | (?P<string>b?"(?:[^"\\]|\\.)*")
    | (?P<char>b?'(?:[^'\\\n]|\\[^\n]{1,10}?)')
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*!?)
    | (?P<open>[{(\[])
    | (?P<close>[})\]])
    | (?P<semi>;)
    """,
    re.X | re.S,
)


def _rust_tokens(source: bytes) -> Iterable[tuple[str, bytes, int]]:
    """(kind, text, offset) of the tokens that matter; comments and literals skipped."""
    at = 0
    while True:
        m = _RUST_TOKEN.search(source, at)
        if m is None:
            return
        kind = m.lastgroup or ""
        if m.group("block") is not None:
            depth, at = 1, m.end()
            while depth and at < len(source):
                nxt = re.compile(rb"/\*|\*/").search(source, at)
                if nxt is None:
                    return
                depth += 1 if nxt.group() == b"/*" else -1
                at = nxt.end()
            continue
        if m.group("raw") is not None:
            end = source.find(b'"' + m.group("hashes"), m.end())
            at = len(source) if end < 0 else end + 1 + len(m.group("hashes"))
            continue
        at = m.end()
        if kind in ("comment", "string", "char", "hashes"):
            continue
        yield kind, m.group(), m.start()


def rust_functions(source: bytes) -> list[Span]:
    """Every `fn` with a body, outside `macro_rules!` bodies: (name line, closing line)."""
    tokens = list(_rust_tokens(source))
    spans: list[Span] = []
    skip_until = -1
    for i, (kind, text, _offset) in enumerate(tokens):
        if i <= skip_until:
            continue
        if text == b"macro_rules!":
            skip_until = _matching(tokens, _next_open(tokens, i))
            continue
        if not (kind == "word" and text == b"fn" and i + 1 < len(tokens)):
            continue
        if tokens[i + 1][0] != "word":
            continue  # a function pointer's type: `unsafe fn(NonNull<Header>)`
        # The body: the first `{` outside parentheses and brackets, unless a `;` comes first.
        depth = 0
        for j in range(i + 1, len(tokens)):
            k, t, _ = tokens[j]
            if k == "open" and t != b"{":
                depth += 1
            elif k == "close" and t != b"}":
                depth -= 1
            elif depth == 0 and k == "semi":
                break
            elif depth == 0 and t == b"{":
                end = _matching(tokens, j)
                name_offset = tokens[i + 1][2]
                spans.append(
                    (
                        source.count(b"\n", 0, name_offset) + 1,
                        source.count(b"\n", 0, tokens[end][2]) + 1,
                    )
                )
                break
    return spans


def _next_open(tokens: list[tuple[str, bytes, int]], i: int) -> int:
    for j in range(i + 1, len(tokens)):
        if tokens[j][0] == "open":
            return j
    return len(tokens) - 1


def _matching(tokens: list[tuple[str, bytes, int]], i: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j][0] == "open":
            depth += 1
        elif tokens[j][0] == "close":
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1


def code_lines(source: bytes) -> list[int]:
    comment = (b"#", b"/*", b"*", b"//")
    lines = source.split(b"\n")
    return [n for n, ln in enumerate(lines, 1) if ln.strip() and not ln.strip().startswith(comment)]


Placer = Callable[[Path, list[int]], dict[int, list[int] | None]]
"""path, lines -> each line's scope header lines (None: not placed)."""


def figures(functions: dict[Path, list[Span]], place: Placer) -> Figures:
    lines = placed = declined = 0
    wrong: list[str] = []
    for path, spans in sorted(functions.items()):
        source = path.read_bytes()
        asked = [n for n in code_lines(source) if any(s < n <= e for s, e in spans)]
        found = place(path, asked)
        starts = {s for s, _ in spans}
        for n in asked:
            around = sorted(s for s, e in spans if s < n <= e)
            lines += 1
            got = found.get(n)
            if got is None:
                declined += 1
                continue
            if around[-1] in got:
                placed += 1
            if any(g in starts and g not in around for g in got):
                wrong.append(f"{path}:{n}: scope {got}, functions {around}")
    return Figures(lines, placed, declined, wrong)
