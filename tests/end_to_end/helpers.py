"""Running asrch on hostile material, and the invariants every run must keep.

Every subprocess call has a timeout: a hang fails the test instead of the suite.
"""

import json
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from asrch.cli.help import APP_HELP, COMMAND_HELP
from tests.support.cli import Result, again, always_cold, run_asrch

ASRCH = [sys.executable, "-m", "asrch"]
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
    if user is None:
        return run_asrch(argv, cwd=cwd, environ=env, timeout=timeout, cold=cold)
    prefix = [b"setpriv", f"--reuid={user}".encode(), f"--regid={user}".encode()]
    done = subprocess.run(
        [*prefix, b"--clear-groups", *(os.fsencode(a) for a in ASRCH), *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return Result(done.stdout, done.stderr, done.returncode, tuple(argv))


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
    """Exit 2: stdout empty; stderr one `error:` line, or an `unknown …` line and the help
    (alone when it gives the asrch way for a grep or rg option, issue 40).

    Some `error:` lines (a missing argument) are followed by the command's usage too.
    """
    assert run.stdout == b"", str(run)
    first, _, rest = run.err.partition("\n")
    helps = {"", APP_HELP, *COMMAND_HELP.values()}
    if first.startswith("unknown option: ") and "; " in first and rest == "":
        return  # the asrch way, in 1 line
    if first.startswith(("unknown command: ", "unknown option: ")):
        assert rest in helps - {""}, str(run)
    else:
        assert first.startswith("error: "), str(run)
        assert rest in helps, str(run)


# --- the D2 value form, decoded -----------------------------------------------------

_NAMED = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def read_value(text: str, pos: int = 0) -> tuple[str, int]:
    """One D2 value starting at `pos` (up to a `,` or the end); the value and the end.

    The inverse of `asrch.domain.text_safety.quote`: `\\xNN` is one undecodable byte, given
    back as the surrogate escape `os.fsencode` turns into that byte.
    """
    if not text.startswith('"', pos):
        end = text.find(",", pos)
        end = len(text) if end < 0 else end
        return text[pos:end], end
    out: list[str] = []
    i = pos + 1
    while True:
        char = text[i]
        if char == '"':
            return "".join(out), i + 1
        if char != "\\":
            out.append(char)
            i += 1
            continue
        kind = text[i + 1]
        if kind in _NAMED:
            out.append(_NAMED[kind])
            i += 2
        elif kind == "x":
            byte = int(text[i + 2 : i + 4], 16)
            assert byte >= 0x80, f"\\x{byte:02x} is not an undecodable byte"
            out.append(chr(0xDC00 + byte))
            i += 4
        elif kind == "u":
            out.append(chr(int(text[i + 2 : i + 6], 16)))
            i += 6
        elif kind == "U":
            out.append(chr(int(text[i + 2 : i + 10], 16)))
            i += 10
        else:
            raise AssertionError(f"unknown escape \\{kind} in {text!r}")


def decode_value(text: str) -> str:
    value, end = read_value(text)
    assert end == len(text), f"trailing text after a value: {text!r}"
    return value


def decode_row(line: str) -> list[str]:
    """A table row (without its indent): comma-separated D2 values."""
    values: list[str] = []
    pos = 0
    while True:
        value, pos = read_value(line, pos)
        values.append(value)
        if pos == len(line):
            return values
        assert line[pos] == ",", f"no comma after a value at {pos}: {line!r}"
        pos += 1


def field(out: str, key: str, indent: str = "  ") -> str:
    """The decoded value of the first `key: value` line."""
    prefix = f"{indent}{key}: "
    for line in out.splitlines():
        if line.startswith(prefix):
            return decode_value(line[len(prefix) :])
    raise AssertionError(f"no field {key!r} in\n{out}")


def table(out: str, header: str, indent: str = "  ") -> list[list[str]]:
    """Decoded rows of the table under the line `header` (`top_files[path,matches]:`)."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip() == header) + 1
    rows: list[list[str]] = []
    for line in lines[start:]:
        if not line.startswith(indent) or line.startswith(indent + " "):
            break
        rows.append(decode_row(line[len(indent) :]))
    return rows


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


def overall(out: str) -> list[list[str]]:
    """survey's per-term rows, `[term, matches, files, ...]`: `overall`, or with 1 path
    the one table `terms` (D42)."""
    if "\noverall[" in "\n" + out:
        return table(out, "overall[term,matches,files,dominant_path]:")
    return table(out, "terms[term,matches,files,top_file]:")


def survey_by_path(out: str) -> list[tuple[str, list[list[str]]]]:
    """survey's `by_path` entries: each candidate path and its decoded term rows."""
    entries: list[tuple[str, list[list[str]]]] = []
    for line in out.splitlines():
        if line.startswith("  - path: "):
            entries.append((decode_value(line.removeprefix("  - path: ")), []))
        elif line.startswith("      ") and entries:
            entries[-1][1].append(decode_row(line.removeprefix("      ")))
    return entries


def notes(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("note: ")]


def name_of(value: str) -> bytes:
    """A decoded path value back to the file-system bytes it names."""
    return os.fsencode(value)
