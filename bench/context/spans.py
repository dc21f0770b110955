"""An answer in a tree that is not Python, resolved to a file and a line range by text.

The tree is pinned to one commit (the task set says which), so a name is found by plain
reading of that file, no parser needed:

- `PATH:NAME` names a definition in PATH: a C function (the line where `NAME(` starts
  at column 0 after its return type, up to the first line that is `}` alone; a
  prototype, which ends in `;` before any `{`, is not a definition), a `#define NAME`
  (with its `\\` continuation lines), or a top-level initializer `… NAME[] = {` /
  `… NAME = {` (up to the first line that is `};`).
- `PATH@TEXT` names the one line of PATH holding TEXT (a setting inside a function, a
  sentence in a document).

A name or text found twice in the file is refused, as `answers.resolve` refuses a
Python name defined twice: a task must be unambiguous.
"""

import re
from pathlib import Path

from bench.context.answers import Location, UnresolvedAnswerError


def _lines(tree: Path, path: str) -> list[str]:
    file = tree / path
    if not file.is_file():
        raise UnresolvedAnswerError(f"{path} is not a file under {tree}")
    return file.read_text(encoding="utf-8", errors="surrogateescape").splitlines()


def _one(found: list[Location], what: str) -> Location:
    if not found:
        raise UnresolvedAnswerError(f"{what} is not there")
    if len(found) > 1:
        where = ", ".join(str(f.start) for f in found)
        raise UnresolvedAnswerError(f"{what} is found {len(found)} times (lines {where})")
    return found[0]


def _closing(lines: list[str], start: int, closer: str) -> int:
    """The 1-based number of the first line from index `start` that is `closer` alone."""
    for index in range(start, len(lines)):
        if lines[index].rstrip() == closer:
            return index + 1
    raise UnresolvedAnswerError(f"no closing {closer!r} after line {start + 1}")


def _definitions(path: str, lines: list[str], name: str) -> list[Location]:
    escaped = re.escape(name)
    function = re.compile(rf"^[A-Za-z_].*(?<![A-Za-z0-9_]){escaped}\(")
    define = re.compile(rf"^#\s*define\s+{escaped}\b")
    table = re.compile(rf"^[A-Za-z_].*(?<![A-Za-z0-9_]){escaped}(\[\])?\s*=\s*\{{\s*$")
    found: list[Location] = []
    for index, line in enumerate(lines):
        number = index + 1
        if define.match(line):
            end = index
            while lines[end].rstrip().endswith("\\") and end + 1 < len(lines):
                end += 1
            found.append(Location(path, number, end + 1))
        elif table.match(line):
            found.append(Location(path, number, _closing(lines, index + 1, "};")))
        elif function.match(line):
            # The declaration runs until a line ends in `;` (a prototype) or opens the body.
            for head in range(index, len(lines)):
                text = lines[head].rstrip()
                if text.endswith(";"):
                    break
                if text.endswith("{") or (head + 1 < len(lines) and lines[head + 1] == "{"):
                    found.append(Location(path, number, _closing(lines, head + 1, "}")))
                    break
    return found


def resolve(tree: Path, answer: str) -> Location:
    if "@" in answer and (":" not in answer or answer.index("@") < answer.index(":")):
        path, _, text = answer.partition("@")
        lines = _lines(tree, path)
        found = [Location(path, i + 1, i + 1) for i, line in enumerate(lines) if text in line]
        return _one(found, f"{answer!r}")
    path, colon, name = answer.partition(":")
    if not colon or not path or not name:
        raise UnresolvedAnswerError(f"{answer!r} is not of the form PATH:NAME or PATH@TEXT")
    try:
        return _one(_definitions(path, _lines(tree, path), name), f"{name} in {path}")
    except UnresolvedAnswerError as error:
        raise UnresolvedAnswerError(f"{answer}: {error}") from None
