"""`asrch index [PATH]` (D58, spec/index.en.md): make, update, show or drop the index of
a directory. Thin: the index itself is `engine/index/`; this prints what it did."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from typing import TYPE_CHECKING, Any

from asrch.commands.checks import require_path
from asrch.domain.errors import EngineError, InputError
from asrch.domain.ports import Entry
from asrch.domain.text_safety import quote
from asrch.engine.index.build import build, drop, status
from asrch.engine.index.location import covering
from asrch.engine.index.store import IndexUnusableError

if TYPE_CHECKING:
    from asrch.engine.searcher import RipgrepSearcher

HELP = """\
usage: asrch index [--status | --drop] [PATH]

Index the files a search of PATH (default .) reads, in the user's cache
directory ($XDG_CACHE_HOME/asrch), so that searches under it read only the files
that can match and those changed since. Answers are the same, byte for byte.
Run it again to update it: only changed files are read.

options:
  --status  root, age, files, bytes and files changed since (stale)
  --drop    remove the index of PATH

examples:
  asrch index
  asrch index --status
"""


def _shown(root: str, cwd: str) -> str:
    """The root as the answer names it: from the working directory when under it."""
    if root == cwd:
        return "."
    if root.startswith(cwd.rstrip("/") + "/"):
        return os.path.relpath(root, cwd)
    return root


def run_index(values: dict[str, Any], searcher: RipgrepSearcher, stderr: Any) -> str:
    """The answer's text; `stderr` takes the progress line of a long build."""
    path = values.get("path") or "."
    if values.get("status") and values.get("drop"):
        raise InputError("--status and --drop: give one")
    require_directory(searcher, path)
    cwd = os.path.realpath(searcher.here("."))
    root = os.path.realpath(searcher.here(path))
    environ = searcher.environ
    if values.get("drop"):
        dropped = drop(root, environ)
        return f"index:\n  root: {_shown(root, cwd)}\n  dropped: {'yes' if dropped else 'no'}\n"
    if values.get("status"):
        found = covering(root, environ)
        if found is None:
            return f"index:\n  root: {_shown(root, cwd)}\n  built: no\n"
        root = found[0]
        _check_ignore_files(root, _shown(root, cwd))
        try:
            state = status(searcher.rg, root, environ, searcher.launch)
        except (IndexUnusableError, sqlite3.Error) as exc:
            return f"index:\n  root: {_shown(root, cwd)}\n  built: no\n  unusable: {exc}\n"
        if state is None:
            return f"index:\n  root: {_shown(root, cwd)}\n  built: no\n"
        minutes = int(max(0.0, time.time() - state.built) // 60)
        return (
            f"index:\n  root: {_shown(root, cwd)}\n  age_minutes: {minutes}\n"
            f"  files: {state.files}\n  bytes: {state.bytes}\n  stale: {state.stale}\n"
        )
    _check_ignore_files(root, _shown(root, cwd))
    progress = _Progress(stderr)
    try:
        done = build(searcher.rg, root, environ, progress=progress, launch=searcher.launch)
    except (OSError, sqlite3.Error) as exc:
        raise EngineError(f"cannot write the index of {quote(path)}: {_reason(exc)}") from None
    finally:
        progress.end()
    lines = [
        "index:",
        f"  root: {_shown(root, cwd)}",
        f"  files: {done.files}",
        f"  bytes: {done.bytes}",
        f"  read: {done.read}",
        f"  removed: {done.removed}",
    ]
    if not done.complete:
        lines.append(
            "note: rg could not read every directory here; searches here scan until it can"
        )
    return "\n".join(lines) + "\n"


def _check_ignore_files(root: str, shown: str) -> None:
    """Refuse, as a search does, a walk whose rg would open an ignore file that is not a
    regular file (a FIFO hung `asrch index` and `--status`; a link to /dev/zero made rg
    read without end): the build and the status walk with rg's own ignore discovery."""
    from asrch.engine.ignore_files import check_ignore_files  # noqa: PLC0415 (as searches)

    check_ignore_files(root, shown)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


class _Progress:
    """`indexing: N files, X MB, Y MB/s` on stderr once a build passes a second: redrawn
    in place on a terminal, else a line every 10 s."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._shown = 0.0
        self._drawn = False
        try:
            self._tty = bool(stream.isatty())
        except (AttributeError, ValueError):
            self._tty = False

    def __call__(self, files: int, size: int, seconds: float) -> None:
        every = 0.25 if self._tty else 10.0
        if seconds < 1.0 or seconds - self._shown < every:
            return
        self._shown = seconds
        mb = size / 1e6
        line = f"indexing: {files} files, {mb:.0f} MB, {mb / seconds:.0f} MB/s"
        try:
            self._stream.write(("\r" + line) if self._tty else line + "\n")
            self._stream.flush()
        except (OSError, ValueError):
            return
        self._drawn = self._tty

    def end(self) -> None:
        if self._drawn:
            with contextlib.suppress(OSError, ValueError):
                self._stream.write("\n")


def require_directory(searcher: Any, path: str) -> str:
    if require_path(searcher, path) is not Entry.DIRECTORY:
        raise InputError(f"{quote(path)} is a file; asrch index takes a directory")
    return path
