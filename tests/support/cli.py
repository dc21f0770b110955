"""The suite's one way to run the command line: `run_asrch(argv, cwd=..., env=...)`.

    from tests.support.cli import run_asrch

    ran = run_asrch(["scout", "connect", "."], cwd=tmp_path, env={"ASRCH_RG": str(fake)})
    assert ran.status == 0, ran
    assert ran.stdout.startswith(b"scout:\n")

- `argv`: the words after `asrch`; str, bytes (any file name passes) or paths.
- `cwd`: the run's working directory (default: the test's).
- `env`: variables set for this run only, over this process's environment (a value of
  None unsets one); `environ`: the run's whole environment instead.
- The `Result`: stdout and stderr as the bytes a process would have written (the CLI
  writes UTF-8 bytes through `sys.stdout.buffer`), and the exit status.

A run is in-process: `asrch.cli.main(argv, searchers=..., stdout=..., stderr=...)`, the
command line's own entry, is called in this interpreter with the run's streams and an rg
searcher of its own (started from `cwd`, with the run's environment, its rg children
owned by the run). Nothing of this process is changed: not its working directory,
environment, argv, standard streams or signal handlers, so runs may go side by side on
any thread. `asrch.entry`'s process settings (signal handlers) are not part of it: tests
about them start a process. A run past `timeout` has its rg children stopped and raises
`subprocess.TimeoutExpired`.

`transport`: what answers the run's rg, instead of rg's processes: an
`asrch.engine.mock_rg.MockRg` for a test of what asrch makes of rg's answers (canned
bytes, or `recorded` to see every argv); always in-process.

`cold=True`, or ASRCH_TESTS_COLD=1 for every run, starts a fresh `python -m asrch`
instead; `tests/cli/test_runner.py` holds the two to the same bytes. Tests that are about the
process itself (signals, process groups, timeouts, stdin, the console script, imports)
start their own subprocess and do not use this.
"""

import io
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from asrch.engine.transport import Transport

Arg = str | bytes | os.PathLike[str] | os.PathLike[bytes]
Env = Mapping[str, str | None]

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
    cwd: str = ""
    """Where it ran, and in which environment: `again` runs the same words there."""
    environ: Mapping[str, str] | None = None

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
    transport: "Transport | None" = None,
    user: int | None = None,
) -> Result:
    """`asrch ARGV` in `cwd`; see the module's docstring. `user`: a fresh process run as
    that uid (and gid) through setpriv, for permission tests as root."""
    words = [os.fsencode(a) for a in argv]
    environment = dict(os.environ if environ is None else environ)
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    directory = os.path.abspath(os.getcwd() if cwd is None else cwd)
    if user is not None:
        setpriv = [b"setpriv", b"--reuid=%d" % user, b"--regid=%d" % user, b"--clear-groups"]
        return _subprocess(words, directory, environment, timeout, setpriv)
    if transport is None and (always_cold() if cold is None else cold):
        return _subprocess(words, directory, environment, timeout)
    return _in_process(words, directory, environment, timeout, transport)


def _subprocess(
    words: list[bytes],
    cwd: str,
    environ: dict[str, str],
    timeout: float,
    prefix: Sequence[bytes] = (),
) -> Result:
    done = subprocess.run(
        [*prefix, os.fsencode(sys.executable), b"-m", b"asrch", *words],
        cwd=cwd,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return Result(done.stdout, done.stderr, done.returncode, tuple(words), cwd, environ)


def again(run: Result, *extra: bytes) -> Result:
    """The same run with `extra` words after the command's name (`--format json`)."""
    words = [run.argv[0], *extra, *run.argv[1:]]
    return run_asrch(words, cwd=run.cwd or None, environ=run.environ)


# --- in-process ------------------------------------------------------------------------


def _in_process(
    words: list[bytes],
    cwd: str,
    environ: dict[str, str],
    timeout: float,
    transport: "Transport | None" = None,
) -> Result:
    from asrch.cli import main
    from asrch.engine.process import Children
    from asrch.engine.searcher import RipgrepSearcher

    # As the interpreter turns argv into str: undecodable bytes as surrogate escapes.
    argv = [os.fsdecode(w) for w in words]
    out, err = io.BytesIO(), io.BytesIO()
    # Held here to the end: a wrapper that is collected closes its buffer.
    stdout, stderr = _stream(out), _stream(err)
    children = Children()

    def searchers(census: bool) -> RipgrepSearcher:
        return RipgrepSearcher(
            cwd=cwd, children=children, environ=environ, census=census, transport=transport
        )

    late = threading.Event()

    def stop() -> None:  # the run's rg killed: the run ends as on any failed search
        late.set()
        children.stop()

    overtime = threading.Timer(timeout, stop)
    overtime.start()
    try:
        status = main(argv, searchers=searchers, cwd=cwd, stdout=stdout, stderr=stderr)
    finally:
        overtime.cancel()
        children.stop()
    if late.is_set():
        raise subprocess.TimeoutExpired(["asrch", *argv], timeout)
    stdout.flush()
    stderr.flush()
    return Result(out.getvalue(), err.getvalue(), status & 0xFF, tuple(words), cwd, environ)


def _stream(buffer: io.BytesIO) -> io.TextIOWrapper:
    """A standard stream as Python opens it under a UTF-8 locale, over `buffer`."""
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", write_through=True)
