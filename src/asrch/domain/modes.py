"""How a term matches (D11). The command line spells a mode as one of its flags
(`asrch.cli.errors.one_mode`), a tool as its `mode` word."""

from enum import StrEnum


class Mode(StrEnum):
    FIXED = "fixed"
    """Fixed-string substring (the default)."""
    WORD = "word"
    """Fixed string with word boundaries (rg -w)."""
    IDENTIFIER = "identifier"
    """Fixed string not touching [A-Za-z0-9_] on either side."""
    REGEX = "regex"
    """ripgrep's default regex engine."""
