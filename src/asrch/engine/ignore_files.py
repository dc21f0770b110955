"""The ignore files of a walk: checked before rg starts (issue 39, item 3), and, for an
MCP call, read here and handed to rg as few files (item 4).

rg opens every `.gitignore`, `.ignore` and `.rgignore` of the directories it walks and of
the directories above its operand, and `.git/info/exclude` where a `.git` directory is,
and reads each to its end without looking at what it is: a FIFO blocks it forever, a
symlink to `/dev/zero` makes it read without end. So before a walk asrch looks at each
one rg could open (`os.stat`, which opens nothing) and refuses the search, naming the
file, when one is not a regular file (`check_ignore_files`, the command line; taken
from the record of the last look where the tree has not changed: `ignore_record`).

An MCP server reads nothing outside its roots, ignore files included. rg 14.1 cannot be
told so: it reads the ignore files of every directory above its operand while any VCS
rule is on (`--no-ignore-parent` only stops it applying them), and that flag, which
counts every directory above the operand, also drops the root's own files when a call
searches a directory below the root. So under a call rg discovers no ignore file at all
(`PINNED_FLAGS`) and is handed the rules (`--ignore-file`, unnamed files of the run's own)
that `pinned_rules` writes from the ignore files of the root, of each directory from
the root down to the searched one, and of the searched tree, each checked here (a
regular file, under the roots, not through a symlink leading out of them; anything else
refuses the call), each rule rebased to the path rg prints (`_rebase`). rg reads an
`--ignore-file` as one `.gitignore` matched against the printed path, the last matching
rule deciding; rg's own order between files (a deeper directory's rule over a
shallower one's, `.rgignore` over `.ignore` over `.gitignore` over `info/exclude`) is
the order of the rules in that file (or in those files: of several, the last holding a
matching rule decides, so consecutive ignore files are joined up to 64 KB, `_grouped`,
and a larger one goes alone, as rg builds each file's globs apart). The walk rg then
makes is the walk it makes of the root alone, with no ignore file above it
(`tests/engine/test_pinned_ignores.py` holds the two to each other on random trees).

What is looked at: the target and every directory below it but the default exclusions
and hidden directories (rg walks neither, unless a project's ignore file re-includes a
hidden one: for a call, a hidden directory is read too when a re-including rule's last
component may name it), symlinks to directories not followed (rg follows none, D21); for the
command line every directory above the target up to `/`, for a call the directories
from its root down. Between this look and the read (rg's, or asrch's for a call), a
file can still be swapped: that window is rg's own on the command line
(docs/reliability.md); for a call asrch's read is held to the roots by where the file it
opened is (a directory on its path swapped for a link out refuses the call).
"""

import contextlib
import fnmatch
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from asrch.domain.errors import InputError
from asrch.domain.exclusions import EXCLUDED_DIRS
from asrch.domain.text_safety import quote

NAMES = (".gitignore", ".ignore", ".rgignore")
EXCLUDE = os.path.join(".git", "info", "exclude")
_SKIPPED = frozenset(EXCLUDED_DIRS)

PINNED_FLAGS = ("--no-ignore-vcs", "--no-ignore-dot", "--no-ignore-parent")
"""rg discovers no ignore file (`.gitignore`, `info/exclude` and the git configuration's
with `--no-ignore-vcs`; `.ignore` and `.rgignore` with `--no-ignore-dot`) and reads none
above its operand: under a call it gets the rules as `--ignore-file`s (`_grouped`)."""

# By precedence, lowest first: rg takes `.rgignore` over `.ignore` over `.gitignore`
# over `.git/info/exclude`, whatever directory each is in.
_BY_PRECEDENCE = (EXCLUDE, ".gitignore", ".ignore", ".rgignore")
_FIRST = {kind: kind.split(os.sep, 1)[0] for kind in _BY_PRECEDENCE}
"""The entry of a directory each kind of ignore file lies under (`.git` for exclude)."""

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _kind(mode: int) -> str:
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def check_ignore_files(here: str, shown: str) -> int:
    """Refuse (`InputError`) a walk of the directory `here` (as this process opens it;
    `shown`: as the user spelled it) if rg would open an ignore file that is not a
    regular file: in the tree, or in a directory above it (the command line's walk, in
    which rg finds its ignore files itself). Else the entries met in the directories
    looked into: how large the walk is, at most."""
    check_above(os.path.realpath(here))
    # `_tree`'s walk (hidden directories not entered), fused with the check: this runs
    # before every command line's walk, a step per entry of the tree (50,000 on a
    # Python installation), so each entry costs as few steps as it can.
    met = 0
    pending = [(here, shown)]
    while pending:
        directory, spelled = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue  # rg says it cannot read it, and counts it skipped
        met += len(entries)
        below: list[tuple[str, str]] = []
        for entry in entries:
            name = entry.name
            if name[0] == ".":
                # Every ignore file's name, and `.git`, starts with a dot; no hidden
                # directory is walked.
                if name in NAMES or name == ".git":
                    path = name if spelled == "." else os.path.join(spelled, name)
                    if name == ".git":
                        _check(os.path.join(directory, EXCLUDE), path + "/info/exclude", None)
                    else:
                        _check(entry.path, path, None)
                continue
            if name in _SKIPPED:
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    below.append((entry.path, name))
            except OSError:
                continue
        # In `_tree`'s order: a directory's entries all checked before any below it.
        pending.extend(
            (path, name if spelled == "." else os.path.join(spelled, name)) for path, name in below
        )
    return met


