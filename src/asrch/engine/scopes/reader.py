"""`TreeSitterScopes`, the `Scopes` port's adapter: reads a file as rg did, parses it, and
turns the walk to each asked line into its scope lines (or `innermost`, `show --scope`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from asrch.domain.limits import SCOPE_DEPTH, SCOPE_MAX_BYTES
from asrch.domain.lines import Definition, Placements, Scope, SourceLine, Unplaced
from asrch.engine.scopes.astray import astray_from
from asrch.engine.scopes.first_branches import FirstBranches
from asrch.engine.scopes.grammars import grammar_of
from asrch.engine.scopes.parse import OverBudgetError, file_deadline, parse
from asrch.engine.scopes.source import line_starts, read_source
from asrch.engine.scopes.units import units_in
from asrch.engine.scopes.verdicts import verdicts_of
from asrch.engine.scopes.walk import Walk, header_row, name_span, placed

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tree_sitter import Tree

    from asrch.domain.units import Around
    from asrch.engine.scope_memo import Answers, ScopeMemo
    from asrch.engine.scopes.grammars import Grammar


def _heads(walk: Walk, row: int, start: int, text: bytes) -> bool:
    """The line `text`, which begins at `start`, begins (after its indentation) with the header of
    a definition around its target named on `row`, the outermost such: its first byte that
    is not blank is where the definition starts (`def f(`, `func New(`), or a node around
    it that starts there (`export function`), or the definition started on a row above
    (`name(void)` under its return type). Not a header after other text on its line
    (`} int f(void) {`): that line may read as inside the definition printed last (D48).
    How far it is indented is the reader's to judge (render/snippets.py)."""
    own = next((d for d in walk.definitions if header_row(d) == row), None)
    if own is None:
        return False
    first = start + len(text) - len(text.lstrip())
    for around in walk.ancestors(own):  # its tree's root left out
        if around.start_byte < first:
            break
        if around.start_byte == first:
            return True
    return own.start_byte < start


def innermost(data: bytes, grammar: Grammar, line: int) -> Definition | Unplaced:
    """The lines of the innermost definition enclosing `line` (D46, `show --scope`), by
    the walk that gives scope lines, within its bounds: no definition when the walk is
    uncertain or the parse passed its bounds. A Python definition's decorators are its
    first lines."""
    starts = line_starts(data)
    if not 1 <= line <= len(starts):
        return "none"
    start = starts[line - 1]
    text = data[start : starts[line] if line < len(starts) else len(data)]
    deadline = file_deadline(1)
    tree = parse(grammar, data, deadline)
    if tree is None:
        return "uncertain"
    if start >= astray_from(grammar, tree, data):
        return "uncertain"
    target = start + _target(SourceLine(line, text, False), text)
    verdicts = verdicts_of(grammar, data, deadline)
    try:
        walk = placed(tree.root_node, target, grammar, verdicts)
        if walk.uncertain and grammar.preprocessor:
            walk = FirstBranches(grammar, data, deadline).walk(target) or walk
    except OverBudgetError:
        return "uncertain"
    if walk.uncertain:
        return "uncertain"
    if not walk.definitions:
        return "none"
    node = walk.definitions[-1]
    parent = walk.parent(node)
    if parent is not None and parent.type == "decorated_definition":
        node = parent
    first, (last, column) = node.start_point[0], node.end_point
    if column == 0 and last > first:  # ends with its line's newline
        last -= 1
    return Definition(first + 1, last + 1)


def _line_text(data: bytes, starts: list[int], row: int) -> bytes:
    end = starts[row + 1] - 1 if row + 1 < len(starts) else len(data)
    text = data[starts[row] : end]
    return text[:-1] if text.endswith(b"\r") else text


def _target(line: SourceLine, text: bytes) -> int:
    """Where in its line a printed line is placed: its first match (a listed line with
    several: the first), else its first byte that is not blank (a blank line: its start)."""
    if line.first_match is not None and 0 <= line.first_match[0] < len(text):
        return line.first_match[0]
    stripped = text.lstrip()
    return len(text) - len(stripped) if stripped.strip() else 0


