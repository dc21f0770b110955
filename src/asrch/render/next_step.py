"""The `next:` line (D28): the step the domain chose, as the surface spells it (D49).

A text answer prints it only after a refusal or a stopped scan (D54), where it names
the narrowing: elsewhere the agents of the race chose their next step themselves and
read the line as noise. The JSON answer's `next` and `--structured` MCP's `next_call`
carry the step always (`asrch.contract.build`): programs follow it.

A surface offers no step whose line would pass the 800-byte cap (D8): a cut command
would not run as pasted (`asrch.spelling`).
"""

from asrch.domain.words import NextStep, Spelling

PREFIX = "next: "
"""How the text answer introduces the step."""


def next_lines(step: NextStep, spelling: Spelling, *, stopped: bool) -> list[str]:
    """The answer's last line when it was refused or its scan `stopped` at the cap
    (D54), else none; none either when there is nothing to do."""
    line = spelling.step(step) if stopped else None
    return [] if line is None else [PREFIX + line]
