"""`show --scope` (D51): which syntactic unit around a line is printed, and how (pure).

The parse (engine/scopes/units.py) gives the units that hold a line, innermost first, and the
comment blocks and docstrings near it; this module chooses what an answer prints.
"""

from typing import Literal, NamedTuple

from asrch.domain.clusters import merge_windows
from asrch.domain.limits import SCOPE_AROUND, SCOPE_FOLD_MIN, SCOPE_UNIT_MAX

UnitKind = Literal["definition", "if", "branch", "loop", "match", "try", "block", "statement"]
"""What a unit is: a definition (function, class, …), an if/else chain, one branch of a
chain, a match or switch, or a try (an arm, a case, an except clause: a `branch`), a loop,
another block (`with`, `unsafe`, a Ruby `do` block), or one statement."""

FoldKind = Literal["docstring", "comment"]


class Unit(NamedTuple):
    """A syntactic unit of the file, by its first and last line."""

    kind: UnitKind
    start: int
    end: int

    @property
    def lines(self) -> int:
        return self.end - self.start + 1


class Fold(NamedTuple):
    """A docstring or a block of comment lines, first to last line (D51)."""

    kind: FoldKind
    start: int
    end: int


class Around(NamedTuple):
    """What the parse says of one line: the units that hold it, innermost first (each
    holds the next), and the docstrings and comment blocks of more than
    `SCOPE_FOLD_MIN - 1` lines within `SCOPE_UNIT_MAX` lines of it."""

    units: tuple[Unit, ...]
    folds: tuple[Fold, ...] = ()
    statements: tuple[tuple[int, int], ...] = ()
    """The statements (first and last line, at any depth) inside the innermost unit when
    it is longer than `SCOPE_UNIT_MAX` lines, that start within its first
    `SCOPE_UNIT_MAX` lines, in line order; none otherwise (the line is in a smaller unit:
    in the body)."""


class Choice(NamedTuple):
    """The unit printed for a line and the ranges printed of it: the whole unit, or
    (longer than `SCOPE_UNIT_MAX`) its first line, the lines around the asked one and its
    last line."""

    unit: Unit
    pieces: tuple[tuple[int, int], ...]


def choose(around: Around, line: int, context: int, last_line: int | None) -> Choice | None:
    """D51: the innermost definition around `line` when it has at most `SCOPE_UNIT_MAX`
    lines (printed whole); else the smallest unit that has at least as many lines as the
    `--context` window and at most `SCOPE_UNIT_MAX`, widening outward; else the innermost
    unit longer than that, cut to its first line, `line` ± `SCOPE_AROUND` and its last
    line; else (every unit is shorter than the window) the window with the outermost
    unit's lines. None: no unit holds the line (the window is printed, and a note says
    why). `last_line`: the file's, when known."""
    wanted = 2 * context + 1 if last_line is None else min(2 * context + 1, last_line)
    definition = next((u for u in around.units if u.kind == "definition"), None)
    if definition is not None and definition.lines <= SCOPE_UNIT_MAX:
        return Choice(definition, ((definition.start, definition.end),))
    for unit in around.units:
        if wanted <= unit.lines <= SCOPE_UNIT_MAX:
            return Choice(unit, ((unit.start, unit.end),))
    for index, unit in enumerate(around.units):
        if unit.lines > SCOPE_UNIT_MAX:
            # A decorated definition ends where its definition does: its decorators too.
            whole = next((u for u in around.units[index + 1 :] if u.end == unit.end), unit)
            if beginning := _beginning(whole, line, around.statements):
                return Choice(whole, (beginning,))
            near = range(
                max(unit.start, line - SCOPE_AROUND), min(unit.end, line + SCOPE_AROUND) + 1
            )
            pieces = merge_windows([unit.start, *near, unit.end], 0, 0)
            return Choice(unit, tuple(pieces))
    if not around.units:
        return None
    # Every unit is shorter than the window: the window, and the outermost unit whole.
    unit = around.units[-1]
    start, end = merge_windows([line], context, context, last=last_line)[0]
    return Choice(unit, ((min(start, unit.start), max(end, unit.end)),))


def _beginning(
    unit: Unit, line: int, statements: tuple[tuple[int, int], ...]
) -> tuple[int, int] | None:
    """A long unit asked about on its header (its first line, or before its body's first
    statement: a decorator, a signature over several lines): its first lines, at most
    `SCOPE_UNIT_MAX`, cut after the last statement that ends within them (issue 40: the
    agent paged a 88-line function twice). None: `line` is in the body."""
    inside = [(a, b) for a, b in statements if unit.start <= a and b <= unit.end]
    body = min((a for a, _ in inside if a > unit.start), default=None)
    if line != unit.start and (body is None or line >= body):
        return None
    limit = unit.start + SCOPE_UNIT_MAX - 1
    ends = [b for _, b in inside if line <= b <= limit]
    return unit.start, max(ends, default=limit)


def folded(folds: tuple[Fold, ...], pieces: list[tuple[int, int]], keep: set[int]) -> list[Fold]:
    """The folds an answer makes (D51): each docstring or comment block of at least
    `SCOPE_FOLD_MIN` lines that lies inside one printed piece, after its first line and
    before its last, and holds no line in `keep` (the asked line, a match)."""
    out = []
    for fold in folds:
        if fold.end - fold.start + 1 < SCOPE_FOLD_MIN:
            continue
        if any(fold.start <= n <= fold.end for n in keep):
            continue
        if any(start < fold.start and fold.end < end for start, end in pieces):
            out.append(fold)
    return out


def cut(pieces: list[tuple[int, int]], folds: list[Fold]) -> list[tuple[int, int]]:
    """`pieces` with the lines of `folds` left out (each fold splits its piece in 2)."""
    out = list(pieces)
    for fold in folds:
        split = []
        for start, end in out:
            if start < fold.start and fold.end < end:
                split += [(start, fold.start - 1), (fold.end + 1, end)]
            else:
                split.append((start, end))
        out = split
    return out
