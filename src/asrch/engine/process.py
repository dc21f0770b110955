"""The real transport (`engine.transport`): each rg a child process, its stdout
streamed or written aside, stopped early on demand, always reaped. The only code in
asrch that starts a process (`_start`)."""

import contextlib
import fcntl
import functools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import IO, TYPE_CHECKING, NamedTuple

from asrch.domain.errors import EngineError
from asrch.domain.text_safety import quote
from asrch.engine.argv import PatternFile, with_walk_rules
from asrch.engine.transport import CHUNK, Ended, Site

if TYPE_CHECKING:
    from asrch.engine.pins import Pins
    from asrch.engine.transport import Transport

STOPPING_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1)
"""Signals that would end asrch without unwinding (SIGQUIT with a core dump): the
command line and the server take each as SIGTERM, stopping their rg children first
(issue 20, item 15). SIGINT is Ctrl-C, Python's KeyboardInterrupt already."""


GATHER = 0.002
"""Seconds a streamed reader of a large pipe waits after a short read (`_Child.chunks`)."""

_LIVE: set["subprocess.Popen[bytes]"] = set()
_LIVE_LOCK = threading.Lock()
_PATTERN_FILES: dict["subprocess.Popen[bytes]", list[IO[bytes]]] = {}
"""The pattern files of each live child (`PatternFile`), closed when it is forgotten."""


_stopping = False


def refuse_new_children() -> None:
    """The process is ending (a signal came): every child started from now on is killed
    at once. Survey's threads would otherwise go on from a killed rg to their next one,
    and the command line would wait for it. Only sets a flag: a signal handler calls it."""
    global _stopping  # noqa: PLW0603 (one process-wide state, like _LIVE)
    _stopping = True


_main_starting = False


def starting_child() -> bool:
    """The main thread is starting a child: a signal handler must not raise now. Raised
    inside `Popen`, after the fork, the exception would lose a running child (and inside
    a fork handler Python drops it); `_start` stops the child itself once it is held,
    since `refuse_new_children` has been called."""
    return _main_starting


def stop_requested() -> bool:
    """A stopping signal came: what fails from now on is asrch stopping its own searches."""
    return _stopping


def kill_all() -> None:
    """Kill every rg child still running (a signal reached the main thread)."""
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        _kill(child)


def _kill(child: "subprocess.Popen[bytes]") -> None:
    """SIGKILL a child that has not been reaped: its whole process group if it leads one
    (started by a `Children`), else the child alone."""
    if child.poll() is not None:
        return
    try:
        if os.getpgid(child.pid) == child.pid:
            os.killpg(child.pid, signal.SIGKILL)
        else:
            child.kill()
    except ProcessLookupError:
        pass


class Children:
    """The rg children of one caller (an MCP tool call), which can be stopped at once.

    Each child starts in its own process group. `stop()` kills and reaps every child
    still running and refuses any later one, so a cancelled call leaves no rg behind
    even while its worker thread is still between two searches (survey runs several).
    """

    def __init__(self) -> None:
        self._live: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()
        self._stopped = False

    def adopt(self, child: "subprocess.Popen[bytes]") -> None:
        with self._lock:
            if not self._stopped:
                self._live.add(child)
                return
        _kill(child)
        child.wait()
        raise EngineError("the search was cancelled")

    def release(self, child: "subprocess.Popen[bytes]") -> None:
        with self._lock:
            self._live.discard(child)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            children = list(self._live)
        for child in children:
            _kill(child)
            child.wait()