def check_above(real: str) -> None:
    """Refuse a walk of the directory whose real path is `real` if an ignore file rg
    would open in a directory above it is not a regular file."""
    parent = os.path.dirname(real)
    while True:
        for name in (*NAMES, EXCLUDE):
            path = os.path.join(parent, name)
            _check(path, path, None)
        if parent == os.path.dirname(parent):
            break
        parent = os.path.dirname(parent)


def check_found(path: str, dir_fd: int | None = None) -> bool:
    """Whether the ignore file rg may open at `path` is one it may open (a regular
    file, or nothing there), as `_check` tells, without refusing."""
    try:
        mode = os.stat(path, dir_fd=dir_fd).st_mode
    except OSError:
        return True
    return stat.S_ISREG(mode)


def _tree(
    here: str, shown: str, *, hidden: bool, prefix: str = ""
) -> Iterator[tuple[str, str, str, list[os.DirEntry[str]]]]:
    """Each directory a walk of `here` may reach, each before those below it: its path,
    its spelling, its glob prefix (below `prefix`) and its entries; hidden directories
    only with `hidden`."""
    pending = [(here, shown, prefix)]
    while pending:
        directory, spelled, glob = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue  # rg says it cannot read it, and counts it skipped
        yield directory, spelled, glob, entries
        for entry in entries:
            name = entry.name
            if name in _SKIPPED or (name.startswith(".") and not hidden):
                continue
            try:
                if not entry.is_dir(follow_symlinks=False):
                    continue
            except OSError:
                continue
            path = name if spelled == "." else os.path.join(spelled, name)
            child = glob_name(name, entries)
            pending.append((entry.path, path, f"{glob}/{child}" if glob else child))


def _check(path: str, shown: str, inside: Callable[[str], bool] | None) -> bool:
    """Whether an ignore file is at `path` (one rg cannot open is no file to it);
    refused if it is one rg must not open: not a regular file, or (`inside`: the file
    lies under the roots) a symlink out of them, wherever it points."""
    if inside is not None and os.path.islink(path) and not inside(os.path.realpath(path)):
        raise InputError(
            f"{quote(shown)} is an ignore file whose target lies outside the roots; "
            "the server reads nothing there"
        )
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if not stat.S_ISREG(mode):
        raise InputError(
            f"{quote(shown)} is {_kind(mode)}, not a regular file: rg would read it as an "
            "ignore file and never finish; remove it or search a directory without it"
        )
    return True


# Pinned walks: the rules of a call's ignore files, rebased.

_GLOB_META = frozenset("\\*?[]{}")
# Rust's `char::is_whitespace` (what rg trims from a rule's end): Python's `str.isspace`
# also takes U+001C-U+001F.
_RUST_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


_PLAIN = re.compile("[^\\\\*?\\[\\]{}\n\udc80-\udcff]*")
"""A name that is its own glob: no metacharacter (`_GLOB_META`), nothing `_odd`."""


def _odd(char: str) -> bool:
    """A character no rule can spell: a byte that is not UTF-8 (as `surrogateescape`
    decoded it; an ignore file is UTF-8 text), or a newline (which ends the rule)."""
    return "\udc80" <= char <= "\udcff" or char == "\n"


def glob_name(name: str, siblings: Sequence[os.DirEntry[str]] = ()) -> str:
    """One path component as a glob matching exactly it: metacharacters escaped; a
    character no rule can spell (`_odd`) as `?`, which matches one byte in rg's globs.
    Such a name must not match a sibling's: where it does, a NUL (which no glob holds)
    marks the prefix as one no rule may use (`pinned_rules` refuses)."""
    if _PLAIN.fullmatch(name):
        return name  # most names: one regex search, not a step a character
    glob = "".join(
        "?" if _odd(char) else ("\\" + char if char in _GLOB_META else char) for char in name
    )
    if not any(_odd(char) for char in name):
        return glob
    pattern = re.compile(
        b"".join(b"." if _odd(c) else re.escape(os.fsencode(c)) for c in name), re.DOTALL
    )
    if any(e.name != name and pattern.fullmatch(os.fsencode(e.name)) for e in siblings):
        return "\0" + glob
    return glob


