"""Grep-like snippet text (D7, D8, D31): `N:text` for matches, `N-text` for context, `N=text`
for the definitions around a match, `--` between snippets (`-- K lines --` where
`show --scope` leaves K lines of a definition out, D46)."""

from asrch.domain.limits import LINE_CAP, SCOPE_LINE_CAP
from asrch.domain.lines import Scope, SourceLine
from asrch.domain.sample import Snippet
from asrch.render.lines import fit_text, held


def _prefix(line: SourceLine) -> str:
    return f"{line.number}{':' if line.is_match else '-'}"


def line_text(line: SourceLine) -> str:
    """What `source_line` prints after `N:` / `N-`: the line's visible text in the room
    the prefix leaves of 800 bytes, cut around its first match (D8). The JSON answer's
    `text` of a line."""
    room = LINE_CAP - len(_prefix(line))
    return fit_text(held(line.text, line.excerpt), line.first_match, room=room)


def source_line(line: SourceLine) -> str:
    """`N:text` or `N-text`, cut to 800 bytes around the line's first match (D8)."""
    return _prefix(line) + line_text(line)


def scope_text(scope: Scope) -> str:
    """What `scope_line` prints after `N=`: the header's visible text in the room the
    prefix leaves of 120 bytes (D55), from its start, or from its name when the name
    would not show whole in the head. The JSON answer's `text` of a scope."""
    room = SCOPE_LINE_CAP - len(f"{scope.line}=")
    return fit_text(scope.text, scope.name, room=room, lead=0)


def scope_line(scope: Scope) -> str:
    """`N=text` (D31, git grep's `--show-function` mark), cut to 120 bytes (D55)."""
    return f"{scope.line}={scope_text(scope)}"


TOP_LEVEL = "(top level)"
"""D48's mark before a match outside every definition, after scope lines said otherwise."""
UNKNOWN = "(unknown)"
"""D48's mark before a match the parse could not place (or a file it did not parse)."""


def mark_line(number: int, mark: str) -> str:
    """`N=(top level)` / `N=(unknown)`: at most 20 bytes for any line of a 1 MB file."""
    return f"{number}={mark}"


class Trail:
    """What a reader of one file's printed lines takes to enclose the next one (D48): the
    scope chain printed last (header line numbers), or nothing known."""

    def __init__(self) -> None:
        self.chain: tuple[int, ...] = ()
        self.headers: tuple[Scope, ...] = ()
        """The chain's headers, as printed."""
        self.known = True
        self.below: set[int] = set()
        """The last placed line and those printed after it: a header among them is in sight."""

    def run(self, lines: tuple[SourceLine, ...]) -> list[str]:
        """`lines` (a snippet, a listed line) as printed, after the scope lines and the
        marks they need, and the trail moved past them. A header is left out while the
        match stays inside the chain printed last (or is in sight: printed since the last
        placed line); a match outside it gets the headers of its own chain, or, at the top
        level or where the parse cannot place it, one mark just above it. Headers come
        before the run, so numbers only grow: a later line of the run that leaves the chain
        (`} int n(void) { return X; }`) gets its mark, the lines between say the rest."""
        first = lines[0].number
        in_sight = self.below
        headers: set[Scope] = set()
        body: list[str] = []
        placed = False
        for line in lines:
            if line.scope_known is not None:
                if line.scope_known and not placed:
                    headers.update(self._entering(line))
                elif line.scope_known:
                    headers.update(s for s in line.scope if s.line not in self.chain)
                mark = self._mark(line)
                if mark is not None:
                    body.append(mark_line(line.number, mark))
                self.known = bool(line.scope_known)
                self.headers = line.scope
                if line.heads:
                    # Its own definition: printed here, the reader takes what follows
                    # to be inside it (`def main():` ... `    main()` under `if`).
                    own = line.text.rstrip(b"\r\n")
                    self.headers = (*line.scope, Scope(line.number, own))
                self.chain = tuple(s.line for s in self.headers)
                self.below = set()
                placed = True
            self.below.add(line.number)
            body.append(source_line(line))
        lead = sorted(s for s in headers if s.line < first and s.line not in in_sight)
        return [scope_line(s) for s in lead] + body

    def _mark(self, line: SourceLine) -> str | None:
        if line.scope_known is False:
            return UNKNOWN if self.known else None
        # A line that begins at column 0 with its own header says it is at the top level.
        says = line.heads and not _indent(line.text)
        leaves = self.chain or not self.known
        return TOP_LEVEL if not line.scope and not says and leaves else None

    def _entering(self, line: SourceLine) -> tuple[Scope, ...]:
        """The headers of `line`'s scope a reader of the trail does not have in mind."""
        scope = line.scope
        if not self.known:
            return scope
        lines = [s.line for s in scope]
        if self.chain and self.chain[-1] in lines:
            return scope[lines.index(self.chain[-1]) + 1 :]
        new = tuple(s for s in scope if s.line not in self.chain)
        if new or not scope:
            return new
        # Out of an inner definition into one printed before: its header again, unless
        # the line begins with its own header indented as the inner one's (the next
        # method of a class): it reads as that one's sibling.
        depth = len(scope)
        if (
            line.heads
            and self.chain[:depth] == tuple(lines)
            and len(self.headers) > depth
            and _indent(line.text) == _indent(self.headers[depth].text)
        ):
            return ()
        return scope[-1:]


def _indent(text: bytes) -> bytes:
    """A line's leading blanks, as in the file."""
    return text[: len(text) - len(text.lstrip(b" \t"))]


def snippet_lines(
    snippets: tuple[Snippet, ...], trail: Trail | None = None, *, gaps: list[str] | None = None
) -> list[str]:
    """The snippets, each after the scope lines (D31) and the marks (D48) of its lines.

    `trail` follows what this answer printed for the file so far (a sample's clusters
    share one). Scope lines come in line order (outermost first), so numbers only grow
    down the answer. `gaps`: the line between each 2 snippets (`show --scope`: a fold, or
    lines left out of a unit, D51), `--` by default; then a line asked about (scope
    known) in a later snippet than the first of a unit printed in pieces has its scope
    lines printed above the first.
    """
    trail = Trail() if trail is None else trail
    out: list[str] = []
    for i, snippet in enumerate(snippets):
        lines = snippet.lines
        if i:
            out.append("--" if gaps is None else gaps[i - 1])
        elif gaps and not _placed_in(lines):
            lines = _above_the_unit(snippets)
        out += trail.run(lines)
    return out


def _placed_in(lines: tuple[SourceLine, ...]) -> bool:
    return any(ln.scope_known is not None for ln in lines)


def _above_the_unit(snippets: tuple[Snippet, ...]) -> tuple[SourceLine, ...]:
    """The first piece of a unit `show --scope` cut (D46, D51), its first line carrying
    the scope of the line asked about when that line is in a later piece: the definitions
    around it are printed above the unit, not inside it."""
    first = snippets[0].lines
    placed = [ln for s in snippets[1:] for ln in s.lines if ln.scope_known is not None]
    if not placed or any(ln.scope_known is not None for ln in first):
        return first
    head = first[0]._replace(scope=placed[0].scope, scope_known=placed[0].scope_known)
    return (head, *first[1:])
