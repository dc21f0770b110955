"""One rg child: start it, stream its stdout, stop it early, always reap it."""

import os
import subprocess
import threading
from collections.abc import Iterator
from types import TracebackType
from typing import IO

from asrch.domain.errors import EngineError, InputError
from asrch.domain.values import quote

_CHUNK = 1 << 16
_STDERR_KEEP = 1 << 16
# Messages rg prints about the search as a whole, not about one unreadable file.
_NOT_A_SKIP = (b"rg: No files were searched",)


_LIVE: set["subprocess.Popen[bytes]"] = set()
_LIVE_LOCK = threading.Lock()


def kill_all() -> None:
    """Kill every rg child still running (a signal reached the main thread)."""
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        if child.poll() is None:
            child.kill()


class RgRun:
    """A running rg; use as a context manager so the child never outlives the caller.

    stderr is drained on a thread, so a child that reports thousands of unreadable
    files cannot block on a full pipe while we read stdout.
    """

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.stopped_early = False
        self._stderr = bytearray()
        self._child = _start(argv, subprocess.PIPE, subprocess.PIPE)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        assert self._child.stderr is not None
        for line in self._child.stderr:
            if len(self._stderr) < _STDERR_KEEP:
                self._stderr += line

    def chunks(self) -> Iterator[bytes]:
        assert self._child.stdout is not None
        fd = self._child.stdout.fileno()
        while data := os.read(fd, _CHUNK):
            yield data

    def stop(self) -> None:
        """Stop reading: the scan cap was reached."""
        self.stopped_early = True
        self._reap()

    def _reap(self) -> None:
        if self._child.poll() is None:
            self._child.kill()
        if self._child.stdout is not None:
            self._child.stdout.close()
        self._child.wait()
        self._drain.join()
        _forget(self._child)

    def __enter__(self) -> "RgRun":
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._reap()

    def finish(self) -> int:
        """Reap the child and judge how it ended; returns the skipped-file count."""
        self._reap()
        if self.stopped_early:
            return count_skipped(bytes(self._stderr))
        return judge_exit(self._child.returncode, bytes(self._stderr))


def run_to_end(argv: list[str]) -> tuple[bytes, int]:
    """Run rg to its end and judge it: (its whole stdout, the skipped-file count).

    For plans that read all of rg's output anyway (counts). Through a pipe, each
    record rg writes (one per file) wakes the reader: on ten thousand files those
    wake-ups cost more than rg's search. rg writes into unnamed scratch files instead,
    read once it has exited; no stderr thread is needed either.
    """
    with _scratch() as out, _scratch() as err:
        child = _start(argv, out, err)
        try:
            child.wait()
        finally:
            if child.poll() is None:
                # Interrupted while waiting: the child goes with us.
                child.kill()
                child.wait()
            _forget(child)
        out.seek(0)
        err.seek(0)
        return out.read(), judge_exit(child.returncode, err.read())


def _scratch() -> IO[bytes]:
    if hasattr(os, "memfd_create"):
        return os.fdopen(os.memfd_create("asrch-rg"), "w+b")
    import tempfile  # noqa: PLC0415 (not on Linux's path: tempfile imports shutil, bz2, lzma)

    return tempfile.TemporaryFile()


def _start(
    argv: list[str], stdout: int | IO[bytes], stderr: int | IO[bytes]
) -> "subprocess.Popen[bytes]":
    try:
        child = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, bufsize=0
        )
    except OSError as exc:
        raise EngineError(
            f"error: cannot run rg at {quote(argv[0])}: {exc.strerror or exc}; "
            "reinstall asrch or set ASRCH_RG"
        ) from None
    with _LIVE_LOCK:
        _LIVE.add(child)
    return child


def _forget(child: "subprocess.Popen[bytes]") -> None:
    with _LIVE_LOCK:
        _LIVE.discard(child)


def count_skipped(stderr: bytes) -> int:
    return sum(
        1
        for line in stderr.splitlines()
        if line.startswith(b"rg: ") and not line.startswith(_NOT_A_SKIP)
    )


def judge_exit(returncode: int, stderr: bytes) -> int:
    """0 and 1 are results; 2 with per-file messages is a result with skips (D21)."""
    if returncode in (0, 1):
        return count_skipped(stderr)
    text = stderr.decode("utf-8", "replace")
    if returncode == 2 and "regex parse error" in text:
        detail = (
            next(
                (ln.strip() for ln in text.splitlines() if ln.strip().startswith("error:")),
                "the pattern does not parse",
            )
            .removeprefix("error:")
            .strip()
        )
        raise InputError(f"error: invalid --regex query: {detail}")
    if returncode == 2 and "exceeds size limit" in text:
        # About the pattern, not a file: a false zero with a "skipped" note otherwise.
        raise InputError(
            "error: the query compiles to a regex beyond rg's size limit; "
            "use a shorter term or a smaller repetition count"
        )
    skipped = count_skipped(stderr)
    if returncode == 2 and skipped:
        return skipped
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if returncode < 0:
        raise EngineError(f"error: rg was killed by signal {-returncode}")
    raise EngineError(
        f"error: rg failed with exit status {returncode}" + (f": {quote(first)}" if first else "")
    )
