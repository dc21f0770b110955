"""The directories a server may search, and the check that keeps every path inside them.

A path is resolved as rg, started in the first root, would open it: relative to the
first root, every symlink on the way followed, `..` taken after the link it follows, and
a `..` or `.` after a file or a missing directory the system's error (as the system
does). Where it lands must be one of the roots or below one. rg never follows
a symlink it meets while walking a directory (D21), so a link *inside* a searched
directory that leads out is not searched, and needs no check.
"""

import os
from collections.abc import Sequence
from dataclasses import dataclass

from asrch.domain.errors import InputError
from asrch.domain.text_safety import PATH_ECHO_MAX, quote, quote_cut
from asrch.engine.pins import Pins


@dataclass(frozen=True, slots=True)
class Roots:
    real: tuple[str, ...]
    """Each root, absolute with its symlinks resolved; the first is where paths start."""

    @classmethod
    def of(cls, given: Sequence[str]) -> "Roots":
        """The roots named by `--root` (default: the working directory), each checked."""
        real = []
        if not given:
            try:
                given = (os.getcwd(),)
            except FileNotFoundError:
                raise InputError(
                    "the working directory no longer exists; start asrch mcp in a "
                    "directory, or give --root DIR"
                ) from None
        for root in given:
            if not os.path.isdir(root):
                what = "does not exist" if not os.path.exists(root) else "is not a directory"
                raise InputError(f"--root {quote(root)} {what}; give a directory")
            real.append(os.path.realpath(root))
        return cls(tuple(dict.fromkeys(real)))

    @property
    def first(self) -> str:
        return self.real[0]

    def confine(self, path: str, what: str = "path", pins: Pins | None = None) -> str:
        """What the search is given for `path` if it resolves inside a root (else the
        one-line refusal): what was checked, so that a symlink swapped between the
        check and rg's open cannot lead it elsewhere (issue 20, item 9).

        A path through a symlink or with a `..` is given as where it resolves: relative
        to the first root if it was relative and lands under it, else absolute. Any
        other path is given as typed: what rg opens is then what was checked, component
        by component (`./src/net/` stays as the command line would print it).

        With `pins` (Linux), what is given is also opened there and then, from the root
        without following a symlink (`engine.pins`): whatever the name means later, the
        call reads that object (issue 32, item 1)."""
        refuse_nul(path, what)
        if path == "":
            return path  # the use case's own error names it
        joined = os.path.join(self.first, path)
        try:
            landed = os.path.realpath(joined)
        except OSError:
            # A component changed type while it was resolved (EINVAL, ENOENT): read
            # where it lands as unknown; the pin below says what it is now, or fails.
            landed = os.path.normpath(joined)
        if any(_within(landed, root) for root in self.real):
            refused = _system_refusal(path, joined, what)
            if refused is not None:
                raise refused
            if ".." not in path.split("/") and landed == os.path.normpath(joined):
                given = path
            elif os.path.isabs(path) or not _within(landed, self.first):
                given = landed
            else:
                given = os.path.relpath(landed, self.first)
            if pins is not None:
                pins.here(given)
            return given
        listed = ", ".join(quote(root) for root in self.real)
        raise InputError(
            f"{what} {quote(path)} is outside the server's roots ({listed}); "
            "give a path inside one (relative paths start at the first)"
        )


def _system_refusal(path: str, joined: str, what: str) -> InputError | None:
    """The command line's error where `realpath` takes a `.` or `..` by its spelling and
    the system does not (issue 39, item 9): after a file, `..` is not its directory but
    ENOTDIR (`src/a.py/..`); after a missing directory, the path is missing."""
    if not any(part in (".", "..") for part in path.split("/")):
        return None
    try:
        os.stat(joined)
    except FileNotFoundError:
        return InputError(f"{what} {quote(path)} does not exist")
    except OSError as exc:
        return InputError(f"cannot read {quote_cut(path, PATH_ECHO_MAX)}: {exc.strerror or exc}")
    return None


def refuse_nul(value: str, what: str) -> None:
    """A JSON string may hold U+0000, which no file name or rg argument can (a command
    line cannot pass one at all): an input error, not a crash in `os` or `subprocess`."""
    if "\0" in value:
        raise InputError(f"{what} {quote(value)} holds a NUL character; remove it")


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
