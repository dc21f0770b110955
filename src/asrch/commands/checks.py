"""Argument checks every command shares: paths that must exist, numbers in range."""

from asrch.domain.errors import InputError, OutOfRangeError
from asrch.domain.ports import PathKind, PathStatus, Searcher
from asrch.domain.values import quote


def _unreadable(path: str, status: PathStatus) -> InputError:
    return InputError(f"cannot read {quote(path)}: {status.reason}")


def require_path(searcher: Searcher, path: str) -> PathKind:
    """A search target must exist and be readable (D21): the walk's business starts
    below it, where an unreadable entry is a skipped file."""
    if path == "":
        raise InputError("empty path; give a file or directory, or omit it for .")
    status = searcher.inspect(path)
    kind = status.kind
    if kind is PathKind.MISSING:
        raise InputError(f"path {quote(path)} does not exist")
    if kind is PathKind.UNREADABLE:
        raise _unreadable(path, status)
    if kind is PathKind.SPECIAL:
        raise InputError(
            f"path {quote(path)} is a FIFO, socket or device; give a regular file or a directory"
        )
    return kind


def require_file(searcher: Searcher, path: str) -> None:
    """`sample` and `show` read one regular file: never a directory, never a FIFO."""
    if path == "":
        raise InputError("empty FILE; give one regular file")
    status = searcher.inspect(path)
    kind = status.kind
    if kind is PathKind.MISSING:
        raise InputError(f"file {quote(path)} does not exist")
    if kind is PathKind.UNREADABLE:
        raise _unreadable(path, status)
    if kind is PathKind.DIRECTORY:
        raise InputError(
            f"{quote(path)} is a directory; give one file "
            "(scout QUERY DIR lists the files with most matches)"
        )
    if kind is PathKind.SPECIAL:
        raise InputError(f"{quote(path)} is a FIFO, socket or device; give one regular file")


def require_range(name: str, value: int, low: int, high: int | None = None) -> None:
    """A number option inside its range, or a one-line error naming both."""
    if value < low or (high is not None and value > high):
        allowed = f"{low}-{high}" if high is not None else f"{low} or more"
        raise OutOfRangeError(name, value, allowed)
