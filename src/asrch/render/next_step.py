"""The `next:` line (D28): the step the domain chose, as the surface spells it (D49).

A surface offers no step whose line would pass the 800-byte cap (D8): a cut command
would not run as pasted (`asrch.spelling`).
"""

from asrch.domain.words import NextStep, Spelling

PREFIX = "next: "
"""How the text answer introduces the step."""


def next_lines(step: NextStep, spelling: Spelling) -> list[str]:
    """The answer's last line, or none when there is nothing to do."""
    line = spelling.step(step)
    return [] if line is None else [PREFIX + line]
