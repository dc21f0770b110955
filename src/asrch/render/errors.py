"""How an error is printed: one line, `error: ` and the error's own words (D20).

The errors carry their message without this prefix; the two places that print them (the
command line's stderr, a tool's error result) add it here, so both say the same line.
"""

from asrch.domain.errors import AsrchError
from asrch.domain.text_safety import quote
from asrch.domain.words import Spelling, spelled

PREFIX = "error: "


def error_line(error: AsrchError, spelling: Spelling) -> str:
    """The line an error prints, without its newline, its arguments as the surface
    spells them (D49)."""
    return PREFIX + spelled(error.message, spelling)


def internal_error_line(exc: BaseException) -> str:
    """A bug in asrch, named in one line instead of a traceback."""
    return f"{PREFIX}internal error: {type(exc).__name__}: {quote(str(exc))}"
