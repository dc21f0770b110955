"""Lines of a file as the searcher hands them to `Scopes.of` (D31): number and bytes as
rg read them, and where the first match is."""

from collections.abc import Iterable
from pathlib import Path

from asrch.domain.lines import SourceLine


def file_lines(
    path: Path, numbers: Iterable[int], *, at: dict[int, int] | None = None
) -> list[SourceLine]:
    """`numbers`' lines of `path` (a number past the end: an empty line), each a match at
    byte `at[number]` of its line when given, else with no match offsets."""
    rows = path.read_bytes().split(b"\n")
    out = []
    for number in numbers:
        text = b""
        if 1 <= number <= len(rows):
            text = rows[number - 1] + (b"\n" if number < len(rows) else b"")
        column = (at or {}).get(number)
        span = None if column is None else (column, column + 1)
        out.append(SourceLine(number, text, span is not None, span))
    return out
