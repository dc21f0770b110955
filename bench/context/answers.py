"""An answer's qualified name resolved with `ast` to a file and a line range.

`pkg.mod:Class.method` names a definition (function, class, or an assignment to a name,
the last part only) found by walking the module's statements: into classes and function
bodies by name, and through `if`/`try`/`with`/`for`/`while` blocks at each level, as
definitions made under a platform check live there. Alternatives separated by ` | ` are
tried in order (a name that moved between Python versions); the first that resolves wins.
A name defined twice in one scope is ambiguous and refused: a task must say which.
"""

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


class UnresolvedAnswerError(LookupError):
    """The qualified name names nothing (or two things) in this interpreter's stdlib."""


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    """Relative to the tree, `/`-separated, as both policies print it."""
    start: int
    end: int

    def holds(self, path: str, line: int) -> bool:
        return path == self.path and self.start <= line <= self.end


def module_path(tree: Path, module: str) -> Path:
    """`a.b` is `a/b.py` or `a/b/__init__.py` under the tree."""
    base = tree.joinpath(*module.split("."))
    for candidate in (base.with_name(base.name + ".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise UnresolvedAnswerError(f"module {module} has no source file under {tree}")


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of one scope, through compound blocks that open no new scope."""
    for node in body:
        yield node
        blocks: list[list[ast.stmt]] = []
        if isinstance(node, ast.If | ast.For | ast.AsyncFor | ast.While):
            blocks = [node.body, node.orelse]
        elif isinstance(node, ast.With | ast.AsyncWith):
            blocks = [node.body]
        elif isinstance(node, ast.Try | ast.TryStar):
            blocks = [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]
        for block in blocks:
            yield from _statements(block)


def _assigned(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def _find(body: list[ast.stmt], name: str, last: bool) -> ast.stmt:
    found: list[ast.stmt] = []
    for node in _statements(body):
        if (isinstance(node, Definition) and node.name == name) or (
            last and name in _assigned(node)
        ):
            found.append(node)
    if not found:
        raise UnresolvedAnswerError(f"{name} is not defined there")
    if len(found) > 1:
        lines = ", ".join(str(n.lineno) for n in found)
        raise UnresolvedAnswerError(f"{name} is defined {len(found)} times (lines {lines})")
    return found[0]


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def resolve_one(tree: Path, qualified: str) -> Location:
    module, colon, qualname = qualified.strip().partition(":")
    if not colon or not module or not qualname:
        raise UnresolvedAnswerError(f"{qualified!r} is not of the form pkg.mod:Name.name")
    path = module_path(tree, module)
    body = ast.parse(path.read_bytes(), filename=str(path)).body
    parts = qualname.split(".")
    node: ast.stmt | None = None
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        try:
            node = _find(body, part, last)
        except UnresolvedAnswerError as error:
            raise UnresolvedAnswerError(f"{qualified}: {error}") from None
        if not last:
            assert isinstance(node, Definition)  # only a definition is found by a non-last part
            body = node.body
    assert node is not None and node.end_lineno is not None
    return Location(path.relative_to(tree).as_posix(), _first_line(node), node.end_lineno)


def resolve(tree: Path, answer: str) -> Location:
    """The first alternative of `answer` that resolves in this tree."""
    reasons = []
    for alternative in answer.split(" | "):
        try:
            return resolve_one(tree, alternative)
        except UnresolvedAnswerError as error:
            reasons.append(str(error))
    raise UnresolvedAnswerError("; ".join(reasons))
