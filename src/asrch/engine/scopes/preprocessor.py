"""A C/C++ file's `#if` groups, read from its directive lines: where each group and each
of its branches lies, whether its branches are even in braces, the file with each group's
first branch taken (`first_branches`), and whether a definition is the same whole
definition in every configuration that has it (`within_one_branch`)."""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from tree_sitter import Node

    from asrch.engine.scopes.parse import Budget


_CONDITIONAL = re.compile(
    rb"^[ \t]*#[ \t]*(ifdef|ifndef|if|elifdef|elifndef|elif|else|endif)\b", re.MULTILINE
)
_ELSE = re.compile(rb"[ \t]*#[ \t]*else\b")
_BLANK = bytes.maketrans(bytes(range(256)), b" " * 10 + b"\n" + b" " * 245)
"""Every byte a space, but a line break."""


class Group(NamedTuple):
    """One `#if` ... `#endif` of a file, in bytes: where it starts and ends (its directive
    lines included), the part its first branch keeps (after the `#if` line up to the
    group's next directive), and whether its branches are even in braces: none closes more
    than it opened, and each leaves as many open (none without an `#else`, whose missing
    branch is empty): what follows the group is in the same blocks whichever is taken."""

    start: int
    kept: tuple[int, int]
    end: int
    even: bool
    branches: tuple[tuple[int, int], ...] = ()
    """Each branch, between 2 directive lines (the first is `kept`)."""


def _line_end(data: bytes, offset: int) -> int:
    """The end of the directive line at `offset`, its `\\`-continued lines included."""
    end = data.find(b"\n", offset)
    while end > 0 and data[end - 1 : end] == b"\\":
        end = data.find(b"\n", end + 1)
    return len(data) if end < 0 else end


def _opened(text: bytes) -> int | None:
    """How many blocks `text` leaves open (None: it closes one it did not open). A brace
    in a string, a character or a comment is none (fmt's `'{'`)."""
    depth = 0
    for brace in _BRACES.findall(text):
        if not brace:
            continue
        depth += 1 if brace == b"{" else -1
        if depth < 0:
            return None
    return depth


_BRACES = re.compile(
    rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/|([{}])', re.DOTALL
)
"""A string, a character, a comment (skipped), or a brace (its group)."""


def read_groups(data: bytes, budget: Budget) -> list[Group] | None:
    """The `#if` groups of `data`, None if its directives do not pair up (each directive
    line read counts as 4 visits of `budget`)."""
    opened: list[list[int]] = []  # each open group's directive lines: start, end, start, …
    groups: list[Group] = []
    for found in _CONDITIONAL.finditer(data):
        budget.spend(4)
        bounds = [found.start(), _line_end(data, found.start())]
        if found.group(1).startswith(b"if"):
            opened.append(bounds)
            continue
        if not opened:
            return None
        lines = opened[-1]
        lines.extend(bounds)
        if found.group(1) == b"endif":
            opened.pop()
            branches = tuple(zip(lines[1::2], lines[2::2], strict=False))
            opens = {_opened(data[a:b]) for a, b in branches}
            if not any(_ELSE.match(data, at) for at in lines[2:-2:2]):
                opens.add(0)  # no `#else`: an empty branch
            even = len(opens) == 1 and None not in opens
            groups.append(Group(lines[0], (lines[1], lines[2]), lines[-1], even, branches))
    return None if opened else groups


def first_branches(data: bytes, groups: list[Group]) -> bytes:
    """`data` as a compiler reads it when the first branch of each `#if` group is taken:
    the directive lines and every other branch blanked, line breaks kept (every byte stays
    where it was)."""
    out = bytearray(data)
    for group in groups:
        for start, end in ((group.start, group.kept[0]), (group.kept[1], group.end)):
            out[start:end] = out[start:end].translate(_BLANK)
    return bytes(out)


class Groups:
    """A file's `#if` groups by where they start (groups nest or are apart), to find those
    around a byte or overlapping a span without looking at the others."""

    def __init__(self, groups: list[Group]) -> None:
        self.groups = sorted(groups)
        self.starts = [group.start for group in self.groups]
        self._parents: list[int] = []  # the index of the group around each (-1: none)
        around: list[int] = []
        for index, group in enumerate(self.groups):
            while around and self.groups[around[-1]].end <= group.start:
                around.pop()
            self._parents.append(around[-1] if around else -1)
            around.append(index)

    def around(self, offset: int) -> list[Group]:
        """The groups that hold byte `offset`, innermost first."""
        found: list[Group] = []
        index = bisect.bisect_right(self.starts, offset) - 1
        while index >= 0:
            group = self.groups[index]
            if group.end > offset:
                found.append(group)
            index = self._parents[index]
        return found

    def overlapping(self, start: int, end: int) -> list[Group]:
        inside = self.groups[
            bisect.bisect_left(self.starts, start) : bisect.bisect_left(self.starts, end)
        ]
        return self.around(start) + inside


def within_one_branch(definition: Node, groups: list[Group]) -> bool:
    """Every configuration that has `definition` has it whole, with the same header and
    braces: each `#if` group it overlaps (`groups`) either holds it in one branch, or
    lies in its body with its branches even in braces."""
    body = definition.child_by_field_name("body")
    return body is not None and astride(definition, groups) is None


def astride(definition: Node, groups: list[Group], data: bytes = b"") -> int | None:
    """Where the first of `groups` (those `definition` overlaps) that breaks
    `within_one_branch` begins (None: none does): a group whose branches hold different
    headers, or different ends, or differ in braces inside it. A definition without a
    body (a table, a `typedef struct`) has its body from its first `{` in `data`."""
    body = definition.child_by_field_name("body")
    start, end = definition.start_byte, definition.end_byte
    opens = body.start_byte if body is not None else data.find(b"{", start, end)
    found: int | None = None
    for group in groups:
        if any(a <= start and end <= b for a, b in group.branches or (group.kept,)):
            continue
        if 0 <= opens <= group.start and group.end <= end and group.even:
            continue
        found = group.start if found is None else min(found, group.start)
    return found
