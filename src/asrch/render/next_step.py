"""The `next:` line (D28): the step the domain chose, shell-quoted, as one line.

The step is offered only when its line fits the 800-byte cap (D8): a cut command would
not run as pasted. The JSON answer carries the same step or none (`pasteable`).
"""

import shlex

from asrch.domain.limits import LINE_CAP
from asrch.domain.next_step import NO_STEP, Call, Step, call_of

PREFIX = "next: "
"""How the text answer introduces the step."""


def command_line(step: Step) -> str:
    """The step as the text answer prints it after `next: `."""
    return shlex.join(step)


def pasteable(step: Step) -> Step:
    """The step, or none when its `next:` line would be longer than the line cap."""
    if not step or len((PREFIX + command_line(step)).encode("utf-8")) > LINE_CAP:
        return NO_STEP
    return step


def next_lines(step: Step) -> list[str]:
    """The answer's last line, or none when there is nothing to do."""
    return [PREFIX + command_line(step)] if pasteable(step) else []


def call_line(call: Call) -> str:
    """A call as an MCP tool's text answer prints it after `next: ` (D37):
    `sample(query="connect", file="src/net/pool.py")`, each value as JSON writes it."""
    import json  # noqa: PLC0415 (the server's path only, not the command line's)

    tool, arguments = call
    given = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
    return f"{tool}({given})"


def as_call(text: str, step: Step) -> str:
    """A text answer whose `next:` line is a command, with that line as the call
    instead: what an MCP tool answers (D37)."""
    call = call_of(pasteable(step))
    if call is None:
        return text
    line = f"{PREFIX}{command_line(step)}\n"
    if not text.endswith(line):
        return text
    return f"{text[: -len(line)]}{PREFIX}{call_line(call)}\n"
