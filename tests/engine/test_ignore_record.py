"""The command line's look at ignore files from its record (`engine.ignore_record`,
issue 41 item 5) against the full look (`check_ignore_files`, issue 39): on random
trees edited at random between looks, the recorded look refuses exactly when the full
one does, with the same line, and otherwise meets the same entries."""

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from asrch.domain.errors import InputError
from asrch.engine import ignore_record
from asrch.engine.ignore_files import NAMES, check_ignore_files
from asrch.engine.ignore_record import check_ignore_files_recorded
from asrch.engine.index.location import look_record_path
from tests.support.tiers import examples

LATER = 3600 * 10**9
"""The clock the recorded looks read runs an hour ahead of the files' times: every
directory is settled (not racily clean) and may be taken from the record. A change
the test makes is then seen only through the identity it changes, which the edits
below make sure of (`_touched`): the racy rule is tested on its own below."""

Outcome = tuple[str, int | str]


def _outcome(look: Callable[[], int]) -> Outcome:
    try:
        return ("met", look())
    except InputError as error:
        return ("refused", error.message)


class Tree:
    """A tree under `root` (its top `root/t`, an `outside` directory beside it), and
    the edits the test makes to it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.top = root / "t"
        self.outside = root / "outside"
        self.top.mkdir()
        self.outside.mkdir()
        self.linked = self.outside / "linked"
        (self.linked / "d").mkdir(parents=True)
        (self.linked / "d" / "e").mkdir()
        (self.linked / "d" / "x.txt").write_text("x\n")
        (self.linked / "d" / "e" / "y.txt").write_text("x\n")
        self.environ = {"XDG_CACHE_HOME": str(root / "cache")}
        self.stamp = 10**18

    def directories(self) -> list[Path]:
        """Every directory of the tree (hidden ones and exclusions too), sorted."""
        found = [self.top]
        for path, names, _ in os.walk(self.top):
            found.extend(Path(path) / name for name in names)
        return sorted(found)

    def touched(self, *directories: Path) -> None:
        """The directories an edit changed an entry of, given an mtime of their own:
        as if the edit came a tick after the last look (the racy rule covers edits in
        the same tick, `test_a_directory_changed_in_the_ticks_of_its_record_is_listed_again`)."""
        for directory in directories:
            self.stamp += 10**9
            if directory.is_dir() and not directory.is_symlink():
                os.utime(directory, ns=(self.stamp, self.stamp))

    def full(self, shown: str = ".") -> Outcome:
        return _outcome(lambda: check_ignore_files(str(self.top), shown))

    def recorded(self, shown: str = ".") -> Outcome:
        return _outcome(
            lambda: check_ignore_files_recorded(
                str(self.top),
                shown,
                self.environ,
                clock=lambda: time.time_ns() + LATER,
                least=0,
            )
        )


NAMES_DRAWN = ("a", "b", "c", ".h", "node_modules", *NAMES, ".git")

_EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            (
                "mkdir",
                "file",
                "remove",
                "fifo",
                "regular",
                "link out",
                "target fifo",
                "target regular",
                "chmod 000",
                "chmod 755",
                "rename",
                "exclude fifo",
                "fifo, mtime kept",
                "link dir",
            )
        ),
        st.integers(0, 30),
        st.sampled_from(NAMES_DRAWN),
    ),
    min_size=1,
    max_size=4,
)


def _regular(path: Path, text: str) -> None:
    """A regular file at `path`, in place of what was there but a directory (never
    opened: a FIFO would block this test)."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        path.unlink()
    path.write_text(text)


