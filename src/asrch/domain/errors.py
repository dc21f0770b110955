"""Errors a user can cause or meet, each with its documented exit status (D19)."""

from enum import IntEnum


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
    """An error with a one-line message for stderr and an exit status."""

    status: ExitStatus = ExitStatus.INPUT

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InputError(AsrchError):
    status = ExitStatus.INPUT


class EngineError(AsrchError):
    status = ExitStatus.ENGINE


class OutputError(AsrchError):
    status = ExitStatus.OUTPUT
