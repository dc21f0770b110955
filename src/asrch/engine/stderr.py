"""What rg says on stderr, sorted by rule (D21).

rg writes three kinds of message, each starting `rg: ` (a message may go on over
several lines: a file name holding a newline, a regex error with its caret):

- log lines (`rg: DEBUG|module|file:line: …`, from `--debug`): among them
  `ignoring PATH: found binary data at offset N`, one per binary file it met;
- a path it met and could not search: `rg: PATH: reason`, where PATH is one of the
  operands asrch passed or a path under one (rg prints walked paths as the operand
  joined with the entry's name). These are the skipped files;
- about an ignore file of a directory above an operand (`PATH: line N: error parsing
  glob …`, or that it cannot be read): rg drops the rule or the file and searches on;
  `--no-ignore-messages` silences these in the tree but not above it. Neither a
  skipped file nor a complaint: the answer is rg's, as in the tree (`_IGNORE_FILE`);
- anything else is a complaint about the search as a whole (a pattern rg rejects, an
  argument it cannot use): never a skipped file, never a result.
"""

import os
import re
from collections.abc import Sequence
from typing import NamedTuple

from asrch.domain.errors import EngineError
from asrch.domain.text_safety import rg_text

_LOG = re.compile(rb"(?:TRACE|DEBUG|INFO|WARN|ERROR)\|")
_DEBUG = b"rg: DEBUG|"
# Printed by the count and JSON printers of rg 14.1 (grep-printer's summary.rs, json.rs)
# for each file they stop at on its first NUL byte; a path may hold a newline.
# Only the printers' own lines: the walker logs `ignoring PATH: REASON` for hidden and
# ignored files, and a name may read like the rest of a binary-file line.
_PRINTER_LOG = b"rg: DEBUG|grep_printer::"
# With NUL as the path separator (`NUL_SEPARATOR`), the printer also logs, for each file
# it prints, that the file's path could not be made a hyperlink (the path quoted: no LF).
_HYPERLINK_LOG = b"rg: DEBUG|grep_printer::hyperlink|"
_BINARY_LINE = re.compile(
    rb"^rg: DEBUG\|grep_printer::\w+\|crates/printer/src/\w+\.rs:[0-9]+: "
    rb"ignoring (.*): found binary data at offset [0-9]+$",
    re.M,
)
_BINARY = re.compile(
    rb"DEBUG\|grep_printer::\w+\|[^|\n]*?: ignoring (.*): found binary data at offset [0-9]+",
    re.DOTALL,
)
_FLAG_PREFIX = re.compile(r"^error parsing flag --[a-z-]+: ")
# On the message's first line only: a regex error's echo (its second line) may read
# like one.
_IGNORE_FILE = re.compile(rb"(?:[^\n]*/)?(?:\.gitignore|\.ignore|\.rgignore|\.git/info/exclude): ")


class RgSaid(NamedTuple):
    """rg's stderr, sorted: per-path failures, binary files met, a complaint."""

    skipped: int = 0
    ignore_files: int = 0
    """Messages about an ignore file above an operand (rg searched on without it)."""
    binary: int = 0
    """How many binary files rg met while walking."""
    complaint: str | None = None
    """rg's first message about no path it met, without `rg: `."""
    log: bytes = b""
    """The stderr itself, for `binary_paths` (wanted only when a scan is cut)."""

    def binary_paths(self) -> list[bytes]:
        """The binary files rg met, as rg printed them."""
        if _only_debug_lines(self.log):
            return _BINARY_LINE.findall(self.log)
        found = (_BINARY.fullmatch(m) for m in _messages(self.log) if m.startswith(b"DEBUG|"))
        return [m[1] for m in found if m is not None]


