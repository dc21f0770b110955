"""The C/C++ `#if` re-reading: the file with the first branch of each `#if` group taken,
for the lines the walk on the file as written could not place."""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, NamedTuple

from asrch.domain.limits import SCOPE_NODE_VISITS
from asrch.engine.scopes.parse import Budget, OverBudgetError, parse
from asrch.engine.scopes.verdicts import Verdicts
from asrch.engine.scopes.walk import placed

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from asrch.engine.scopes.grammars import Grammar
    from asrch.engine.scopes.walk import Walk


_CONDITIONAL = re.compile(
    rb"^[ \t]*#[ \t]*(ifdef|ifndef|if|elifdef|elifndef|elif|else|endif)\b", re.MULTILINE
)
_ELSE = re.compile(rb"[ \t]*#[ \t]*else\b")
_BLANK = bytes.maketrans(bytes(range(256)), b" " * 10 + b"\n" + b" " * 245)
"""Every byte a space, but a line break."""


class _Group(NamedTuple):
    """One `#if` ... `#endif` of a file, in bytes: where it starts and ends (its directive
    lines included), the part its first branch keeps (after the `#if` line up to the
    group's next directive), and whether its branches are even in braces: none closes more
    than it opened, and each leaves as many open (none without an `#else`, whose missing
    branch is empty): what follows the group is in the same blocks whichever is taken."""

    start: int
    kept: tuple[int, int]
    end: int
    even: bool


def _line_end(data: bytes, offset: int) -> int:
    """The end of the directive line at `offset`, its `\\`-continued lines included."""
    end = data.find(b"\n", offset)
    while end > 0 and data[end - 1 : end] == b"\\":
        end = data.find(b"\n", end + 1)
    return len(data) if end < 0 else end


def _opened(text: bytes) -> int | None:
    """How many blocks `text` leaves open (None: it closes one it did not open)."""
    depth = 0
    for brace in re.findall(rb"[{}]", text):
        depth += 1 if brace == b"{" else -1
        if depth < 0:
            return None
    return depth


def _first_branches(data: bytes) -> tuple[bytes, list[_Group]] | None:
    """`data` as a compiler reads it when the first branch of each `#if` group is taken:
    the directive lines and every other branch blanked, line breaks kept (every byte stays
    where it was); and the groups. None if the directives do not pair up."""
    opened: list[list[int]] = []  # each open group's directive lines: start, end, start, …
    groups: list[_Group] = []
    for found in _CONDITIONAL.finditer(data):
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
            opens = {_opened(data[a:b]) for a, b in zip(lines[1::2], lines[2::2], strict=False)}
            if not any(_ELSE.match(data, at) for at in lines[2:-2:2]):
                opens.add(0)  # no `#else`: an empty branch
            even = len(opens) == 1 and None not in opens
            groups.append(_Group(lines[0], (lines[1], lines[2]), lines[-1], even))
    if opened:
        return None
    out = bytearray(data)
    for group in groups:
        for start, end in ((group.start, group.kept[0]), (group.kept[1], group.end)):
            out[start:end] = out[start:end].translate(_BLANK)
    return bytes(out), groups


class _Groups:
    """A file's `#if` groups by where they start (groups nest or are apart), to find those
    around a byte or overlapping a span without looking at the others."""

    def __init__(self, groups: list[_Group]) -> None:
        self.groups = sorted(groups)
        self.starts = [group.start for group in self.groups]
        self._parents: list[int] = []  # the index of the group around each (-1: none)
        around: list[int] = []
        for index, group in enumerate(self.groups):
            while around and self.groups[around[-1]].end <= group.start:
                around.pop()
            self._parents.append(around[-1] if around else -1)
            around.append(index)

    def around(self, offset: int) -> list[_Group]:
        """The groups that hold byte `offset`, innermost first."""
        found: list[_Group] = []
        index = bisect.bisect_right(self.starts, offset) - 1
        while index >= 0:
            group = self.groups[index]
            if group.end > offset:
                found.append(group)
            index = self._parents[index]
        return found

    def overlapping(self, start: int, end: int) -> list[_Group]:
        inside = self.groups[
            bisect.bisect_left(self.starts, start) : bisect.bisect_left(self.starts, end)
        ]
        return self.around(start) + inside


def _within_one_branch(definition: Node, groups: list[_Group]) -> bool:
    """Every configuration that has `definition` has it whole, with the same header and
    braces: each `#if` group it overlaps (`groups`) either holds it in its first branch, or
    lies in its body with its branches even in braces."""
    body = definition.child_by_field_name("body")
    if body is None:
        return False
    start, end = definition.start_byte, definition.end_byte
    for group in groups:
        if group.kept[0] <= start and end <= group.kept[1]:
            continue
        if not (body.start_byte <= group.start and group.end <= end and group.even):
            return False
    return True


class FirstBranches:
    """The walk again on the file with the first branch of each `#if` group taken (C,
    C++), for the lines the walk on the file as written could not place: tree-sitter
    wraps a region whose `#if` branches it cannot read as one in a single ERROR (an
    `#ifndef` around a whole file, each branch opening its own header), where nothing
    would be placed. A line is placed there only if it is `_readable`, the walk on that
    parse is certain and names a definition, and each definition around it is
    `_within_one_branch`. Parsed once per file, when first needed, by the file's
    `deadline`, with a node budget of its own (`SCOPE_NODE_VISITS`, each group looked at
    counting as 1 visit): past either, no more lines are placed this way, and the walk on
    the file as written goes on with its own."""

    def __init__(self, grammar: Grammar, data: bytes, deadline: float) -> None:
        self._grammar = grammar
        self._data = data
        self._budget = Budget(SCOPE_NODE_VISITS, deadline)
        self._ready = False
        self._tree: Tree | None = None
        self._groups = _Groups([])
        self._verdicts: Verdicts | None = None
        self._blanked = b""
        self._wholes: dict[int, bool] = {}

    def walk(self, target: int) -> Walk | None:
        if not self._ready:
            self._ready = True
            read = _first_branches(self._data) if b"#" in self._data else None
            if read is not None and read[1]:
                self._blanked, self._groups = read[0], _Groups(read[1])
                self._tree = parse(self._grammar, self._blanked, self._budget.deadline)
                self._verdicts = Verdicts(self._budget, self._grammar)
                self._verdicts.data = self._blanked
        if self._tree is None or self._verdicts is None:
            return None
        try:
            if not self._readable(target):
                return None
            walk = placed(self._tree.root_node, target, self._grammar, self._verdicts)
            if not walk.definitions or not all(map(self._whole, walk.definitions)):
                return None
        except OverBudgetError:
            self._tree = None
            return None
        return None if walk.uncertain else walk

    def _readable(self, target: int) -> bool:
        """`target` is in the branches taken, or in a group's directive lines or branches
        not taken that hold no brace: no definition and no block can start or end there,
        so what encloses the group encloses it."""
        around = self._groups.around(target)
        self._budget.spend(len(around) + 1)
        return not any(
            not group.kept[0] <= target < group.kept[1]
            and re.search(rb"[{}]", self._data[group.kept[1] : group.end]) is not None
            for group in around
        )

    def _whole(self, definition: Node) -> bool:
        key = definition.id
        if key not in self._wholes:
            groups = self._groups.overlapping(definition.start_byte, definition.end_byte)
            self._budget.spend(len(groups) + 1)
            self._wholes[key] = _within_one_branch(definition, groups)
        return self._wholes[key]
