"""The fork server's old interface, kept as a thin alias of `tests.support.cli` for
tests written against it: new tests call `run_asrch` directly."""

import os
from collections.abc import Sequence
from typing import NamedTuple

from tests.support.cli import always_cold, run_asrch


class Done(NamedTuple):
    status: int
    stdout: bytes
    stderr: bytes


def cold() -> bool:
    return always_cold()


def run(
    argv: Sequence[bytes],
    *,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
    timeout: float,
) -> Done:
    """`asrch ARGV` in `cwd` with the whole environment `env` (None: this process's)."""
    ran = run_asrch(argv, cwd=cwd, environ=env, timeout=timeout)
    return Done(ran.status, ran.stdout, ran.stderr)
