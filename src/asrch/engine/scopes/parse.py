"""One parse of a file's bytes, within its bounds (work and CPU time), and the bound on the
walk over its tree (nodes visited, and the same CPU time: parses and walks of one file end
by one deadline, `file_deadline`)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from asrch.domain.limits import (
    SCOPE_LINE_SECONDS,
    SCOPE_PARSE_SECONDS,
    SCOPE_PARSE_WORK,
    SCOPE_PARSE_WORK_PER_BYTE,
)
from asrch.engine.scopes.grammars import load_language

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from asrch.engine.scopes.grammars import Grammar


class OverBudgetError(Exception):
    """The file's bound on the walk was reached: its remaining lines get no scope."""


def file_deadline(lines: int) -> float:
    """When the scope lines of `lines` lines of a file asked about now are given up, on
    this thread's CPU clock (`time.thread_time`): its parses and walks together."""
    return time.thread_time() + SCOPE_PARSE_SECONDS + SCOPE_LINE_SECONDS * lines


class Budget:
    """Nodes the walk may still visit for one file (`SCOPE_NODE_VISITS`), until its
    `deadline` (the clock is read once per `_CLOCK_EVERY` visits)."""

    def __init__(self, visits: int, deadline: float) -> None:
        self.left = visits
        self.deadline = deadline
        self._until_clock = _CLOCK_EVERY

    def spend(self, count: int = 1) -> None:
        self.left -= count
        if self.left < 0:
            raise OverBudgetError
        self._until_clock -= count
        if self._until_clock <= 0:
            self._until_clock = _CLOCK_EVERY
            if time.thread_time() > self.deadline:
                raise OverBudgetError


_CLOCK_EVERY = 512
"""Visits between 2 reads of the CPU clock (a read costs about as much as 2 visits)."""


def parse(
    grammar: Grammar,
    data: bytes,
    deadline: float | None = None,
    within: tuple[int, int] | None = None,
) -> Tree | None:
    """The tree of `data`, or None once the parse passed its bounds (`SCOPE_PARSE_WORK`:
    parse work for the bytes read so far; `deadline` on this thread's CPU clock,
    `file_deadline`, by default `SCOPE_PARSE_SECONDS` from now). A parser per call: a
    tree-sitter parser is not to be shared between threads."""
    if deadline is None:
        deadline = file_deadline(0)
    import tree_sitter

    parser = tree_sitter.Parser(load_language(grammar))
    if within is not None:
        start, end = within
        points = (_point(data, start), _point(data, end))
        parser.included_ranges = [tree_sitter.Range(*points, start, end)]
    checks = 0

    def read(offset: int, _point: object) -> bytes:
        return data[offset : offset + _CHUNK]

    def stop(offset: int, _has_error: bool) -> bool:
        nonlocal checks
        checks += 1
        if checks > SCOPE_PARSE_WORK + SCOPE_PARSE_WORK_PER_BYTE * offset:
            return True
        return time.thread_time() > deadline

    try:
        return parser.parse(read, progress_callback=stop)
    except ValueError:  # stopped ("Parsing failed")
        return None


_CHUNK = 1 << 16


def node_bytes(node: Node, data: bytes) -> bytes:
    """A node's bytes, sliced from the bytes `parse` was given. Never `Node.text`: on a
    tree parsed from a callback, as `parse` parses (its bounds need the progress callback,
    which a parse of bytes ignores), py-tree-sitter reads a node's text through that
    callback, 64 KiB a call for a name of a few bytes, and has crashed doing it
    (py-tree-sitter #435: a segfault in `node_get_text`, seen once in this suite)."""
    return data[node.start_byte : node.end_byte]


def _point(data: bytes, offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)