def _rebase(line: str, prefix: str) -> str | None:
    """One line of an ignore file read at the directory `prefix` (a glob, "" for the
    walk's working directory), as a line rg reads the same way from the working
    directory: what `ignore::gitignore::GitignoreBuilder::add_line` (rg 14.1) makes of
    it, anchored under `prefix`. None for a line that matches no path rg prints."""
    if line.startswith("#"):
        return None
    if not line.endswith("\\ "):
        line = line.rstrip(_RUST_SPACE)
    if not line:
        return None
    whitelist = absolute = False
    if line.startswith(("\\!", "\\#")):
        line = line[1:]
    else:
        if line.startswith("!"):
            whitelist = True
            line = line[1:]
        if line.startswith("/"):
            line = line[1:]
            absolute = True
    only_dir = False
    if line.endswith("/"):
        only_dir = True
        line = line[:-1]
        if line.endswith("\\"):
            line = line[:-1]
    actual = line
    if not absolute and "/" not in line and not (actual.startswith("**/") or actual == "**"):
        actual = "**/" + actual
    if actual.endswith("/**"):
        actual += "/*"
    if actual == "**/":
        actual = "**"  # what rg's glob `**/` (a rule `!` alone) matches: every path
    elif actual == "" or actual.endswith("/"):
        return None  # matches only a path ending in `/` (`x//`): none rg prints
    # Read back, `/PREFIX/ACTUAL` is anchored and taken whole; a directory-only rule's
    # `/` comes off again, and with it one `\` before it (rg's rule), so a glob that
    # ends in `\` keeps it behind a second one.
    tail = ("\\/" if actual.endswith("\\") else "/") if only_dir else ""
    return ("!" if whitelist else "") + "/" + (prefix + "/" if prefix else "") + actual + tail


def _rules(text: bytes, prefix: str) -> Iterator[str]:
    """The rules of one ignore file as rg reads them, rebased under `prefix`."""
    for line in _lines(text):
        rebased = _rebase(line, prefix)
        if rebased is not None:
            yield rebased


def _lines(text: bytes) -> Iterator[str]:
    """The lines as Rust's `BufRead::lines` gives them: a CR stripped only before a LF
    (a last line with no LF keeps it), none after a line that is not UTF-8."""
    lines = text.split(b"\n")
    last = lines.pop()
    for raw in lines:
        try:
            yield (raw[:-1] if raw.endswith(b"\r") else raw).decode("utf-8")
        except UnicodeDecodeError:
            return
    if last:
        with contextlib.suppress(UnicodeDecodeError):
            yield last.decode("utf-8")


