"""Running asrch on hostile material, and the invariants every run must keep. A text
answer is read by the suite's one reader (`tests/support/toon.py`).

Every subprocess call has a timeout: a hang fails the test instead of the suite.
"""

import json
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from asrch.cli.help import APP_HELP, COMMAND_HELP
from tests.support.cli import Result, again, always_cold, run_asrch

TIMEOUT = 60.0
LINE_CAP = 800
STATUSES = frozenset({0, 2, 3, 4})

Arg = str | bytes | os.PathLike[str] | os.PathLike[bytes]


def asrch(
    *args: Arg,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    user: int | None = None,
    timeout: float = TIMEOUT,
    cold: bool | None = None,
) -> Result:
    """One asrch run, arguments as bytes (any file name passes), under a timeout
    (tests/support/cli.py: in-process, or a fresh interpreter with `cold`); `env` is the
    run's whole environment (None: this process's).

    `user`: a process run as that uid (and gid) through setpriv, for permission tests as
    root.
    """
    argv = [os.fsencode(a) for a in args]
    return run_asrch(argv, cwd=cwd, environ=env, timeout=timeout, cold=cold, user=user)


def asrch_many(
    commands: Iterable[Sequence[Arg]],
    *,
    cwd: Path | None = None,
    workers: int = 4,
    cold: bool | None = None,
) -> list[Result]:
    """Several runs, results in order: one after the other in-process, or, with `cold`,
    as `workers` processes at once (each still under its own timeout)."""
    if not (always_cold() if cold is None else cold):
        return [asrch(*c, cwd=cwd) for c in commands]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda c: asrch(*c, cwd=cwd, cold=True), commands))


_FORMAT = re.compile(
    "["
    + "".join(chr(c) for c in range(0xA0, 0x110000) if unicodedata.category(chr(c)) == "Cf")
    + "]"
)
"""A format character (Unicode's Cf: bidi controls, zero width characters, U+FEFF, tag
characters), which prints nothing or reorders the text around it: never raw (issue 32)."""


def check_invariants(run: Result, statuses: frozenset[int] = STATUSES) -> None:
    """What every run keeps, whatever its input (D8, D19, D20)."""
    assert run.status in statuses, str(run)
    for name, data in (("stdout", run.stdout), ("stderr", run.stderr)):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:  # pragma: no cover - the failure message
            raise AssertionError(f"{name} is not valid UTF-8: {exc}\n{run}") from None
        assert "Traceback" not in text, str(run)
        for line in data.split(b"\n"):
            assert len(line) <= LINE_CAP, f"{name} line of {len(line)} bytes\n{run}"
        assert "\r" not in text, f"raw CR in {name}\n{run}"
        assert "\x1b" not in text, f"raw ESC in {name}\n{run}"
        assert "\x00" not in text, f"raw NUL in {name}\n{run}"
        assert not _FORMAT.search(text), f"raw format character in {name}\n{run}"
    if run.status == 2:
        check_input_error(run)


def check_input_error(run: Result) -> None:
    """Exit 2: stdout empty; stderr one `error:` line (and the `next:` line of the call
    that answers it, for a refused alternation), or an `unknown …` line and the help
    (alone when it gives the asrch way for a grep or rg option, issue 40).

    Some `error:` lines (a missing argument) are followed by the command's usage too.
    """
    assert run.stdout == b"", str(run)
    first, _, rest = run.err.partition("\n")
    helps = {"", APP_HELP, *COMMAND_HELP.values()}
    if first.startswith("unknown option: ") and "; " in first and rest == "":
        return  # the asrch way, in 1 line
    if first.startswith("error: ") and rest.startswith("next: asrch ") and rest.count("\n") == 1:
        return  # the call that answers it (an alternation refused, issue 40)
    if first.startswith(("unknown command: ", "unknown option: ")):
        assert rest in helps - {""}, str(run)
    else:
        assert first.startswith("error: "), str(run)
        assert rest in helps, str(run)


def as_json(run: Result) -> dict[str, Any]:
    """The same run's JSON answer (D27): every field, those the text does not repeat
    (D42) and the tables it leaves out included."""
    rerun = again(run, b"--format", b"json")
    assert rerun.status == run.status, f"{rerun}\n{run}"
    answer: dict[str, Any] = json.loads(rerun.out)
    return answer


def ranked(run: Result, name: str) -> list[list[str]]:
    """`top_files` or `top_directories` of a scout as the text's rows would read: the
    JSON's, which holds them whether or not the text prints the table (D42)."""
    return [[unjson(r["path"]), str(r["matches"])] for r in as_json(run)[name]]


def unjson(value: str) -> str:
    """A JSON path or term back to the name: `\\xNN` an undecodable byte, `\\\\` a `\\`."""
    return re.sub(
        r"\\\\|\\x([0-9a-f]{2})",
        lambda m: "\\" if m[1] is None else chr(0xDC00 + int(m[1], 16)),
        value,
    )
