"""How an error is printed: one line, `error: ` and the error's own words (D20).

The errors carry their message without this prefix; the two places that print them (the
command line's stderr, a tool's error result) add it here, so both say the same line.
"""

from asrch.domain.errors import AsrchError
from asrch.domain.text_safety import quote
from asrch.domain.words import Spelling, spelled
from asrch.render.next_step import next_lines

PREFIX = "error: "


def error_line(error: AsrchError, spelling: Spelling) -> str:
    """The line an error prints, without its newline, its arguments as the surface
    spells them (D49)."""
    return PREFIX + spelled(error.message, spelling)


def error_text(error: AsrchError, spelling: Spelling) -> str:
    """What an error prints, without the last newline: its line, then the `next:` line
    of the call that answers it where it names one the surface can spell (D54)."""
    line = error_line(error, spelling)
    after = next_lines(error.step, spelling, stopped=True) if error.step else []
    return "\n".join([line, *after])


def internal_error_line(exc: BaseException) -> str:
    """A bug in asrch, named in one line instead of a traceback."""
    return f"{PREFIX}internal error: {type(exc).__name__}: {quote(str(exc))}"