def _edit(tree: Tree, kind: str, pick: int, name: str) -> None:
    """One edit of `tree`: `pick` chooses a directory (of all of them, hidden ones
    too), `name` an entry's name."""
    directories = tree.directories()
    directory = directories[pick % len(directories)]
    path = directory / name
    target = tree.outside / "target"
    try:
        if kind == "mkdir":
            path.mkdir()
        elif kind == "file":
            _regular(path, "x\n")
        elif kind == "remove":
            if path.is_dir() and not path.is_symlink():
                for inner in [path, *Path(path).rglob("*")]:
                    if inner.is_dir() and not inner.is_symlink():
                        inner.chmod(0o755)
                shutil.rmtree(path)
            else:
                path.unlink()
        elif kind == "fifo":
            path.unlink(missing_ok=True)
            os.mkfifo(path)
        elif kind == "regular":
            _regular(path, "*.log\n")
        elif kind == "link out":
            if not target.exists():
                _regular(target, "*.log\n")
            path.unlink(missing_ok=True)
            path.symlink_to(target)
        elif kind == "target fifo":
            # No directory of the tree changes: only the link's target does.
            target.unlink(missing_ok=True)
            os.mkfifo(target)
            return
        elif kind == "target regular":
            _regular(target, "*.log\n")
            return
        elif kind == "chmod 000":
            if directory != tree.top:
                directory.chmod(0)
            return  # its ctime and mode change, not its mtime
        elif kind == "chmod 755":
            directory.chmod(0o755)
            return
        elif kind == "rename":
            if directory == tree.top:
                return
            renamed = directory.parent / name
            if renamed.exists():
                return
            directory.rename(renamed)
            tree.touched(directory.parent)
            return
        elif kind == "fifo, mtime kept":
            # `touch -r`: the directory's mtime set back, which sets its ctime to now.
            before = directory.stat()
            path.unlink(missing_ok=True)
            os.mkfifo(path)
            os.utime(directory, ns=(before.st_atime_ns, before.st_mtime_ns))
            return
        elif kind == "link dir":
            # A directory rg does not enter (D21): its entries are not met.
            if path.is_dir() and not path.is_symlink():
                return
            path.unlink(missing_ok=True)
            path.symlink_to(tree.linked)
        elif kind == "exclude fifo":
            # `.git/info/exclude`: `.git` is hidden, its directories not walked.
            made = not (directory / ".git").exists()
            info = directory / ".git" / "info"
            info.mkdir(parents=True, exist_ok=True)
            (info / "exclude").unlink(missing_ok=True)
            os.mkfifo(info / "exclude")
            if made:
                tree.touched(directory)
            return
    except OSError:
        return  # not possible here (a name taken, a directory not empty): no edit
    tree.touched(directory)


def _unreadable_as_for_a_user(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as root (which reads any directory), a directory with no read permission
    cannot be listed, as for any other user: both looks then meet what a user's would."""
    if os.geteuid() != 0:
        return
    real = os.scandir

    def scandir(path: str) -> Iterator[os.DirEntry[str]]:
        if os.stat(path).st_mode & 0o444 == 0:
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


@pytest.fixture
def scratch() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="asrch-record-"))
    yield root
    for path, names, _ in os.walk(root):
        for name in names:
            os.chmod(os.path.join(path, name), 0o755)
    shutil.rmtree(root)


@settings(
    max_examples=examples(60, more=300),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(start=[], steps=[[("link out", 0, ".gitignore")], [("target fifo", 0, "a")]])
@example(start=[(0, "a")], steps=[[("remove", 0, "a"), ("link dir", 0, "a")]])
@example(start=[(0, "a"), (1, "d"), (2, "e")], steps=[[("remove", 0, "a"), ("link dir", 0, "a")]])
@example(start=[(0, "a"), (1, "b"), (2, "c")], steps=[[("chmod 000", 1, "a")]])
@example(start=[], steps=[[("mkdir", 0, ".git")], [("exclude fifo", 0, "a")]])
@example(start=[(0, "a")], steps=[[("fifo, mtime kept", 1, ".rgignore")]])
@given(
    start=st.lists(
        st.tuples(st.integers(0, 30), st.sampled_from(("a", "b", "c", ".h"))), max_size=6
    ),
    steps=st.lists(_EDITS, min_size=1, max_size=8),
)
def test_the_recorded_look_answers_as_the_full_look_after_any_edits(
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    start: list[tuple[int, str]],
    steps: list[list[tuple[str, int, str]]],
) -> None:
    _unreadable_as_for_a_user(monkeypatch)
    run = Path(tempfile.mkdtemp(dir=scratch))
    tree = Tree(run)
    (tree.top / ".gitignore").write_text("*.log\n")
    for pick, name in start:
        _edit(tree, "mkdir", pick, name)
        _edit(tree, "file", pick, "f.txt")
    assert tree.recorded() == tree.full()
    for edits in steps:
        for kind, pick, name in edits:
            _edit(tree, kind, pick, name)
        full = tree.full()
        assert tree.recorded() == full, edits
        assert tree.recorded() == full, edits  # from the record just written


def _coarse(seconds: int) -> Callable[..., os.stat_result]:
    """`os.lstat` as a file system whose times are `seconds` coarse (FAT: 2) shows."""
    real = os.lstat
    grain = seconds * 10**9

    def lstat(path: str, *, dir_fd: int | None = None) -> os.stat_result:
        status = real(path, dir_fd=dir_fd)
        mtime = status.st_mtime_ns - status.st_mtime_ns % grain
        ctime = status.st_ctime_ns - status.st_ctime_ns % grain
        return _Status(status, mtime, ctime)  # type: ignore[return-value]

    return lstat


class _Status:
    """A stat result with other times."""

    def __init__(self, status: os.stat_result, mtime_ns: int, ctime_ns: int) -> None:
        self.st_dev = status.st_dev
        self.st_ino = status.st_ino
        self.st_mode = status.st_mode
        self.st_mtime_ns = mtime_ns
        self.st_ctime_ns = ctime_ns


@pytest.mark.parametrize("grain", [1, 2])
def test_a_directory_changed_in_the_ticks_of_its_record_is_listed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grain: int
) -> None:
    """On a file system with coarse times (ext3 and HFS+ 1 s, FAT 2 s) a FIFO made in a
    directory in the same tick as its listing leaves its identity as recorded: a
    directory changed that lately is never taken from the record (git's racily clean
    rule), so the look refuses as the full one does. Fails with `MARGIN_NS` at 0."""
    monkeypatch.setattr(os, "lstat", _coarse(grain))
    top = tmp_path / "t"
    (top / "sub").mkdir(parents=True)
    environ = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for _ in range(20):  # a tick boundary between listing and FIFO: once more
        fifo = top / "sub" / ".ignore"
        if fifo.exists():
            fifo.unlink()
        (top / "sub" / "a.txt").write_text("x\n")
        before = os.lstat(str(top / "sub"))
        assert check_ignore_files_recorded(str(top), ".", environ, least=0) == 2
        os.mkfifo(fifo)
        (top / "sub" / "a.txt").unlink()
        after = os.lstat(str(top / "sub"))
        if (before.st_mtime_ns, before.st_ctime_ns) == (after.st_mtime_ns, after.st_ctime_ns):
            break
    else:
        pytest.skip("no two changes in one tick of the file system's times")
    with pytest.raises(InputError, match=r"sub/\.ignore is a FIFO"):
        check_ignore_files(str(top), ".")
    with pytest.raises(InputError, match=r"sub/\.ignore is a FIFO"):
        check_ignore_files_recorded(str(top), ".", environ, least=0)


