"""Warm asrch processes for the suite: a fork server that has imported asrch once.

Most of the suite runs the CLI as a user would, one process per command. A fresh
interpreter spends ~150 ms importing cyclopts and asrch before it does anything, and the
suite starts well over a thousand of them, on every interpreter. The server imports the
CLI (and the JSON contract) once; each run is then a real child process, forked from
it, with its own argv, working directory, environment and standard streams, calling the
same entry point as `python -m asrch` (`asrch.entry.main`), running the real rg, and
ending with the status the process would have had (negative for a signal, as
`subprocess` reports it). `tests/test_warm.py` holds warm and cold runs to the same
bytes; tests about the process itself (imports, signals, the console script) start a
fresh interpreter, and `ASRCH_TESTS_COLD=1` makes every run one.

The server is single-threaded (it forks): a `select` loop over its socket and its stdin,
which it leaves when the test process that started it goes away.
"""

import atexit
import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import NamedTuple

_LENGTH = struct.Struct("!I")
_STATUS = struct.Struct("!i")


class Done(NamedTuple):
    status: int
    stdout: bytes
    stderr: bytes


def cold() -> bool:
    return os.environ.get("ASRCH_TESTS_COLD") == "1"


# --- the test side -------------------------------------------------------------------


class _Server(NamedTuple):
    pid: int
    process: subprocess.Popen[bytes]
    path: str


_servers: dict[int, _Server] = {}
"""The running server of this process (by pid: a forked test process starts its own)."""


def _start() -> _Server:
    known = _servers.get(os.getpid())
    if known is not None and known.process.poll() is None:
        return known
    path = tempfile.mktemp(prefix="asrch-warm-", suffix=".sock")
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.warm", path],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdout is not None
    if process.stdout.readline() != b"ready\n":
        raise RuntimeError("the warm asrch server did not start")
    server = _servers[os.getpid()] = _Server(os.getpid(), process, path)
    atexit.register(_stop, server)
    return server


def _stop(server: _Server) -> None:
    if server.pid != os.getpid():
        return
    assert server.process.stdin is not None
    server.process.stdin.close()  # the server leaves on EOF
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()
    Path(server.path).unlink(missing_ok=True)


def _read_exactly(conn: socket.socket, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def run(
    argv: list[bytes],
    *,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
    timeout: float,
) -> Done:
    """`python -m asrch ARGV` in `cwd` with `env` (default: this process's), stdin
    /dev/null, under `timeout` (subprocess.TimeoutExpired, the child killed)."""
    server = _start()
    request = json.dumps(
        {
            "argv": [a.decode("latin-1") for a in argv],
            "cwd": os.fsdecode(os.path.abspath(cwd if cwd is not None else os.getcwd())),
            "env": dict(os.environ if env is None else env),
        }
    ).encode()
    with (
        open(os.devnull, "rb") as stdin,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn,
    ):
        conn.settimeout(timeout)
        conn.connect(server.path)
        socket.send_fds(
            conn,
            [_LENGTH.pack(len(request)) + request],
            [stdin.fileno(), out.fileno(), err.fileno()],
        )
        pid_data = _read_exactly(conn, _STATUS.size)
        if pid_data is None:
            raise RuntimeError("the warm asrch server dropped a run")
        (pid,) = _STATUS.unpack(pid_data)
        try:
            status_data = _read_exactly(conn, _STATUS.size)
        except TimeoutError:
            os.killpg(pid, signal.SIGKILL)  # the run and what it started
            raise subprocess.TimeoutExpired(["asrch", *map(os.fsdecode, argv)], timeout) from None
        if status_data is None:
            raise RuntimeError("the warm asrch server lost a run")
        (status,) = _STATUS.unpack(status_data)
        out.seek(0)
        err.seek(0)
        return Done(status, out.read(), err.read())


# --- the server side -----------------------------------------------------------------


def _serve_one(conn: socket.socket) -> None:
    """In a child of the server: read the request, run it in a grandchild, report."""
    first, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    (length,) = _LENGTH.unpack(first[: _LENGTH.size])
    body = first[_LENGTH.size :]
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            return
        body += chunk
    request = json.loads(body)
    pid = os.fork()
    if pid == 0:
        _be_asrch(request, fds)
    with contextlib.suppress(OSError):  # both sides set the group: no race with a kill
        os.setpgid(pid, pid)
    conn.sendall(_STATUS.pack(pid))
    for fd in fds:
        os.close(fd)
    _, wait_status = os.waitpid(pid, 0)
    with contextlib.suppress(OSError):  # the test gave up on the run (its timeout)
        conn.sendall(_STATUS.pack(_returncode(wait_status)))


def _returncode(wait_status: int) -> int:
    if os.WIFSIGNALED(wait_status):
        return -os.WTERMSIG(wait_status)
    return os.WEXITSTATUS(wait_status)


def _be_asrch(request: dict[str, object], fds: list[int]) -> None:
    """The grandchild: become `python -m asrch ARGV`, then exit with its status."""
    status = 1
    try:
        os.setpgid(0, 0)  # a group of its own, as a timeout stops it whole
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python starts
        env = request["env"]
        assert isinstance(env, dict)
        os.environ.clear()
        os.environ.update(env)
        cwd = request["cwd"]
        assert isinstance(cwd, str)
        os.chdir(cwd)
        argv = request["argv"]
        assert isinstance(argv, list)
        words = [os.fsdecode(a.encode("latin-1")) for a in argv]
        sys.argv = [sys.argv[0], *words]
        from asrch.entry import main

        try:
            status = main(words)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
            status = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status & 0xFF)


def serve(path: str) -> None:
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as asrch.entry does
    # Everything a run can import, once: the text path and the JSON contract.
    for command in ("survey", "scout", "sample", "show"):
        importlib.import_module(f"asrch.commands.{command}")
        importlib.import_module(f"asrch.render.{command}")
    importlib.import_module("asrch.entry")
    importlib.import_module("asrch.cli")
    importlib.import_module("asrch.contract.build")
    importlib.import_module("asrch.contract.render")
    from asrch.contract.models import Model

    # The contract's models are built on first use (defer_build): build them here, once.
    pending: list[type[Model]] = [Model]
    while pending:
        model = pending.pop()
        pending.extend(model.__subclasses__())
        model.model_rebuild(force=True)
    # Keep the collector off what the server built: a child's collection would touch
    # (and so copy) every page of it.
    gc.freeze()

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(128)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [], 1.0)
        while True:  # reap the children that served a run
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 1):
            return
        if listener in readable:
            conn, _ = listener.accept()
            if os.fork() == 0:
                code = 0
                try:
                    listener.close()
                    _serve_one(conn)
                except BaseException:
                    traceback.print_exc()
                    code = 1
                finally:
                    os._exit(code)
            conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
