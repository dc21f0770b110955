"""The ignore files rg would open for a walk, checked before rg starts (issue 39, item 3).

rg opens every `.gitignore`, `.ignore` and `.rgignore` of the directories it walks and of
the directories above its operand, and `.git/info/exclude` where a `.git` directory is,
and reads each to its end without looking at what it is: a FIFO blocks it forever, a
symlink to `/dev/zero` makes it read without end. So before a walk asrch looks at each
one rg could open (`os.stat`, which opens nothing) and refuses the search, naming the
file, when one is not a regular file, or, for an MCP call, when one under a root is a
symlink whose target lies outside the roots (item 4). The ignore files of the
directories above a root are not confined here: rg reads and applies them
(docs/reliability.md says why).

What is looked at: the target and every directory below it but the default exclusions
and hidden directories (rg walks neither, unless a project's ignore file re-includes a
hidden one: then a FIFO in it is not seen here), symlinks to directories not followed
(rg follows none, D21); and every directory above the target up to `/`. Between this
look and rg's open, a file can still be swapped for a FIFO: that window is rg's own
(docs/reliability.md).
"""

import os
import stat
from collections.abc import Callable

from asrch.domain.errors import InputError
from asrch.domain.exclusions import EXCLUDED_DIRS
from asrch.domain.text_safety import quote

NAMES = (".gitignore", ".ignore", ".rgignore")
_EXCLUDE = os.path.join(".git", "info", "exclude")
_SKIPPED = frozenset(EXCLUDED_DIRS)

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _kind(mode: int) -> str:
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def check_ignore_files(
    here: str, shown: str, *, inside: Callable[[str], bool] | None = None
) -> None:
    """Refuse (`InputError`) a walk of the directory `here` (as this process opens it;
    `shown`: as the user spelled it) if rg would open an ignore file that is not a
    regular file, or, with `inside` (whether a real path lies under the roots), one
    under the roots that is a symlink leading out of them."""
    real = os.path.realpath(here)
    parent = os.path.dirname(real)
    while True:
        within = inside is not None and inside(parent)
        for name in (*NAMES, _EXCLUDE):
            path = os.path.join(parent, name)
            _check(path, path, inside if within else None)
        if parent == os.path.dirname(parent):
            break
        parent = os.path.dirname(parent)
    pending = [(here, shown)]
    while pending:
        directory, spelled = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue  # rg says it cannot read it, and counts it skipped
        for entry in entries:
            name = entry.name
            path = name if spelled == "." else os.path.join(spelled, name)
            if name in NAMES:
                _check(entry.path, path, inside)
            elif name == ".git":
                _check(os.path.join(entry.path, "info", "exclude"), path + "/info/exclude", inside)
            elif not name.startswith(".") and name not in _SKIPPED:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append((entry.path, path))
                except OSError:
                    continue


def _check(path: str, shown: str, inside: Callable[[str], bool] | None) -> bool:
    """Whether an ignore file is at `path` (one rg cannot open is no file to it);
    refused if it is one rg must not open: not a regular file, or (`inside`: the file
    lies under the roots) a symlink out of them."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if not stat.S_ISREG(mode):
        raise InputError(
            f"{quote(shown)} is {_kind(mode)}, not a regular file: rg would read it as an "
            "ignore file and never finish; remove it or search a directory without it"
        )
    if inside is not None and os.path.islink(path) and not inside(os.path.realpath(path)):
        raise InputError(
            f"{quote(shown)} is an ignore file whose target lies outside the roots; "
            "the server reads nothing there"
        )
    return True
