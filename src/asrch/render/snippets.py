"""Grep-like snippet text (D7, D8, D31): `N:text` for matches, `N-text` for context, `N=text`
for the definitions around a match, `--` between snippets."""

from asrch.domain.lines import Scope, SourceLine
from asrch.domain.sample import Snippet
from asrch.render.lines import fit_line, visible_text


def source_line(line: SourceLine) -> str:
    """`N:text` or `N-text`, cut to 800 bytes around the line's first match (D8)."""
    prefix = f"{line.number}{':' if line.is_match else '-'}"
    return fit_line(prefix, line.text, line.first_match)


def scope_line(scope: Scope) -> str:
    """`N=text` (D31, git grep's `--show-function` mark), cut to 800 bytes from its start."""
    return fit_line(f"{scope.line}=", scope.text, None)


def snippet_lines(snippets: tuple[Snippet, ...], shown: set[int] | None = None) -> list[str]:
    """The snippets, each after the scope lines (D31) of its lines that lie above it.

    `shown` holds the line numbers this answer already printed, as a scope line or as a
    source line: a header printed once for the file is not printed again. Scope lines
    come in line order (outermost first), so numbers only grow down the answer.
    """
    shown = set() if shown is None else shown
    out: list[str] = []
    for i, snippet in enumerate(snippets):
        if i:
            out.append("--")
        first = snippet.lines[0].number
        headers = {s for line in snippet.lines for s in line.scope if s.line < first}
        for scope in sorted(headers):
            if scope.line not in shown:
                out.append(scope_line(scope))
                shown.add(scope.line)
        out += [source_line(line) for line in snippet.lines]
        shown.update(line.number for line in snippet.lines)
    return out


def shown_path(path: str) -> str:
    """A path as given, with any control character made visible."""
    return visible_text(path.encode("utf-8", "surrogateescape"))
