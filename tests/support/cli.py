"""The suite's one way to run the command line: `run_asrch(argv, cwd=..., env=...)`.

    from tests.support.cli import run_asrch

    ran = run_asrch(["scout", "connect", "."], cwd=tmp_path, env={"ASRCH_RG": str(fake)})
    assert ran.status == 0, ran
    assert ran.stdout.startswith(b"query: connect\n")

- `argv`: the words after `asrch`; str, bytes (any file name passes) or paths.
- `cwd`: the run's working directory (default: the test's).
- `env`: variables set for this run only, over this process's environment (a value of
  None unsets one); `environ`: the run's whole environment instead.
- The `Result`: stdout and stderr as the bytes a process would have written (the CLI
  writes UTF-8 bytes through `sys.stdout.buffer`), and the exit status.

A run is in-process: `asrch.entry.main(argv)`, the console script's entry, is called in
this interpreter with its standard streams captured and its working directory,
environment, argv and signal handlers set for the run and restored after it; the engine
it uses is rebuilt for each run (it resolves rg once, from ASRCH_RG). Runs are one at a
time (a lock) and on the main thread (the CLI sets a SIGTERM handler), so a test that
wants runs side by side, as processes, passes `cold=True`.

`cold=True`, or ASRCH_TESTS_COLD=1 for every run, starts a fresh `python -m asrch`
instead; `tests/cli/test_runner.py` holds the two to the same bytes. Tests that are about the
process itself (signals, process groups, timeouts, stdin, the console script, imports)
start their own subprocess and do not use this.

When the CLI's entry changes, `_in_process` is the one function to adapt.
"""

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import NamedTuple

Arg = str | bytes | os.PathLike[str] | os.PathLike[bytes]
Env = Mapping[str, str | None]
Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None

TIMEOUT = 120.0
"""A hung run fails its test (subprocess.TimeoutExpired) instead of stalling the suite."""

ROOT = Path(__file__).resolve().parents[2]


class Result(NamedTuple):
    """One asrch run, as the suite's tests see it, whoever ran it (in-process, a fresh
    interpreter, setpriv): the bytes it wrote, its exit status and the words it was given;
    `out` and `err` are the text."""

    stdout: bytes
    stderr: bytes
    status: int
    argv: tuple[bytes, ...] = ()

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8")

    def __str__(self) -> str:
        return (
            f"asrch {self.argv!r} -> exit {self.status}\n"
            f"stdout: {self.stdout[:2000]!r}\nstderr: {self.stderr[:2000]!r}"
        )


def always_cold() -> bool:
    """Every run a fresh interpreter (ASRCH_TESTS_COLD=1)."""
    return os.environ.get("ASRCH_TESTS_COLD") == "1"


def run_asrch(
    argv: Sequence[Arg],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Env | None = None,
    environ: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT,
    cold: bool | None = None,
) -> Result:
    """`asrch ARGV` in `cwd`; see the module's docstring."""
    words = [os.fsencode(a) for a in argv]
    environment = dict(os.environ if environ is None else environ)
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    directory = os.path.abspath(os.getcwd() if cwd is None else cwd)
    if always_cold() if cold is None else cold:
        return _subprocess(words, directory, environment, timeout)
    return _in_process(words, directory, environment, timeout)


def _subprocess(words: list[bytes], cwd: str, environ: dict[str, str], timeout: float) -> Result:
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"asrch", *words],
        cwd=cwd,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return Result(done.stdout, done.stderr, done.returncode, tuple(words))


# --- in-process ------------------------------------------------------------------------

_ONE_AT_A_TIME = threading.Lock()


class _Overtime(BaseException):
    """Raised in the run by SIGALRM: a BaseException, so asrch's `except Exception` does
    not word it, and its `finally` blocks kill and reap rg as they would on a signal."""


def _overtime(signum: int, frame: FrameType | None) -> None:
    raise _Overtime


def _in_process(words: list[bytes], cwd: str, environ: dict[str, str], timeout: float) -> Result:
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("in-process asrch runs on the main thread; pass cold=True")
    # As the interpreter turns argv into str: undecodable bytes as surrogate escapes.
    argv = [os.fsdecode(w) for w in words]
    out, err = io.BytesIO(), io.BytesIO()
    # Held here to the end: a wrapper that is collected closes its buffer.
    stdout, stderr = _stream(out), _stream(err)
    with _ONE_AT_A_TIME, _process_state(cwd, environ, argv, stdout, stderr):
        from asrch.entry import main

        _fresh_engine()
        previous = signal.signal(signal.SIGALRM, _overtime)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except _Overtime:
            raise subprocess.TimeoutExpired(["asrch", *argv], timeout) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        stdout.flush()
        stderr.flush()
    return Result(out.getvalue(), err.getvalue(), status & 0xFF, tuple(words))


def _fresh_engine() -> None:
    """The CLI's searcher resolves rg once per process (from ASRCH_RG, beside the
    interpreter, or PATH): a new one per run, as each process would have. Any
    module-level searcher of asrch is replaced, wherever the CLI keeps it."""
    import asrch.cli  # noqa: F401 (the command line's modules, loaded as a run loads them)
    from asrch.engine.searcher import RipgrepSearcher

    for name, module in list(sys.modules.items()):
        if name.startswith("asrch.") and module is not None:
            namespace = vars(module)
            for attribute, value in list(namespace.items()):
                if type(value) is RipgrepSearcher:
                    namespace[attribute] = RipgrepSearcher()


def _stream(buffer: io.BytesIO) -> io.TextIOWrapper:
    """A standard stream as Python opens it under a UTF-8 locale, over `buffer`."""
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", write_through=True)


_SIGNALS = sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})
"""Every signal a handler can be set for: the entry sets SIGINT, SIGTERM and the other
stopping signals, and a later version may set more."""


@contextlib.contextmanager
def _process_state(
    cwd: str,
    environ: dict[str, str],
    argv: list[str],
    stdout: io.TextIOWrapper,
    stderr: io.TextIOWrapper,
) -> Iterator[None]:
    """What a process would own, set for one run and put back after it: the working
    directory, the environment, argv, the standard streams and the signal handlers."""
    saved_cwd = os.getcwd()
    saved_environ = dict(os.environ)
    saved_argv = sys.argv
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_handlers = _handlers()
    stdin = open(os.devnull, "rb")  # noqa: SIM115 (closed below)
    try:
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(cwd)
        sys.argv = [sys.argv[0], *argv]
        sys.stdin = io.TextIOWrapper(stdin, encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        stdin.close()
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_environ)
        for number, handler in _handlers().items():
            if handler is not saved_handlers[number] and saved_handlers[number] is not None:
                signal.signal(number, saved_handlers[number])


def _handlers() -> dict[int, Handler]:
    found: dict[int, Handler] = {}
    for number in _SIGNALS:
        try:
            found[number] = signal.getsignal(number)
        except (OSError, ValueError):  # a real-time signal Python does not handle
            continue
    return found
