"""The one seam through which asrch runs rg (cf. httpx's transports).

A `Transport` starts rg for an argv and hands back an `RgCall`: its stdout as bytes
(streamed as rg writes it, or whole once rg has ended), bytes for its stdin, and how it
ended (`Ended`: exit status, stderr, whether the reader stopped it). Everything that
reads what rg printed (counts, file lists, JSON events, stderr, survey's batches) is a
reader of those bytes and of nothing else, so it is tested on bytes held in memory
(`MockRg`, `engine/mock_rg.py`). The one real transport, `engine.process.PROCESSES`, is
the only code that starts a process: process groups, pins' working directories,
signals, reaping and stopping at the cap stay there. `Launch.transport` says which one
a search uses; `RipgrepSearcher` and the MCP server take it.
"""

from collections.abc import Iterator
from types import TracebackType
from typing import NamedTuple, Protocol

from asrch.engine.stderr import RgSaid, judge, operands, read_stderr

CHUNK = 1 << 16


class Site(Protocol):
    """Where an rg run starts, as far as the transport's callers know it: the working
    directory and the transport itself (`engine.process.Launch` is the real one, with
    the environment and the children that own the run)."""

    @property
    def cwd(self) -> str | None: ...

    @property
    def transport(self) -> "Transport": ...


class Ended(NamedTuple):
    """How one rg run ended."""

    status: int
    """rg's exit status (negative: the signal that ended it)."""
    stderr: bytes
    stopped: bool = False
    """The reader stopped rg early (`RgCall.stop`): its status says nothing."""


class RgCall(Protocol):
    """One rg run; a context manager, so that rg never outlives its reader."""

    argv: list[str]

    def chunks(self, size: int = CHUNK) -> Iterator[bytes]:
        """rg's stdout in pieces: as rg writes it (`stream=True`), else once it has
        ended. Read once."""
        ...

    def read(self) -> bytes:
        """rg's whole stdout, once it has ended."""
        ...

    @property
    def reading(self) -> bool:
        """rg still reads its stdin (it stops once it has what it was asked for)."""
        ...

    def feed(self, data: bytes) -> bool:
        """Write `data` to rg's stdin (`stdin=True`); False, and nothing more is written
        from then on, once rg has stopped reading."""
        ...

    def stop(self) -> None:
        """Stop rg now: the reader has all it needs (the scan cap)."""
        ...

    def end(self) -> Ended:
        """End rg's input, wait for it (a streamed rg the reader did not read to its end
        is stopped) and say how it ended."""
        ...

    def close(self) -> None:
        """Stop rg if it still runs and let its files go (idempotent)."""
        ...

    def __enter__(self) -> "RgCall": ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """`close()`."""
        ...


class Transport(Protocol):
    """What starts rg: the real processes (`engine.process.PROCESSES`) or a fake."""

    def start(
        self,
        argv: list[str],
        launch: Site,
        *,
        stream: bool = False,
        stdin: bool = False,
        pipe_size: int = 0,
        memory: int = 0,
    ) -> RgCall:
        """Start rg for `argv` where `launch` says. `stream`: stdout is read as rg
        writes it (else rg writes it aside and never waits on the reader); `stdin`: the
        caller feeds rg's input (else it is empty); `pipe_size`: a hint, the pipe's
        size in bytes (a streamed reader of one waits a moment after a short read, to
        read many of rg's writes a wake-up); `memory`: a bound on rg's data in bytes
        (0: none), past which rg's allocation fails and rg ends by a signal."""
        ...


def judged(argv: list[str], ended: Ended) -> RgSaid:
    """rg's stderr sorted by rule (`engine.stderr`) and, unless the reader stopped rg,
    its exit status judged: a complaint of rg's raises."""
    said = read_stderr(ended.stderr, operands(argv))
    return said if ended.stopped else judge(ended.status, said)


def run_to_end(argv: list[str], launch: Site) -> tuple[bytes, RgSaid]:
    """Run rg to its end on empty input and judge it: (its whole stdout, its stderr
    sorted). For readers of all of rg's output (counts, file lists): rg writes it aside,
    never waking a reader per record (on ten thousand files those wake-ups cost more
    than rg's search)."""
    with launch.transport.start(argv, launch) as call:
        output = call.read()
        return output, judged(argv, call.end())


def run_unjudged(argv: list[str], launch: Site) -> Ended:
    """Run rg to its end on empty input: how it ended, nothing judged (the query probe
    reads rg's refusal itself)."""
    with launch.transport.start(argv, launch) as call:
        return call.end()
