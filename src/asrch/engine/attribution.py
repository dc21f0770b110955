"""Which of several terms each matched line holds: the fast pass of the one-pass plan.

rg prints every line that matches any of the terms once; here each term's lines are
counted again, exactly as rg would count them alone:

- fixed: the line holds the term's bytes;
- identifier: an occurrence not preceded or followed by an ASCII `[A-Za-z0-9_]` byte
  (D11's own definition, bytes-level, so exact here);
- word: rg's `-w`, an occurrence with no Unicode word character right before or after
  it. Where every byte is ASCII that is the identifier rule; a piece holding other
  bytes is left to rg itself (`Uncertain`), so no Unicode table of Python's has to
  agree with Rust's.

A piece is whole lines, each ending in LF, never empty (a matched line holds its term).
"""

import os
import re
from collections.abc import Callable, Sequence

from asrch.domain.modes import Mode
from asrch.domain.query import Query

Counter = Callable[[bytes], int]
"""Lines of a piece that hold one term; -1: only rg can tell (a word-mode piece with
non-ASCII bytes around the term)."""

UNCERTAIN = -1
_BEFORE = rb"(?<![A-Za-z0-9_])"
_AFTER = rb"(?![A-Za-z0-9_])"


def _lines_holding(pattern: "re.Pattern[bytes]") -> Counter:
    """Lines with a match of `pattern`: each match runs on to its line's end, so the next
    search starts on the next line; the empty group makes findall list b'' (no copies)."""
    whole_line = re.compile(pattern.pattern + rb"[^\n]*()")
    return lambda piece: len(whole_line.findall(piece))


def fixed_counter(term: bytes) -> Counter:
    dedupe = _lines_holding(re.compile(re.escape(term)))

    def count(piece: bytes) -> int:
        # bytes.count is memchr-fast; a line holding the term twice is the rare case
        # that needs the per-line pass.
        n = piece.count(term)
        return n if n <= 1 else dedupe(piece)

    return count


def identifier_counter(term: bytes) -> Counter:
    bounded = _lines_holding(re.compile(_BEFORE + re.escape(term) + _AFTER))

    def count(piece: bytes) -> int:
        return bounded(piece) if term in piece else 0

    return count


def word_counter(term: bytes) -> Counter:
    ascii_words = identifier_counter(term)

    def count(piece: bytes) -> int:
        if term not in piece:
            return 0
        # ASCII letters, digits and `_` are the only ASCII word characters in Unicode
        # too; any other byte could start a character only rg's tables classify.
        return ascii_words(piece) if piece.isascii() else UNCERTAIN

    return count


def counters(queries: Sequence[Query]) -> list[Counter]:
    """One counter per query, in order; all queries share one mode (not regex)."""
    made: list[Counter] = []
    for query in queries:
        term = os.fsencode(query.term)  # the bytes rg gets in its argv
        match query.mode:
            case Mode.FIXED:
                made.append(fixed_counter(term))
            case Mode.IDENTIFIER:
                made.append(identifier_counter(term))
            case Mode.WORD:
                made.append(word_counter(term))
            case Mode.REGEX:
                raise ValueError("a regex has no exact fast pass; count it alone")
    return made