class _Child:
    """A running rg (`RgCall`): stdout through a pipe (`stream`) or into an unnamed
    scratch file, stdin a pipe the caller feeds or empty, stderr into a scratch file.

    stderr is read once rg has ended: a child that reports thousands of unreadable
    files (or, with `--debug`, every binary file it meets) never blocks on a full pipe
    while we read stdout, and no thread of ours wakes per line. It is kept whole: a
    count of skipped files must not stop at some size (a line is ~100 bytes a file).
    (A thread once read it line by line from the unbuffered pipe: one `read` call per
    byte, 1.2 s of CPU for the 4 MB of debug lines a survey of a 941 MB tree with
    18,774 `.pyc` files gets, issue 34.) Unstreamed, stdout goes aside too: rg never
    waits on a reader that the machine's load keeps from running.
    """

    def __init__(
        self,
        argv: list[str],
        launch: "Launch",
        *,
        stream: bool,
        stdin: bool,
        pipe_size: int,
        memory: int = 0,
    ) -> None:
        self.argv = argv
        self._launch = launch
        self._stopped = False
        self._ended: Ended | None = None
        self._err = _scratch()
        self._out = None if stream else _scratch()
        try:
            # Fed, no parent-death signal is needed: asrch holds the only write end of
            # its stdin, so if asrch dies, even by SIGKILL, rg reads the end of its
            # input and ends. Without one, Python starts it by vfork, with no fork
            # handlers run (≈2 ms less a child; a signal caught in such a handler is lost).
            self._child = _start(
                argv,
                subprocess.PIPE if self._out is None else self._out,
                self._err,
                launch,
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                die_with_parent=not stdin,
            )
        except BaseException:
            self._close_files()
            raise
        self._stdin: IO[bytes] | None = self._child.stdin
        if memory:
            _bound_data(self._child.pid, memory)
        self._gather = False
        if pipe_size and hasattr(fcntl, "F_SETPIPE_SZ"):
            # Ask for a pipe of that many bytes (Linux), so that rg writes (or reads)
            # on while the other side is busy or descheduled. Above the system's limit
            # the default pipe stays: it works, only slower.
            for pipe in (self._child.stdout, self._stdin):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, pipe_size)
                        if pipe is self._child.stdout:
                            self._gather = True

    def chunks(self, size: int = CHUNK) -> Iterator[bytes]:
        if self._out is None:
            assert self._child.stdout is not None
            fd = self._child.stdout.fileno()
        else:
            self._wait()
            self._out.seek(0)
            fd = self._out.fileno()
        gather = self._gather and self._out is None
        while data := os.read(fd, size):
            yield data
            if gather and len(data) < size >> 3 and self._running():
                # A short read from a large pipe while rg runs: wait a moment, so that
                # the next read takes what many of rg's writes put there. rg writes a
                # file's records at a time (≈300 bytes a source file) and each write
                # wakes a waiting reader: survey's walk of the installed lib (5.4 MB)
                # woke asrch 2,100 times, ≈130 after this wait, −10 % of its CPU
                # with rg's (a bare reader: 18,800 reads, 74 ms; 93 reads, 7 ms).
                # A 1 MB pipe holds what rg writes meanwhile.
                time.sleep(GATHER)

    def _running(self) -> bool:
        """rg has not ended yet (asked without reaping it: `WNOWAIT`)."""
        try:
            ended = os.waitid(os.P_PID, self._child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped already: stopped (`Children.stop` too)
            return False
        return ended is None

    def read(self) -> bytes:
        if self._out is None:
            return b"".join(self.chunks())
        self._wait()
        self._out.seek(0)
        return self._out.read()

    @property
    def reading(self) -> bool:
        return self._stdin is not None

    def feed(self, data: bytes) -> bool:
        if self._stdin is None:
            return False
        fd = self._stdin.fileno()
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except BrokenPipeError:
            self._close_stdin()
            return False
        return True

    def stop(self) -> None:
        self._stopped = True
        self._reap()

    def end(self) -> Ended:
        if self._ended is None:
            if self._out is None:
                self._reap()
            else:
                self._wait()
            self._err.seek(0)
            self._ended = Ended(self._child.returncode, self._err.read(), self._stopped)
        return self._ended

    def __enter__(self) -> "_Child":
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._reap()
        self._close_files()

    def _wait(self) -> None:
        """Wait for rg to end (its input ended first); interrupted, rg goes with us."""
        self._close_stdin()
        try:
            self._child.wait()
        finally:
            self._reap()

    def _close_stdin(self) -> None:
        if self._stdin is not None:
            # rg may have gone: closing the pipe has nothing left to flush (unbuffered).
            self._stdin.close()
            self._stdin = None

    def _reap(self) -> None:
        self._close_stdin()
        _kill(self._child)
        if self._child.stdout is not None:
            self._child.stdout.close()
        self._child.wait()
        _forget(self._child, self._launch)

    def _close_files(self) -> None:
        self._err.close()
        if self._out is not None:
            self._out.close()


class Processes:
    """The real `Transport`: each rg a child process of this one (`_start`)."""

    def start(
        self,
        argv: list[str],
        launch: Site,
        *,
        stream: bool = False,
        stdin: bool = False,
        pipe_size: int = 0,
        memory: int = 0,
    ) -> _Child:
        # Started only where a `Launch` says: its environment and the children that
        # own the run are the real transport's business, not the protocol's.
        assert isinstance(launch, Launch), launch
        return _Child(argv, launch, stream=stream, stdin=stdin, pipe_size=pipe_size, memory=memory)


PROCESSES = Processes()


class Launch(NamedTuple):
    """Where rg children start: the working directory they run in (None: this process's),
    the `Children` that own them (None: only the process-wide registry) and their
    environment (None: this process's).

    A NamedTuple, not a dataclass: this module is on every command's start-up path."""

    cwd: str | None = None
    children: Children | None = None
    env: Mapping[str, str] | None = None
    pins: "Pins | None" = None
    """An MCP call's: every path read is the object pinned for it (`engine.pins`)."""
    inside: str | None = None
    """The pinned directory (by the path as given) that rg walks (`walking`)."""
    walked: str = "."
    """What rg is handed for `inside` (`engine.pins.PinnedWalk`)."""
    rules: tuple[bytes, ...] | None = None
    """A pinned walk's ignore rules, handed to rg as its only ignore files (None: rg
    finds its ignore files itself, as on the command line)."""
    transport: "Transport" = PROCESSES
    """What starts rg (`engine.transport`): the real processes, or a fake in tests."""

    def here(self, path: str) -> str:
        """`path` as this process must spell it to open what rg, in `cwd`, opens."""
        if self.pins is not None:
            return self.pins.here(path)
        return path if self.cwd is None else os.path.join(self.cwd, path)

    def operand(self, path: str) -> str:
        """`path` as rg, started in `cwd`, is handed it: itself, its pinned object, or
        `.` for the pinned directory rg starts in (with the path's own trailing `/`)."""
        if self.inside is not None and path == self.inside:
            return self.walked
        return path if self.pins is None else self.pins.here(path)

    def walking(self, path: str) -> "Launch":
        """This launch, for rg runs that walk the directory `path`: under pins, rg starts
        *in* the pinned directory (its working directory is the pinned object itself)
        and is handed `.`. Handed `/proc/PID/fd/N`, rg opens every file by a path that
        procfs resolves first (the pid, `fd`, the descriptor's link): 1.12x rg's CPU on
        the stdlib, against 0.96x in the directory (docs/performance.md, issue 34).
        Below the root, rg starts in a directory of links that spells the path from the
        root to the pinned one (`engine.pins.PinnedWalk`), and reads no ignore file but
        the one asrch hands it (issue 39, item 4)."""
        if self.pins is None or self.inside is not None:
            return self
        walk = self.pins.walk(path)
        if walk is None:
            return self
        return self._replace(cwd=walk.cwd, inside=path, walked=walk.operand, rules=walk.rules)

    def stop_all(self) -> None:
        """Kill every rg child still running that this launch answers for (a sibling
        search failed): the caller's own, or without `Children` the process's."""
        if self.children is not None:
            self.children.stop()
        else:
            kill_all()


HERE = Launch()


def scratch_for_child() -> tuple[IO[bytes], str]:
    """An unnamed scratch file and a path a child process can open it by."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("asrch-lines")
        return os.fdopen(fd, "w+b"), f"/proc/{os.getpid()}/fd/{fd}"
    import tempfile  # noqa: PLC0415 (see _scratch)

    named = tempfile.NamedTemporaryFile()  # noqa: SIM115 (the caller closes it)
    return named, named.name


def _scratch() -> IO[bytes]:
    if hasattr(os, "memfd_create"):
        return os.fdopen(os.memfd_create("asrch-rg"), "w+b")
    import tempfile  # noqa: PLC0415 (not on Linux's path: tempfile imports shutil, bz2, lzma)

    return tempfile.TemporaryFile()


_PR_SET_PDEATHSIG = 1


def _bound_data(pid: int, memory: int) -> None:
    """Bound a started child's data (`RLIMIT_DATA`: its heap and private writable
    mappings) where the system has the limit. Set from here, just after the start, not in
    the child: rg allocates little before it reads a file, and the child's code between
    fork and exec stays the death signal's few async-signal-safe calls. The pid is
    still this child's: it is not reaped yet. Through an `ASRCH_RG` wrapper it bounds
    the wrapper and what it starts after; the bound only ever saves memory, never
    decides an answer. rg then ends by SIGABRT: no core file, which would land in the
    working directory. Set for each child, never remembered by pid: pids are reused."""
    try:
        import resource  # noqa: PLC0415 (only for the runs that ask)

        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))
        resource.prlimit(pid, resource.RLIMIT_DATA, (memory, memory))
    except (ImportError, AttributeError, OSError, ValueError):
        pass  # no such limit here, or the child has already ended


@functools.cache
def _prctl() -> "Callable[[int, int, int, int], int] | None":
    """Linux's `prctl`, resolved once (None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # noqa: PLC0415 (only when a child starts, not on the import path)

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


