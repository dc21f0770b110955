"""Errors a user can cause or meet, each with its documented exit status (D19)."""

from enum import IntEnum

from asrch.domain.text_safety import quote
from asrch.domain.words import NextStep, arg, type_list


class ExitStatus(IntEnum):
    OK = 0
    """Results, zero results, or an empty page past the end."""
    INPUT = 2
    """The command line is wrong: unknown command or option, bad value, bad mode mix."""
    REFUSED = 3
    """`show` without `--line` refused a search too broad to print."""
    ENGINE = 4
    """ripgrep is missing, failed, or spoke garbage."""
    INTERNAL = 70
    """A bug in asrch: one line on stderr instead of a traceback."""
    OUTPUT = 74
    """The answer could not be written: stdout closed, or a write to it failed (a full
    disk). sysexits' EX_IOERR. A reader that goes away (a closed pipe) is not one: 0."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C or SIGTERM; the rg child is stopped too."""


class AsrchError(Exception):
    """An error with its one-line message and an exit status. The message is the error's
    own words; where it is printed, `render.errors` puts `error: ` before it."""

    status: ExitStatus = ExitStatus.INPUT
    step: NextStep | None = None
    """The call that answers what was refused, its `next:` line after the error's (D54:
    a next step follows a refusal); none for most errors."""

    def __init__(self, message: str, *, step: NextStep | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.step = step


class InputError(AsrchError):
    status = ExitStatus.INPUT


class EngineError(AsrchError):
    status = ExitStatus.ENGINE


class OutOfRangeError(InputError):
    """A number outside what its option allows, worded once from its data: `name` the
    argument as a message names it (`asrch.domain.words.arg`)."""

    def __init__(self, name: str, value: int, allowed: str) -> None:
        self.name = name
        self.value = value
        self.allowed = allowed
        super().__init__(f"{name} {value} is out of range; allowed: {allowed}")


class NotDigitsError(InputError):
    """A number not written in ASCII digits (D25), named as typed, with its range."""

    def __init__(self, name: str, text: str, allowed: str) -> None:
        self.name = name
        self.text = text
        self.allowed = allowed
        super().__init__(f"{name} takes digits 0-9 only, got {quote(text)}; allowed: {allowed}")


class UnknownTypeError(InputError):
    """A `--type` name rg does not know: the close names, and how many there are."""

    def __init__(self, name: str, close: tuple[str, ...], known: int) -> None:
        self.name = name
        self.close = close
        self.known = known
        super().__init__(
            f"unknown {arg('type')} {quote(name)}; {self.close_names()}; {type_list(known)}"
        )

    def close_names(self) -> str:
        return f"close names: {', '.join(self.close)}" if self.close else "no close name"


class OutputError(AsrchError):
    status = ExitStatus.OUTPUT
