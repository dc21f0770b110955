"""How a term matches, and the mode the command-line flags choose.

Kept apart from `query` so the CLI can choose a mode before it builds anything else.
"""

from enum import StrEnum

from asrch.domain.errors import InputError


class Mode(StrEnum):
    FIXED = "fixed"
    """Fixed-string substring (the default)."""
    WORD = "word"
    """Fixed string with word boundaries (rg -w)."""
    IDENTIFIER = "identifier"
    """Fixed string not touching [A-Za-z0-9_] on either side."""
    REGEX = "regex"
    """ripgrep's default regex engine."""


def mode_from_flags(*, word: bool, identifier: bool, regex: bool, allow_regex: bool = True) -> Mode:
    chosen = [
        name
        for name, on in (("--word", word), ("--identifier", identifier), ("--regex", regex))
        if on
    ]
    if regex and not allow_regex:
        raise InputError(
            "survey compares fixed terms; --regex is not allowed "
            "(use --word or --identifier, or scout --regex for one pattern)"
        )
    if len(chosen) > 1:
        raise InputError(
            f"{' and '.join(chosen)} cannot be combined; choose one of "
            "--word, --identifier, --regex (or none for a fixed string)"
        )
    if regex:
        return Mode.REGEX
    if identifier:
        return Mode.IDENTIFIER
    if word:
        return Mode.WORD
    return Mode.FIXED
