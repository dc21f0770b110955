"""Where `--word` and `--identifier` cannot hold: a term whose first or last character is
not itself a word (identifier) character.

Both modes demand that the characters just outside the match are not word characters
(rg 14's `-w`; the identifier regex of engine/argv.py), whatever the term's own edges.
For `self.` that demand falls after the `.`: `self.x` is not found, though `self` is
bounded there. These functions say where that happens, so a notice can warn.
"""

import unicodedata

from asrch.domain.modes import Mode

_IDENTIFIER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# Other_Alphabetic symbols (category So) that Unicode's \w counts: circled and squared
# Latin letters. Every other \w character is a letter, mark, Nd, Nl or Pc.
_ALPHABETIC_SYMBOLS = ((0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189))
_JOIN_CONTROLS = frozenset("\u200c\u200d")


def is_word_char(char: str) -> bool:
    """rg's Unicode `\\w` (UTS #18 Annex C): Alphabetic, marks, decimal digits,
    connector punctuation, join controls. Exact where Python's Unicode tables are
    those of rg's (15.0; tests compare every code point)."""
    category = unicodedata.category(char)
    if category[0] in "LM" or category in ("Nd", "Nl", "Pc") or char in _JOIN_CONTROLS:
        return True
    code = ord(char)
    return category == "So" and any(low <= code <= high for low, high in _ALPHABETIC_SYMBOLS)


def is_identifier_char(char: str) -> bool:
    return char in _IDENTIFIER


def bounded_char(mode: Mode, char: str) -> bool:
    """Whether `char` counts as inside a word for `mode`'s boundaries."""
    return is_identifier_char(char) if mode is Mode.IDENTIFIER else is_word_char(char)


def loose_edges(term: str, mode: Mode) -> tuple[bool, bool]:
    """(start, end): which edges of `term` are not word characters under `mode`.

    Only `--word` and `--identifier` have boundaries; other modes give (False, False).
    """
    if mode not in (Mode.WORD, Mode.IDENTIFIER) or not term:
        return False, False
    return not bounded_char(mode, term[0]), not bounded_char(mode, term[-1])


def word_part(term: str, mode: Mode) -> str:
    """`term` without its non-word edges (`self.` -> `self`); empty if nothing is left."""
    start, end = 0, len(term)
    while start < end and not bounded_char(mode, term[start]):
        start += 1
    while end > start and not bounded_char(mode, term[end - 1]):
        end -= 1
    return term[start:end]
