"""The bytes a parse reads: a file read as rg read it, within `SCOPE_MAX_BYTES`, with its
grammar, and where its lines start. Shared by the scope reader (`reader.py`) and the
readers it calls (units, names, regions), which import this module and nothing of
each other's."""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING, Literal

from asrch.domain.limits import SCOPE_MAX_BYTES
from asrch.engine.decoding import as_rg_reads
from asrch.engine.file_bytes import first_bytes
from asrch.engine.scopes.grammars import grammar_of

if TYPE_CHECKING:
    from asrch.engine.scopes.grammars import Grammar


def line_starts(data: bytes) -> list[int]:
    """The byte offset of each line (rows as tree-sitter counts them, by `\n`)."""
    # split and accumulate run in C: a 10,000-line file in well under a millisecond.
    before = accumulate(map(len, data.split(b"\n")), initial=0)
    return [total + row for row, total in enumerate(before)][:-1]


def grammar_and_source(
    path: str, file: str, largest: int = SCOPE_MAX_BYTES
) -> tuple[Grammar, bytes] | Literal["no_grammar", "too_large", "unreadable"]:
    """`file`'s grammar and its bytes (opened at `path`, as `read_source` reads them, at
    most `largest`), or why a reader of parses gets neither: the one preamble of units,
    names and regions."""
    grammar = grammar_of(file)
    if grammar is None:
        return "no_grammar"
    data = read_source(path, largest)
    if isinstance(data, str):
        return data
    return grammar, data


def read_source(
    path: str, largest: int = SCOPE_MAX_BYTES
) -> bytes | Literal["too_large", "unreadable"]:
    """The file's bytes as rg reads them (a byte-order mark decides: rows are rg's lines),
    if it is a regular file of at most `largest` bytes, else why not (read to its end:
    a file that grew past the bound since its size was read is too large too)."""
    data = first_bytes(path, largest, largest)
    if isinstance(data, str):
        return data
    return "too_large" if len(data) > largest else as_rg_reads(data)
