"""The process entry point: settings that only the command-line process should get."""

import os
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    # pydantic scans every installed distribution's entry points for plugins on the
    # first model it builds (~30 ms here, see bench/importtime.py); asrch uses none.
    # Set for this process only, before pydantic is imported.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from asrch.cli import main as cli_main  # noqa: PLC0415 (must follow the setting)

    return cli_main(argv)
