"""`MockRg`: a `Transport` that answers canned bytes per argv, no process started
(cf. httpx's `MockTransport`). For tests of what asrch makes of rg's output: the
readers, the plans, the searcher and the composition roots, on bytes held in memory.

    from asrch.engine.mock_rg import MockRg, Reply
    rg = MockRg({("rg", "--files", ...): Reply(b"a.py\\0")})
    searcher = RipgrepSearcher("rg", transport=rg)

A function answers where a table cannot (`MockRg(lambda request: ...)`); `recorded`
is what the real rg answers, to replay it under other conditions (read in blocks of
one byte, say). Each request is kept in `requests`, in order.
"""

import signal
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, NamedTuple

from asrch.engine.argv import with_walk_rules
from asrch.engine.transport import CHUNK, Ended

if TYPE_CHECKING:
    from asrch.engine.transport import Site


class Request(NamedTuple):
    """One rg run asked of the transport."""

    argv: tuple[str, ...]
    cwd: str | None
    """The working directory rg would start in (None: this process's)."""
    stdin: bytes = b""
    """All that was fed to rg's input, when it is answered."""


class Reply(NamedTuple):
    """What rg answers: its stdout, its stderr and its exit status."""

    stdout: bytes = b""
    stderr: bytes = b""
    status: int = 0


Answers = Callable[[Request], Reply] | Mapping[tuple[str, ...], Reply]


class MockRg:
    """A `Transport` whose rg answers from `answers`: a table by whole argv, or a
    function of the request. `chunk`: the size of the pieces stdout comes in."""

    def __init__(self, answers: Answers, *, chunk: int = CHUNK) -> None:
        self._answers = answers
        self._chunk = chunk
        self.requests: list[Request] = []

    def start(
        self,
        argv: list[str],
        launch: "Site",
        *,
        stream: bool = False,
        stdin: bool = False,
        pipe_size: int = 0,
        memory: int = 0,
    ) -> "MockCall":
        del stream, pipe_size, memory  # one way to hand over bytes held in memory
        # As the real transport starts rg: a pinned walk's ignore rules are its argv's.
        argv = with_walk_rules(argv, getattr(launch, "rules", None))
        return MockCall(self, argv, launch.cwd, fed=stdin)

    def answer(self, request: Request) -> Reply:
        self.requests.append(request)
        if callable(self._answers):
            return self._answers(request)
        try:
            return self._answers[request.argv]
        except KeyError:
            raise LookupError(f"MockRg has no answer for {list(request.argv)}") from None


class MockCall:
    """One answered run (`RgCall`): answered when first read (a fed one with all its
    input)."""

    def __init__(self, rg: MockRg, argv: list[str], cwd: str | None, *, fed: bool) -> None:
        self.argv = argv
        self._rg = rg
        self._cwd = cwd
        self._input: list[bytes] | None = [] if fed else None
        self._reply: Reply | None = None
        self._stopped = False

    def _replied(self) -> Reply:
        if self._reply is None:
            fed = b"".join(self._input or [])
            self._input = None
            self._reply = self._rg.answer(Request(tuple(self.argv), self._cwd, fed))
        return self._reply

    def chunks(self, size: int | None = None) -> Iterator[bytes]:
        del size  # the mock's own block size is what a test varies
        out = self._replied().stdout
        step = self._rg._chunk
        for at in range(0, len(out), step):
            if self._stopped:
                return
            yield out[at : at + step]

    def read(self) -> bytes:
        return self._replied().stdout

    @property
    def reading(self) -> bool:
        return self._input is not None

    def feed(self, data: bytes) -> bool:
        if self._input is None:
            return False
        self._input.append(data)
        return True

    def stop(self) -> None:
        self._stopped = True

    def end(self) -> Ended:
        reply = self._replied()
        if self._stopped:
            return Ended(-signal.SIGKILL, reply.stderr, stopped=True)
        return Ended(reply.status, reply.stderr)

    def close(self) -> None:
        self._input = None

    def __enter__(self) -> "MockCall":
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def recorded(request: Request) -> Reply:
    """What the real rg answers `request` (run where it says, fed its input)."""
    from asrch.engine.process import PROCESSES, Launch  # noqa: PLC0415 (tests only)

    launch = Launch(cwd=request.cwd)
    # Fed only what it was fed: rg given no path searches a piped stdin.
    fed = bool(request.stdin)
    with PROCESSES.start(list(request.argv), launch, stdin=fed) as call:
        call.feed(request.stdin)
        stdout = call.read()
        ended = call.end()
    return Reply(stdout, ended.stderr, ended.status)
