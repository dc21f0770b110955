"""The process entry point: settings that only the command-line process should get."""

import os
import signal
from collections.abc import Sequence
from typing import NoReturn


def _terminate(signum: int, frame: object) -> NoReturn:
    # Unwinding runs every `finally`, which kills and reaps the rg child.
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    # pydantic scans every installed distribution's entry points for plugins on the
    # first model it builds (~30 ms here, see bench/importtime.py); asrch uses none.
    # Set for this process only, before pydantic is imported.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    signal.signal(signal.SIGTERM, _terminate)
    from asrch.cli import main as cli_main  # noqa: PLC0415 (must follow the setting)

    return cli_main(argv)
