"""The `next:` line (D28): the step the domain chose, shell-quoted."""

from asrch.domain.next_step import PREFIX, Step, command_line


def next_lines(step: Step) -> list[str]:
    """The answer's last line, or none when there is nothing to do."""
    return [PREFIX + command_line(step)] if step else []
