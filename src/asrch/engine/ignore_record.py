"""The command line's look at a tree's ignore files (`ignore_files.check_ignore_files`,
issue 39), nearly free on a tree that has not changed since the last one (issue 41,
item 5): 77 ms of CPU listing a Python installation's 8,700 directories before every
rg run became 22 ms, one `lstat` a directory (docs/performance.md).

The record of a look, kept in the user's cache directory (`look_record_path`, keyed
by the tree's real path), holds each directory the walk listed, each before those
below it: its identity taken before it was listed (device, inode, mode, mtime and
ctime in ns), its entries' count, the directories below it the walk enters, and the
names among its entries that rg may open as ignore files (`.git` for its
`info/exclude`). The next look `lstat`s every recorded directory; if each identity is
the recorded one, the tree is as recorded. Else it walks the record, taking each
directory whose identity is the recorded one as listed then and listing any other
(changed, new, unreadable, or racily clean: below) again, as the full look does, a
directory no longer walked dropped with those below it. Then it
`stat`s every ignore file found (few), and the directories above the tree are looked
at as every time. Anything amiss (an ignore file that is not a regular file) goes to
the full look, which refuses the walk naming the same file as ever.

Why an unchanged identity means an unchanged listing, that is, why rg can open no
FIFO, socket or device the look did not see:

- An entry created, removed or renamed (a FIFO put in place of `.gitignore` too) sets
  its directory's mtime and ctime to the time of the change; chmod, chown and an
  ACL set its ctime, and `utime` can set an mtime back but sets the ctime to now, which
  no user can set back. A mount over a walked directory changes the identity
  `lstat` gives at its path (the mounted root's device and inode).
- Racily clean directories (git's rule): a change in the same tick of the kernel's
  coarse clock as the time recorded leaves the time as it was. A directory whose mtime
  or ctime is not older than the moment the look began minus `MARGIN_NS` is never
  kept in the record: it is listed again until it is. 3 s: FAT's times are 2 s
  coarse (ext3's and HFS+'s 1 s, the kernel's clock a tick of 1-10 ms behind
  `time.time_ns`), leaving 1 s for a file server's clock behind this one. A record
  taken at a time later than now (the clock was set back) is not used.
- What changes without touching a directory of the tree is looked at every time: an
  ignore file that is a symlink (its target can become a FIFO anywhere), or over which
  something is mounted, is `stat`ed each look, as is `.git/info/exclude` wherever a
  `.git` is (in a directory the walk does not enter); and the directories above the
  tree, as before.
- What the look depends on besides the tree is in the record's header (`_header`):
  its format, the ignore files' names and the default exclusions, and the user and
  groups it ran as (which directories can be read). A directory that could not be
  listed is never recorded: it is tried again each look.

Outside, as for the full look: a change between this look and rg's open (rg's own
race, docs/reliability.md); a clock set back by more than the margin after a record
was taken and a change in the tick of a recorded time (the record's time check sees
only a clock still behind it); file systems that keep no directory times or serve
cached ones (some FUSE file systems, a network file system's attribute cache: there a
regular file can block a read as long as a FIFO); and a record written by someone who
can write the user's cache directory (one not the user's own is not read).

The record is an optimisation: absent, unreadable, corrupt, of another format, or a
cache directory that cannot be written, and the look is the full one, silently, with
the same answer. A tree of fewer than `LEAST_DIRECTORIES` directories is not
recorded (its full look costs about what a record saves).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import time
from collections.abc import Callable, Mapping, Sequence

from asrch.domain.exclusions import EXCLUDED_DIRS
from asrch.engine.ignore_files import (
    EXCLUDE,
    NAMES,
    check_above,
    check_found,
    check_ignore_files,
)
from asrch.engine.index.location import look_record_path

FORMAT = 1
"""The record's layout; any other is not read."""
MARGIN_NS = 3_000_000_000
"""A directory changed this little before a look began is never taken from its record."""
LEAST_DIRECTORIES = 100
"""Trees of fewer directories are not recorded: their full look costs about 1 ms."""

_SKIPPED = frozenset(EXCLUDED_DIRS)
_O_PATH = getattr(os, "O_PATH", os.O_RDONLY)

Identity = tuple[int, int, int, int, int]
"""A directory's device, inode, mode, mtime and ctime (ns)."""