def _recorded_tree(root: Path) -> tuple[Path, dict[str, str], str]:
    top = root / "t"
    for name in ("a", "b/c", ".h"):
        (top / name).mkdir(parents=True)
        (top / name / "f.txt").write_text("x\n")
    environ = {"XDG_CACHE_HOME": str(root / "cache")}
    return top, environ, look_record_path(str(top.resolve()), environ)


def _look(top: Path, environ: dict[str, str], clock: int = LATER) -> int:
    return check_ignore_files_recorded(
        str(top), ".", environ, clock=lambda: time.time_ns() + clock, least=0
    )


def _forge(path: str, **fields: object) -> None:
    """The record at `path` with other fields (`met`, `taken`, `header`)."""
    import marshal

    loaded = list(marshal.loads(Path(path).read_bytes()))
    for name, value in fields.items():
        loaded[("header", "root", "taken", "paths", "identities", "met").index(name)] = value
    Path(path).write_bytes(marshal.dumps(tuple(loaded)))


def test_a_record_is_read_only_as_this_code_wrote_it(tmp_path: Path) -> None:
    """A record is taken as it says (a forged count is answered, which shows it was
    read), except one taken later than now (the clock set back), of another format,
    user or tree, or not readable as a record: then the full look, silently."""
    top, environ, path = _recorded_tree(tmp_path)
    assert _look(top, environ) == 6
    _forge(path, met=999)
    assert _look(top, environ) == 999
    assert _look(top, environ, clock=-LATER) == 6  # the clock set back
    _forge(path, met=999)
    header = ignore_record._header()
    _forge(path, header=(header[0] + 1, *header[1:]))
    assert _look(top, environ) == 6
    for data in (b"", b"\x00garbage", Path(path).read_bytes()[:-7]):
        Path(path).write_bytes(data)
        assert _look(top, environ) == 6
    assert _look(top, environ) == 6
    if os.geteuid() == 0:
        _forge(path, met=999)
        os.chown(path, 65534, 65534)
        assert _look(top, environ) == 6  # not this user's


def test_a_cache_that_cannot_be_written_keeps_no_record(tmp_path: Path) -> None:
    top, environ, path = _recorded_tree(tmp_path)
    (tmp_path / "cache").write_text("a file where the cache directory would be\n")
    assert _look(top, environ) == 6
    assert not os.path.exists(path)


def test_a_small_tree_is_not_recorded(tmp_path: Path) -> None:
    """Below `LEAST_DIRECTORIES` a full look costs about what a record saves; a record
    of a tree grown smaller than the least is removed."""
    top, environ, path = _recorded_tree(tmp_path)
    assert check_ignore_files_recorded(str(top), ".", environ) == 6
    assert not os.path.exists(path)
    assert _look(top, environ) == 6
    assert os.path.exists(path)
    shutil.rmtree(top / "b" / "c")
    assert (
        check_ignore_files_recorded(
            str(top), ".", environ, clock=lambda: time.time_ns() + LATER, least=4
        )
        == 4
    )
    assert not os.path.exists(path)
