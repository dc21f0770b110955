"""The process entry point: settings that only the command-line process should get."""

import atexit
import os
import signal
import sys
import threading
from collections.abc import Sequence


def _terminate(signum: int, frame: object) -> None:
    from asrch.engine.process import refuse_new_children, starting_child  # noqa: PLC0415 (see main)

    refuse_new_children()
    if starting_child():
        # The child being started is stopped as soon as it is held, and the search
        # cancelled: the same unwinding, from there.
        return
    # Unwinding runs every `finally`, which kills and reaps the rg child.
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """The command line's process: its status, never a traceback. A signal that comes
    while asrch is still importing (the first ~50 ms) ends it as one that comes while
    it searches: exit 130, quietly (issue 32, item 8).

    Called for the process itself (`argv` None: the `asrch` script, `python -m asrch`),
    it ends the process once the answer is out (`_exit_now`)."""
    try:
        status = _main(argv)
    except KeyboardInterrupt:
        status = _INTERRUPTED
    if argv is None:
        _exit_now(status)
    return status


def _exit_now(status: int) -> None:
    """End the process with `status` without the interpreter's teardown (every module's
    objects freed one by one: ≈11 ms of CPU here, a third of what asrch adds to a search
    that finds nothing, docs/performance.md), when nothing is left for the teardown to
    do: both streams flushed, no other thread, the `atexit` functions run. Otherwise
    (a stream that cannot be flushed, a thread still running) the ordinary exit, as
    before: the caller returns `status`."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:  # the ordinary exit says what failed, as it always did
        return
    if threading.active_count() != 1:
        return
    atexit._run_exitfuncs()
    os._exit(status)


_INTERRUPTED = 130
"""`ExitStatus.INTERRUPTED`, without importing the module that says so."""


def _main(argv: Sequence[str] | None) -> int:
    # pydantic scans every installed distribution's entry points for plugins on the
    # first model it builds (~30 ms here, see bench/importtime.py); asrch uses none.
    # Set for this process only, before pydantic is imported.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # SIGTERM and the signals that would end the process without unwinding (issue 20,
    # item 15; `engine.process.STOPPING_SIGNALS`), and Ctrl-C's SIGINT, which would
    # otherwise let survey's threads start their next rg while the main thread unwinds.
    from asrch.engine.process import STOPPING_SIGNALS  # noqa: PLC0415 (no pydantic)

    for signum in (signal.SIGINT, *STOPPING_SIGNALS):
        signal.signal(signum, _terminate)
    from asrch.cli import main as cli_main  # noqa: PLC0415 (must follow the setting)

    return cli_main(argv)