class TreeSitterScopes:
    """Scope lines, definitions around a line and units by tree-sitter (`Scopes`' `of`,
    `around`, `units`), reading files as the searcher does from `cwd`."""

    def __init__(
        self,
        cwd: str | None = None,
        here: Callable[[str], str] | None = None,
        memo: ScopeMemo | None = None,
    ) -> None:
        self._cwd = cwd
        self._here = here
        """How a file is spelled to be opened (an MCP call's pinned object)."""
        self._memo = memo
        """Answers kept from earlier calls (a server's), for files that read the same."""
        self._parsed: tuple[Grammar, bytes, Tree] | None = None
        """The last tree parsed, and of what: `show --scope` asks for units, then for the
        scope lines of the same file (D51): 1 parse, not 2 (a 1 MB file: ≈140 ms each)."""

    def _parse(self, grammar: Grammar, data: bytes, deadline: float) -> Tree | None:
        last = self._parsed
        if last is not None and last[0] is grammar and last[1] == data:
            return last[2]
        tree = parse(grammar, data, deadline)
        if tree is not None:
            self._parsed = (grammar, data, tree)
        return tree

    def of(self, file: str, lines: Sequence[SourceLine], largest: int | None = None) -> Placements:
        grammar = grammar_of(file)
        if grammar is None or not lines:
            return Placements({})
        out: dict[int, tuple[Scope, ...] | None] = {line.number: None for line in lines}
        if largest is None:
            data = self._read(file)
        else:
            read = read_source(self._path(file), largest)
            if read == "too_large":
                return Placements({}, too_large=True)  # not parsed: no scope lines at all
            data = None if isinstance(read, str) else read
        if data is None:
            return Placements(out)
        starts = line_starts(data)
        asked: dict[int, int] = {}
        """Where the walk goes to on each line that can be placed, by line number."""
        for line in sorted(lines, key=lambda ln: ln.number):
            row = line.number - 1
            if not 0 <= row < len(starts):
                continue
            start = starts[row]
            end = starts[row + 1] if row + 1 < len(starts) else len(data)
            text = data[start:end]
            if text != line.text:
                continue  # not the line rg read: the file changed since
            asked[line.number] = start + _target(line, text)
        known = {} if self._memo is None else self._memo.answers(file, data)
        missing = {n: at for n, at in asked.items() if (n, at) not in known}
        if missing:
            found = self._placed(grammar, data, starts, missing, len(lines))
            known.update(found)
            if self._memo is not None:
                self._memo.keep(file, data, found)
        heads: set[int] = set()
        for number, at in asked.items():
            answer = known.get((number, at))
            if answer is not None:
                out[number], head = answer
                if head:
                    heads.add(number)
        return Placements(out, frozenset(heads))

    def _placed(
        self, grammar: Grammar, data: bytes, starts: list[int], asked: dict[int, int], lines: int
    ) -> Answers:
        """The answer for each line asked (by number: the byte its walk goes to), but
        those the file's bound (for `lines` lines) cut off (`OverBudgetError`): not
        answered."""
        deadline = file_deadline(lines)  # the parses and walks of this file, together
        tree = self._parse(grammar, data, deadline)
        if tree is None:
            return {}
        verdicts = verdicts_of(grammar, data, deadline)
        second = FirstBranches(grammar, data, deadline)
        astray = astray_from(grammar, tree, data)
        found: Answers = {}
        for number, target in asked.items():
            row = number - 1
            start = starts[row]
            if start >= astray:
                found[number, target] = None
                continue
            try:
                walk = placed(tree.root_node, target, grammar, verdicts)
                if walk.uncertain and grammar.preprocessor:
                    walk = second.walk(target) or walk
            except OverBudgetError:
                break
            if walk.uncertain:
                found[number, target] = None
                continue
            scopes: list[Scope] = []
            for node in walk.definitions:
                header = header_row(node)
                if header >= row or (scopes and scopes[-1].line == header + 1):
                    continue
                said = _line_text(data, starts, header)
                name = name_span(node, starts[header], starts[header] + len(said))
                scopes.append(Scope(line=header + 1, text=said, name=name))
            text = data[start : starts[row + 1] if row + 1 < len(starts) else len(data)]
            found[number, target] = (tuple(scopes[-SCOPE_DEPTH:]), _heads(walk, row, start, text))
        return found

    def around(self, file: str, line: int) -> Definition | Unplaced:
        grammar = grammar_of(file)
        if grammar is None:
            return "no_grammar"
        data = self._read(file)
        if data is not None:
            return innermost(data, grammar, line)
        # Only to word the note: the bytes parsed are `_read`'s alone.
        try:
            size = os.stat(file if self._cwd is None else os.path.join(self._cwd, file)).st_size
        except OSError:
            return "unreadable"
        return "too_large" if size > SCOPE_MAX_BYTES else "unreadable"

    def units(self, file: str, lines: Sequence[int]) -> dict[int, Around | Unplaced] | Unplaced:
        """D51: `engine/scopes/units.py` on the file as this reader reads it."""
        return units_in(self._path(file), file, lines, self._parse)

    def _path(self, file: str) -> str:
        if self._here is not None:
            return self._here(file)  # an MCP call's pinned object (engine/pins.py)
        return file if self._cwd is None else os.path.join(self._cwd, file)

    def _read(self, file: str) -> bytes | None:
        data = read_source(self._path(file))
        return None if isinstance(data, str) else data