def _die_with_parent() -> "Callable[[], None] | None":
    """What the child runs before exec, where Linux's `prctl` exists: the kernel then
    SIGKILLs the child when its parent dies, even by SIGKILL, which no handler of ours
    can see (issue 20, item 15), so no rg runs on under PID 1.

    The death signal comes when the *thread* that started the child ends; every thread
    that starts one waits for it, so the child is gone before that happens."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def set_death_signal() -> None:
        # Only a resolved C call and os functions: the child of a threaded process may
        # not take locks another thread held at the fork.
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0)
        if os.getppid() != parent:  # the parent died before the prctl took hold
            os._exit(1)

    return set_death_signal


def _start(
    argv: list[str],
    stdout: int | IO[bytes],
    stderr: int | IO[bytes],
    launch: Launch,
    stdin: int = subprocess.DEVNULL,
    *,
    die_with_parent: bool = True,
) -> "subprocess.Popen[bytes]":
    global _main_starting  # noqa: PLW0603 (read by the signal handler, like _stopping)
    argv = with_walk_rules(argv, launch.rules)
    files, argv = _write_pattern_files(argv)
    main = threading.current_thread() is threading.main_thread()
    if main:
        _main_starting = True
    try:
        child = subprocess.Popen(
            argv,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            bufsize=0,
            cwd=launch.cwd,
            env=launch.env,
            # A caller that stops its children (`Children`) kills each one's whole group.
            process_group=0 if launch.children is not None else None,
            preexec_fn=_die_with_parent() if die_with_parent else None,  # noqa: PLW1509 (async-signal-safe calls only)
        )
    except OSError as exc:
        if main:
            _main_starting = False
        _close_all(files)
        raise EngineError(
            f"cannot run rg at {quote(argv[0])}: {exc.strerror or exc}; "
            "reinstall asrch or set ASRCH_RG"
        ) from None
    except BaseException:
        if main:
            _main_starting = False
        _close_all(files)
        raise
    with _LIVE_LOCK:
        _LIVE.add(child)
        if files:
            _PATTERN_FILES[child] = files
        stopping = _stopping
    if main:
        _main_starting = False
    if stopping:  # kill_all may have run before this child was in _LIVE
        _kill(child)
        child.wait()
        _forget(child, launch)
        raise EngineError("the search was cancelled")
    if launch.children is not None:
        try:
            launch.children.adopt(child)
        except EngineError:
            _forget(child, launch)
            raise
    return child


def _write_pattern_files(argv: list[str]) -> tuple[list[IO[bytes]], list[str]]:
    """Each `PatternFile` of `argv` written into a scratch file of this run's own, and
    `argv` naming those files. Written whole before rg starts, so rg never reads one
    half written; closed by `_forget` once rg has been reaped."""
    if not any(isinstance(arg, PatternFile) for arg in argv):
        return [], argv
    files: list[IO[bytes]] = []
    named: list[str] = []
    try:
        for arg in argv:
            if isinstance(arg, PatternFile):
                scratch, path = scratch_for_child()
                files.append(scratch)
                scratch.write(arg.data)
                scratch.flush()
                named.append(f"{arg.option}={path}")
            else:
                named.append(arg)
    except BaseException:
        _close_all(files)
        raise
    return files, named


def _close_all(files: list[IO[bytes]]) -> None:
    for file in files:
        file.close()


def _forget(child: "subprocess.Popen[bytes]", launch: Launch) -> None:
    with _LIVE_LOCK:
        _LIVE.discard(child)
        files = _PATTERN_FILES.pop(child, [])
    _close_all(files)
    if launch.children is not None:
        launch.children.release(child)
