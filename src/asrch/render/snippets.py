"""Grep-like snippet text (D7, D8): `N:text` for matches, `N-text` for context, `--` between."""

from asrch.domain.lines import SourceLine
from asrch.domain.sample import Snippet
from asrch.render.lines import fit_line, visible_text


def source_line(line: SourceLine) -> str:
    """`N:text` or `N-text`, cut to 800 bytes around the line's first match (D8)."""
    prefix = f"{line.number}{':' if line.is_match else '-'}"
    return fit_line(prefix, line.text, line.first_match)


def snippet_lines(snippets: tuple[Snippet, ...]) -> list[str]:
    out: list[str] = []
    for i, snippet in enumerate(snippets):
        if i:
            out.append("--")
        out += [source_line(line) for line in snippet.lines]
    return out


def shown_path(path: str) -> str:
    """A path as given, with any control character made visible."""
    return visible_text(path.encode("utf-8", "surrogateescape"))