class RgRefusedError(EngineError):
    """rg refused the search as a whole; the searcher finds out whose fault it is."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"rg cannot run the search: {reason}")
        self.reason = reason


def operands(argv: Sequence[str]) -> list[str]:
    """The paths of an rg argv: asrch passes them all after `--`."""
    return list(argv[argv.index("--") + 1 :]) if "--" in argv else []


def _displayed(operand: str) -> bytes:
    # rg prints paths with Rust's lossy display: U+FFFD for bytes that are not UTF-8.
    return os.fsencode(operand).decode("utf-8", "replace").encode("utf-8")


def _about_met_path(message: bytes, prefixes: list[bytes]) -> bool:
    """`PATH: reason`, PATH an operand itself or a path rg joined under it."""
    for prefix in prefixes:
        if not message.startswith(prefix):
            continue
        rest = message[len(prefix) :]
        if rest.startswith(b": "):
            return True
        joined = prefix.endswith(b"/") or rest.startswith(b"/")
        if joined and b": " in rest:
            return True
    return False


def _messages(data: bytes) -> list[bytes]:
    """Each `rg: ` message with its continuation lines, without the `rg: `."""
    found: list[bytearray] = []
    for line in data.split(b"\n"):
        if line.startswith(b"rg: "):
            found.append(bytearray(line[4:]))
        elif found:
            found[-1] += b"\n" + line
        elif line:
            found.append(bytearray(line))
    return [bytes(m).rstrip(b"\n") for m in found]


def _only_debug_lines(data: bytes) -> bool:
    """Every line a `rg: DEBUG|` line: byte counts, not a regex over megabytes."""
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    return data.startswith(_DEBUG) and data.count(b"\n" + _DEBUG) == lines - 1


def read_stderr(data: bytes, paths: Sequence[str]) -> RgSaid:
    """Sort rg's whole stderr; `paths` are the operands rg was given."""
    if not data:
        return RgSaid()
    if _only_debug_lines(data):
        # The usual case with --debug: thousands of binary-file lines on a big tree
        # (18,000 under the stdlib); counted without splitting them. The printers log
        # nothing else at the debug level.
        lines = b"\n" + data
        binary = lines.count(b"\n" + _PRINTER_LOG) - lines.count(b"\n" + _HYPERLINK_LOG)
        return RgSaid(binary=binary, log=data)
    prefixes = [_displayed(p) for p in paths]
    skipped = 0
    ignore_files = 0
    binary = 0
    complaint: str | None = None
    for message in _messages(data):
        if _LOG.match(message):
            binary += _BINARY.fullmatch(message) is not None
        elif _about_met_path(message, prefixes):
            skipped += 1
        elif _IGNORE_FILE.match(message):
            ignore_files += 1
        elif complaint is None:
            complaint = message.decode("utf-8", "replace")
    return RgSaid(
        skipped=skipped, ignore_files=ignore_files, binary=binary, complaint=complaint, log=data
    )


def failed_paths(data: bytes) -> list[bytes]:
    """Every message of rg's stderr that is not a log line: among them `PATH: reason`
    for each path rg could not read, PATH as rg displays it."""
    return [m for m in _messages(data) if not _LOG.match(m)]


def reason_of(complaint: str) -> str:
    """rg's reason in one line: a regex error's own `error:` line, else the first line.

    `error parsing flag --regexp: ` is dropped: the flag is asrch's, the value the user's.
    """
    lines = [ln.strip() for ln in complaint.split("\n") if ln.strip()]
    if not lines:
        return "rg gave no reason"
    if lines[0].endswith(":"):
        detail = [ln.removeprefix("error:").strip() for ln in lines if ln.startswith("error:")]
        if detail:
            return rg_text(detail[-1])
    return rg_text(_FLAG_PREFIX.sub("", lines[0]))


def judge(returncode: int, said: RgSaid) -> RgSaid:
    """0 and 1 are results; 2 with only per-path failures is a result with skips (D21).

    A complaint is never a result, whatever the status: a zero from a search rg refused
    would be a false zero.
    """
    if returncode < 0:
        raise EngineError(f"rg was killed by signal {-returncode}")
    if said.complaint is not None and returncode in (0, 1, 2):
        raise RgRefusedError(reason_of(said.complaint))
    if returncode in (0, 1) or (returncode == 2 and (said.skipped or said.ignore_files)):
        return said
    detail = f": {reason_of(said.complaint)}" if said.complaint else ""
    raise EngineError(f"rg failed with exit status {returncode}{detail}")