def _read(
    path: str, shown: str, inside: Callable[[str], bool], doubts: list[str] | None = None
) -> bytes | None:
    """An ignore file's bytes (None: there is none), checked first (`_check`) and read
    without blocking. `doubts` is told of one whose content can change with no event in
    its own directory (a symlink, a file of several links)."""
    if not _check(path, shown, inside):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None  # rg could not read it either: no rules
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # swapped since the look
            _check(path, shown, inside)
            return None
        if doubts is not None and (opened.st_nlink != 1 or os.path.islink(path)):
            doubts.append(shown)
        if not inside(_opened(fd)):  # a directory on its way swapped for a link out
            raise InputError(
                f"{quote(shown)} is an ignore file that was opened outside the roots "
                "(a directory on its path changed to a link); the server reads nothing there"
            )
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _opened(fd: int) -> str:
    """Where the file open as `fd` is, whatever name opened it (Linux's /proc, which a
    pinned walk needs anyway: `engine.pins.SUPPORTED`)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


class WalkRules(NamedTuple):
    """A call's walk's ignore rules (`pinned_rules`), as ignore files for rg in their
    order, and the entries met in its tree."""

    rules: tuple[bytes, ...]
    entries: int
    watched: bool = False
    """Whether a watch of the tree's directories (`engine.watch`) sees every change
    that could change these rules: no ignore file read through a symlink or of several
    links, no hidden directory read (no rule re-includes one), no rule under a
    directory whose name holds a byte no rule can spell (`glob_name` looks at its
    siblings, which a file event can change)."""


def entries_met(here: str, shown: str) -> int:
    """The entries `pinned_rules` counts in the tree of `here`."""
    return sum(len(entries) for *_, entries in _tree(here, shown, hidden=False))


_GROUP_BYTES = 1 << 16
"""Consecutive ignore files are handed to rg as one up to this size. rg builds each
ignore file's globs as one regex, within a size limit; a file past it is dropped whole
(`rg: error building NFA`, unsaid under `--no-ignore-messages`). Two files that fit apart
may not together (two 400 KB rules: every rule of the call dropped), so a file is never
joined to another past this size, far below the limit; a large one goes alone, as rg
would read it."""


def _grouped(files: Iterator[list[str]]) -> tuple[bytes, ...]:
    """The rules of `files` (in rg's precedence, lowest first) as few ignore files,
    each joining consecutive files up to `_GROUP_BYTES`. The same rules: in one file the
    last rule matching a path decides; of several `--ignore-file`s, the last file holding
    a rule that matches, that is, the last matching rule again."""
    groups: list[bytes] = []
    held = b""
    for rules in files:
        text = "".join(rule + "\n" for rule in rules).encode()
        if held and len(held) + len(text) > _GROUP_BYTES:
            groups.append(held)
            held = b""
        held += text
    if held:
        groups.append(held)
    return tuple(groups)


class Above(NamedTuple):
    """A directory from the root down to the searched one (exclusive)."""

    path: str
    shown: str
    prefix: str


def pinned_rules(
    above: Sequence[Above],
    here: str,
    shown: str,
    prefix: str,
    inside: Callable[[str], bool],
) -> WalkRules:
    """The ignore file that stands for every ignore file of a call's walk of `here`
    (spelled `shown`, printed by rg under the glob `prefix`): those of the directories
    `above` it from the root and of its tree, checked (`_check`), in rg's order; and
    the entries met in the tree's directories."""
    found: dict[str, list[list[str]]] = {kind: [] for kind in _BY_PRECEDENCE}
    doubts: list[str] = []

    def take(directory: str, spelled: str, glob: str, names: set[str] | None = None) -> None:
        """The rules of `directory`'s ignore files; `names`: its entries, when listed
        (only those present are looked at: a stat that finds nothing, 4 a directory,
        was most of a call's walk, issue 41 item 5)."""
        for kind in _BY_PRECEDENCE:
            if names is not None and _FIRST[kind] not in names:
                continue
            name = "." if spelled == "." else spelled
            text = _read(
                os.path.join(directory, kind),
                kind if name == "." else os.path.join(name, kind),
                inside,
                doubts,
            )
            if text is None:
                continue
            rules = list(_rules(text, glob))
            if rules and any(_odd(char) for char in spelled):
                doubts.append(spelled)
            if rules and "\0" in glob:
                raise InputError(
                    f"{quote(spelled)} holds ignore rules, and a directory name on its path "
                    "holds a newline or bytes not UTF-8 and reads like a sibling's; rename it"
                )
            if rules:
                found[kind].append(rules)

    for step in above:
        take(step.path, step.shown, step.prefix)
    hidden: list[tuple[str, str, str]] = []
    met = 0
    for directory, spelled, glob, entries in _tree(here, shown, hidden=False, prefix=prefix):
        met += len(entries)
        take(directory, spelled, glob, {entry.name for entry in entries})
        for entry in entries:
            if entry.name.startswith(".") and entry.name not in _SKIPPED:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        name = entry.name
                        path = name if spelled == "." else os.path.join(spelled, name)
                        child = glob_name(name, entries)
                        hidden.append((entry.path, path, f"{glob}/{child}" if glob else child))
                except OSError:
                    continue
    # rg walks a hidden directory only where a rule re-includes it: then its ignore
    # files are read too (and not those of a `.venv` no rule can name).
    lasts = [
        _last_name(rule)
        for files in found.values()
        for rules in files
        for rule in rules
        if rule[0] == "!"
    ]
    for top in hidden:
        name = os.path.basename(top[0])
        if any(_may_name(last, name) for last in lasts):
            for directory, spelled, glob, listed in _tree(*top[:2], hidden=True, prefix=top[2]):
                take(directory, spelled, glob, {entry.name for entry in listed})
    return WalkRules(
        _grouped(rules for kind in _BY_PRECEDENCE for rules in found[kind]),
        met,
        watched=not doubts and not lasts,
    )


def _last_name(rule: str) -> str:
    """The glob of the last component a rebased rule (`_rebase`) names."""
    body = rule.removesuffix("\\/") if rule.endswith("\\/") else rule.removesuffix("/")
    return body.rsplit("/", 1)[-1]


def _may_name(last: str, name: str) -> bool:
    """Whether a rule whose last component is the glob `last` may match an entry called
    `name`, or one below it (`**`, `*`): told by `fnmatch` where its reading is rg's,
    else assumed (a hidden directory walked for nothing costs time, one left out would
    lose its rules)."""
    if any(char in last for char in "[{\\"):
        return True
    return fnmatch.fnmatchcase(name, last)
