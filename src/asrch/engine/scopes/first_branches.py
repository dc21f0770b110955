"""The C/C++ `#if` re-reading: the file with the first branch of each `#if` group taken,
for the lines the walk on the file as written could not place."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from asrch.domain.limits import SCOPE_NODE_VISITS
from asrch.engine.scopes.parse import Budget, OverBudgetError, parse
from asrch.engine.scopes.preprocessor import Groups, first_branches, read_groups, within_one_branch
from asrch.engine.scopes.verdicts import Verdicts
from asrch.engine.scopes.walk import placed

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from asrch.engine.scopes.grammars import Grammar
    from asrch.engine.scopes.walk import Walk


class FirstBranches:
    """The walk again on the file with the first branch of each `#if` group taken (C,
    C++), for the lines the walk on the file as written could not place: tree-sitter
    wraps a region whose `#if` branches it cannot read as one in a single ERROR (an
    `#ifndef` around a whole file, each branch opening its own header), where nothing
    would be placed. A line is placed there only if it is `_readable`, the walk on that
    parse is certain and names a definition, and each definition around it is
    `within_one_branch`. Parsed once per file, when first needed, by the file's
    `deadline`, with a node budget of its own (`SCOPE_NODE_VISITS`, each group looked at
    counting as 1 visit): past either, no more lines are placed this way, and the walk on
    the file as written goes on with its own."""

    def __init__(self, grammar: Grammar, data: bytes, deadline: float) -> None:
        self._grammar = grammar
        self._data = data
        self._budget = Budget(SCOPE_NODE_VISITS, deadline)
        self._ready = False
        self._tree: Tree | None = None
        self._groups = Groups([])
        self._verdicts: Verdicts | None = None
        self._blanked = b""
        self._wholes: dict[int, bool] = {}

    def walk(self, target: int) -> Walk | None:
        try:
            if not self._ready:
                self._ready = True
                self._read()
            if self._tree is None or self._verdicts is None:
                return None
            if not self._readable(target):
                return None
            walk = placed(self._tree.root_node, target, self._grammar, self._verdicts)
            if not walk.definitions or not all(map(self._whole, walk.definitions)):
                return None
        except OverBudgetError:
            self._tree = None
            return None
        return None if walk.uncertain else walk

    def _read(self) -> None:
        groups = read_groups(self._data, self._budget) if b"#" in self._data else None
        if groups:
            self._blanked = first_branches(self._data, groups)
            self._groups = Groups(groups)
            self._tree = parse(self._grammar, self._blanked, self._budget.deadline)
            self._verdicts = Verdicts(self._budget, self._grammar)
            self._verdicts.data = self._blanked

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
            self._wholes[key] = within_one_branch(definition, groups)
        return self._wholes[key]
