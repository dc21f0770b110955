"""The process entry point: settings that only the command-line process should get."""

import os
import signal
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
    it searches: exit 130, quietly (issue 32, item 8)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return _INTERRUPTED


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
