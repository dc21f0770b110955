"""Argument checks every command shares: paths that must exist, numbers in range."""

from collections.abc import Callable
from typing import TypeVar

from asrch.domain.errors import InputError
from asrch.domain.modes import Mode
from asrch.domain.ports import Entry, PathStatus, Searcher
from asrch.domain.query import Query
from asrch.domain.text_safety import PATH_ECHO_MAX, quote, quote_cut
from asrch.domain.words import arg


def _unreadable(path: str, status: PathStatus) -> InputError:
    return InputError(f"cannot read {quote_cut(path, PATH_ECHO_MAX)}: {status.reason}")


def _require(searcher: Searcher, path: str, empty: str, refused: dict[Entry, str]) -> Entry:
    """The one path check: `empty` when `path` is "", rg's reason when unreadable, and
    `refused[entry]` (its `{path}` the quoted path) for each entry the caller refuses."""
    if path == "":
        raise InputError(empty)
    status = searcher.inspect(path)
    if status.entry is Entry.UNREADABLE:
        raise _unreadable(path, status)
    wording = refused.get(status.entry)
    if wording is not None:
        raise InputError(wording.format(path=quote(path)))
    return status.entry


def require_path(searcher: Searcher, path: str) -> Entry:
    """A search target must exist and be readable (D21): the walk's business starts
    below it, where an unreadable entry is a skipped file."""
    return _require(
        searcher,
        path,
        "empty path; give a file or directory, or omit it for .",
        {
            Entry.MISSING: "path {path} does not exist",
            Entry.SPECIAL: (
                "path {path} is a FIFO, socket or device; give a regular file or a directory"
            ),
        },
    )


def require_file(searcher: Searcher, path: str) -> None:
    """`sample` and `show` read one regular file: never a directory, never a FIFO."""
    _require(
        searcher,
        path,
        f"empty {arg('file')}; give one regular file",
        {
            Entry.MISSING: "file {path} does not exist",
            Entry.DIRECTORY: (
                "{path} is a directory; give one file "
                "(scout QUERY DIR lists the files with most matches)"
            ),
            Entry.SPECIAL: "{path} is a FIFO, socket or device; give one regular file",
        },
    )


T = TypeVar("T")


def query_first(searcher: Searcher, query: Query, check: Callable[[], T]) -> T:
    """`check()` of a path; when it refuses the path, a regex that rg refuses is named
    instead: the query comes first on the line, and a fixed path would only meet the
    pattern's error next (`scout --regex '(' Session`, issue 32). Only then is the
    pattern probed: a call whose path is fine pays nothing."""
    try:
        return check()
    except InputError:
        if query.mode is Mode.REGEX:
            searcher.check_query(query)
        raise
