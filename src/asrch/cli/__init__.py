"""The command line, the first composition root: `main(argv) -> int`.

`app` reads the arguments (cyclopts) and runs the command's use case; `help` holds the
help texts. `asrch.entry` is the process's entry point around `main`.
"""

from asrch.cli.app import main

__all__ = ["main"]
