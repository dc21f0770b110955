"""`--def` (D52): keep only the matches on a line where a definition's name stands.

Pure: the `Definitions` port (domain/ports.py) says, per file, which of its matching lines
name a definition, which it could not read, or why the file was not parsed; this module
keeps those lines and counts what was not parsed, so that an answer says it and never
drops a match silently.
"""

from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple

from asrch.domain.lines import SourceLine

NotParsed = Literal["no_grammar", "too_large", "failed", "unreadable", "uncertain", "file_limit"]
"""Why a file's (or a line's) matches were not judged: no grammar for its extension, over
the parse's size bound, the parse passed its work or time bound, the file could not be
read (or changed since rg read it), the line lies where the parse could not read the file
(an error in it), the file is past the first `DEF_FILES_MAX` that matched (not read)."""
REASONS: tuple[NotParsed, ...] = (
    "no_grammar",
    "too_large",
    "failed",
    "unreadable",
    "uncertain",
    "file_limit",
)


class NameLines(NamedTuple):
    """What the parse of one file says of its matching lines."""

    names: frozenset[int]
    """The lines where a definition's name stands."""
    uncertain: frozenset[int] = frozenset()
    """Lines the parse could not read (an error around them): neither kept nor dropped."""


class Unjudged(NamedTuple):
    """Matching lines that were not judged, for one reason."""

    reason: NotParsed
    files: int
    lines: int


class Judged(NamedTuple):
    """The definition lines of a search's matching lines, and what was not judged."""

    kept: dict[str, tuple[SourceLine, ...]]
    """Each file's matching lines that name a definition (files with none left out), in
    the order given."""
    matches: int
    """Every matching line looked at (the search's own count)."""
    unjudged: tuple[Unjudged, ...] = ()
    """Per reason, in `REASONS` order; none when every line was judged."""

    @property
    def unjudged_lines(self) -> int:
        return sum(u.lines for u in self.unjudged)

    @property
    def unjudged_files(self) -> int:
        return sum(u.files for u in self.unjudged)

    @property
    def summary(self) -> "DefinitionCount":
        return DefinitionCount(self.matches, self.unjudged)


class DefinitionCount(NamedTuple):
    """What an answer under `--def` says besides its count (D52): the matching lines looked
    at, and those not judged, per reason."""

    matches: int
    unjudged: tuple[Unjudged, ...] = ()


def keep_definitions(
    lines_of: Mapping[str, Sequence[SourceLine]],
    found: Mapping[str, NameLines | NotParsed],
    unread: Sequence[int] = (),
) -> Judged:
    """The matching lines of each file that name a definition (`found[file]`), and the
    count of those not judged: a file not parsed counts all its lines, a parsed one its
    uncertain lines (a file counts once per reason). `unread`: the matching lines of
    each file past `DEF_FILES_MAX`, neither read nor parsed."""
    kept: dict[str, tuple[SourceLine, ...]] = {}
    files = dict.fromkeys(REASONS, 0)
    lines = dict.fromkeys(REASONS, 0)
    files["file_limit"], lines["file_limit"] = len(unread), sum(unread)
    total = sum(unread)
    for file, matches in lines_of.items():
        total += len(matches)
        verdict = found[file]
        if isinstance(verdict, str):
            files[verdict] += 1
            lines[verdict] += len(matches)
            continue
        named = tuple(line for line in matches if line.number in verdict.names)
        if named:
            kept[file] = named
        unsure = sum(1 for line in matches if line.number in verdict.uncertain)
        if unsure:
            files["uncertain"] += 1
            lines["uncertain"] += unsure
    unjudged = tuple(Unjudged(r, files[r], lines[r]) for r in REASONS if files[r])
    return Judged(kept, total, unjudged)