def _identity(status: os.stat_result) -> Identity:
    """What the record keeps of a directory's `lstat`: any change to its entries, mode
    or place changes one of these."""
    return (status.st_dev, status.st_ino, status.st_mode, status.st_mtime_ns, status.st_ctime_ns)


class _Look:
    """A look at a tree, directory by directory, each before those below it (the
    record's order): for each, its path below the top (`.`: the top), its identity
    before it was listed (None: never taken from a record: not known, changed too
    lately, or not listed), its entries' count, the directories below it the walk
    enters, and the names among its entries rg may open as ignore files (`.git`: its
    `info/exclude`). Also the entries met, and the ignore files found."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.identities: list[Identity | None] = []
        self.entries: list[int] = []
        self.below: list[tuple[str, ...]] = []
        self.names: list[tuple[str, ...]] = []
        self.met = 0
        self.found: list[str] = []

    def take(
        self,
        where: str,
        identity: Identity | None,
        entries: int,
        below: tuple[str, ...],
        names: tuple[str, ...],
    ) -> None:
        self.paths.append(where)
        self.identities.append(identity)
        self.entries.append(entries)
        self.below.append(below)
        self.names.append(names)
        self.met += entries
        if names:
            prefix = "" if where == "." else where + "/"
            self.found.extend(prefix + (EXCLUDE if name == ".git" else name) for name in names)


def _header() -> tuple[int, tuple[str, ...], str, tuple[str, ...], int, int, tuple[int, ...]]:
    return (
        FORMAT,
        NAMES,
        EXCLUDE,
        tuple(sorted(_SKIPPED)),
        os.geteuid(),
        os.getegid(),
        tuple(sorted(os.getgroups())),
    )


def check_ignore_files_recorded(
    here: str,
    shown: str,
    environ: Mapping[str, str],
    *,
    clock: Callable[[], int] = time.time_ns,
    least: int = LEAST_DIRECTORIES,
) -> int:
    """`check_ignore_files(here, shown)`, from the record of the last look at the tree
    where it holds (the same refusals, the same entries met), and the record kept
    (in `environ`'s cache directory) for the next look. `clock`: now, in ns since the
    epoch as file times are; `least`: the fewest directories a tree recorded has."""
    real = os.path.realpath(here)
    check_above(real)
    began = clock()
    path = look_record_path(real, environ)
    try:
        top = os.open(real, _O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return check_ignore_files(here, shown)
    try:
        record = _load(path, real, began)
        looked: _Look | tuple[int, Sequence[str]] | None = None
        if record is not None:
            try:
                looked = _relook(real, top, record)
            except (TypeError, ValueError, IndexError, AttributeError, EOFError):
                record = None  # a record not written by this code
        if looked is None:
            looked = _relook(real, top, None)
        met, found = (looked.met, looked.found) if isinstance(looked, _Look) else looked
        if not all(check_found(ignore_file, top) for ignore_file in found):
            # An ignore file rg must not open: the full look names it (or, changed
            # back meanwhile, answers).
            return check_ignore_files(here, shown)
    finally:
        os.close(top)
    if isinstance(looked, _Look):
        _keep(path, real, began, looked, record, least=least)
    return met


Record = tuple[list[str], tuple[Identity | None, ...], int, tuple[str, ...], bytes]
"""A record as read: the paths, their identities, the entries met, the ignore files
found, and (read only when a directory changed) the rest of each directory."""


def _relook(real: str, top: int, record: Record | None) -> _Look | tuple[int, Sequence[str]]:
    """The look at the tree at `real` (open as `top`): the entries met and the ignore
    files found, from `record` when every directory in it is as recorded; else a new
    look, each directory as recorded taken from it, every other listed now."""
    lstat = os.lstat
    now: list[Identity | None] = []
    if record is not None:
        paths, identities, met, found, _ = record
        same = len(paths) == len(identities)
        for where, known in zip(paths, identities, strict=False):
            try:
                status = lstat(where, dir_fd=top)
            except OSError:
                now.append(None)
                same = False
                continue
            identity: Identity | None = _identity(status)
            now.append(identity)
            if identity != known:
                same = False
        if same:
            return met, found
    look = _Look()
    if record is None:
        _list_tree(real, top, ".", look)
        return look
    paths = record[0]
    entries, below, names = marshal.loads(record[4])
    dropped: set[str] = set()
    for index, where in enumerate(paths):
        if dropped and (where in dropped or (where.rpartition("/")[0] or ".") in dropped):
            dropped.add(where)  # no longer walked: neither is any directory below it
            continue
        identity = now[index]  # taken before the directory is listed again
        if identity is not None and identity == record[1][index]:
            look.take(where, identity, entries[index], below[index], names[index])
            continue
        listed = _list(real, where)
        if listed is None:
            look.take(where, None, 0, (), ())
            dropped.add(where)
            continue
        count, under, named = listed
        look.take(where, identity, count, under, named)
        prefix = "" if where == "." else where + "/"
        dropped.update(prefix + name for name in set(below[index]).difference(under))
        for name in set(under).difference(below[index]):
            _list_tree(real, top, prefix + name, look)
    return look


def _list_tree(real: str, top: int, where: str, look: _Look) -> None:
    """Each directory of the tree at `where` (below `real`, open as `top`) listed now."""
    pending = [where]
    while pending:
        where = pending.pop()
        try:
            identity: Identity | None = _identity(os.lstat(where, dir_fd=top))
        except OSError:
            identity = None
        listed = _list(real, where)
        if listed is None:
            look.take(where, None, 0, (), ())
            continue
        count, below, names = listed
        look.take(where, identity, count, below, names)
        prefix = "" if where == "." else where + "/"
        pending.extend(prefix + name for name in below)


def _list(real: str, where: str) -> tuple[int, tuple[str, ...], tuple[str, ...]] | None:
    """The directory `where` below `real` as `check_ignore_files` looks at it: its
    entries' count, the directories below it entered, the ignore files' names among
    its entries (and `.git`); None if it cannot be listed (rg says it cannot read it,
    and counts it skipped)."""
    try:
        entries = list(os.scandir(real if where == "." else os.path.join(real, where)))
    except OSError:
        return None
    below: list[str] = []
    names: list[str] = []
    for entry in entries:
        name = entry.name
        if name[0] == ".":
            if name in NAMES or name == ".git":
                names.append(name)
            continue
        if name in _SKIPPED:
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                below.append(name)
        except OSError:
            continue
    return len(entries), tuple(below), tuple(names)


def _load(path: str, real: str, now: int) -> Record | None:
    """The record at `path` of the tree at `real`, or None: none, not this user's, not
    readable as one of this format, user and groups, or taken later than `now`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_uid != os.geteuid():
            return None
        with open(fd, "rb", closefd=False) as file:
            loaded = marshal.loads(file.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        os.close(fd)
    if not isinstance(loaded, tuple) or len(loaded) != 8:
        return None
    header, root, taken, paths, identities, met, found, rest = loaded
    if header != _header() or root != real:
        return None
    if not isinstance(taken, int) or taken > now:
        return None  # the clock was set back: a time it recorded may come again
    if not (isinstance(paths, str) and isinstance(identities, tuple) and isinstance(met, int)):
        return None
    if not (isinstance(found, tuple) and all(isinstance(name, str) for name in found)):
        return None
    if not isinstance(rest, bytes):
        return None
    return paths.split("\0"), identities, met, found, rest


def _keep(
    path: str, real: str, began: int, look: _Look, record: Record | None, *, least: int
) -> None:
    """Write the record of `look` (begun at `began`) at `path` where it differs from
    `record`: a directory changed since `began - MARGIN_NS` kept as never to be
    trusted. A tree of fewer than `least` directories has none."""
    if len(look.paths) < least:
        if record is not None:
            with contextlib.suppress(OSError):
                os.unlink(path)
        return
    settled = began - MARGIN_NS
    identities = tuple(
        identity
        if identity is not None and identity[3] < settled and identity[4] < settled
        else None
        for identity in look.identities
    )
    rest = (tuple(look.entries), tuple(look.below), tuple(look.names))
    if (
        record is not None
        and (record[0], record[1]) == (look.paths, identities)
        and marshal.loads(record[4]) == rest
    ):
        return  # only directories changed too lately to keep were listed again
    paths = "\0".join(look.paths)
    found = tuple(look.found)
    _save(
        path,
        marshal.dumps(
            (_header(), real, began, paths, identities, look.met, found, marshal.dumps(rest))
        ),
    )


def _save(path: str, data: bytes) -> None:
    """Write a record's `data` at `path` whole or not at all (a temporary file renamed over it);
    a cache directory that cannot be written keeps no record."""
    temporary = f"{path}.{os.getpid()}.{time.monotonic_ns()}.part"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            with open(fd, "wb", closefd=False) as file:
                file.write(data)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
