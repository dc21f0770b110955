"""What an agent reads in an answer: which lines of which file it shows, and the rows it
acts on. One rule for both policies: a line is shown when its number is printed with
its file (`PATH:N:` in `rg -n` output; `N:` or `N-` in an asrch answer about the file
the agent named, which the answer does not repeat, D42), match or context alike.
"""

import re
import shlex
from dataclasses import dataclass

RG_LINE = re.compile(r"^(.*?):(\d+):")
SNIPPET = re.compile(r"^(\d+)[:-]")
LISTED = re.compile(r"^(\d+):")
SNIPPET_OR_SCOPE = re.compile(r"^\d+[:=-]")
"""A numbered line; a listed path that would read so is written quoted (D32)."""
FIELD = re.compile(r"^  ([a-z_]+): (.*)$")
TABLE = re.compile(r"^([a-z_]+)\[([a-z_,]+)\]:$")
ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}

Shown = tuple[str, int]


def decode(token: str) -> str:
    """One D2 value: bare, or double-quoted with backslash escapes."""
    if not (len(token) >= 2 and token.startswith('"') and token.endswith('"')):
        return token
    out, body, i = [], token[1:-1], 0
    while i < len(body):
        char = body[i]
        if char != "\\" or i + 1 == len(body):
            out.append(char)
            i += 1
        elif body[i + 1] in ESCAPES:
            out.append(ESCAPES[body[i + 1]])
            i += 2
        elif body[i + 1] == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        else:  # \xNN: an undecodable byte, kept as os.fsdecode keeps it
            out.append(chr(0xDC00 + int(body[i + 2 : i + 4], 16)))
            i += 4
    return "".join(out)


def split_row(row: str) -> list[str]:
    """Comma-separated D2 values; a comma inside quotes belongs to its value."""
    values, start, quoted, i = [], 0, False, 0
    while i < len(row):
        if quoted and row[i] == "\\":
            i += 2
            continue
        if row[i] == '"':
            quoted = not quoted
        elif row[i] == "," and not quoted:
            values.append(decode(row[start:i]))
            start = i + 1
        i += 1
    values.append(decode(row[start:]))
    return values


def count(value: str) -> int:
    """`12`, `at least 50000`, `>=50000` -> the number."""
    return int(value.removeprefix("at least ").removeprefix(">="))


ASRCH_CODE = re.compile(r"^\d+[:=-]", re.M)
ZERO = re.compile(r"^  matches: 0$", re.M)
NEAR = re.compile(
    r"^note: no (?:matches here; under \.|matches in this case; with (?P<case>-i)"
    r"|whole-word matches; without (?P<word>--word)|matches as an identifier; without "
    r"(?P<identifier>--identifier))[^\n]*?, most in (?P<file>.+)$",
    re.M,
)


def code_bytes(text: str, *, rg: bool = False) -> int:
    """The bytes of the file lines an answer prints, without their `N:`/`N-`/`N=` mark
    (asrch) or `PATH:N:` prefix (`rg -n`), line ends included: what is left is the
    answer's overhead (issue 30: headers, tables, notes, `next:`)."""
    total = 0
    for line in text.splitlines(keepends=True):
        m = RG_LINE.match(line) if rg else ASRCH_CODE.match(line)
        if m:
            total += len(line[m.end() :].encode("utf-8", "surrogateescape"))
    return total


def is_zero(text: str, *, rg: bool = False) -> bool:
    """An answer with no match: `rg -n` printed nothing; asrch's header says 0."""
    return not text if rg else bool(ZERO.search(text))


def zero_pointer(text: str) -> tuple[str, tuple[str, ...]] | None:
    """D43: the file a zero answer's note points to, and the options that find the term
    there (`-i` for a case note; none for a fixed string or the working directory)."""
    m = NEAR.search(text)
    if m is None:
        return None
    flags = ("-i",) if m["case"] else ()
    return decode(m["file"]), flags


def rg_shown(text: str) -> list[Shown]:
    """(path, line) of every `PATH:N:` line of `rg -n` output."""
    shown = []
    for line in text.splitlines():
        m = RG_LINE.match(line)
        if m:
            shown.append((m.group(1), int(m.group(2))))
    return shown


def cap_chars(text: str, limit: int) -> str:
    """The first `limit` characters, as an agent's tool shows a long output."""
    return text[:limit]


def cap_lines(text: str, limit: int) -> str:
    """The first `limit` lines (`| head -n limit`): for `rg -n`, the first matches."""
    return "".join(text.splitlines(keepends=True)[:limit])


@dataclass(frozen=True, slots=True)
class Answer:
    """The parts of an asrch text answer a policy acts on."""

    command: str
    fields: dict[str, str]
    tables: dict[str, list[list[str]]]
    shown: list[Shown]
    matched: list[int]
    """Line numbers printed as matches (`N:`), context lines left out."""
    next_argv: list[str] | None
    """The `next: asrch …` line's arguments after `asrch`, when the answer has one."""
    listed: list[Shown]
    """(path, line) of the lines a scout lists (D32): a path line at column 0 after the
    tables, then its `N:` lines (matches; a scope line `N=` is not counted)."""


def read_answer(text: str, file: str | None = None) -> Answer:
    """`file`: the FILE the call named (sample, show), whose lines the snippets are."""
    command = ""
    fields: dict[str, str] = {}
    tables: dict[str, list[list[str]]] = {}
    shown: list[Shown] = []
    matched: list[int] = []
    table: list[list[str]] | None = None
    next_argv = None
    listed: list[Shown] = []
    listing: str | None = None
    for line in text.splitlines():
        if not command and line.endswith(":") and line[:-1].isalpha():
            command = line[:-1]
            continue
        if line.startswith("next: "):
            words = shlex.split(line.removeprefix("next: "))
            next_argv = words[1:] if words[:1] == ["asrch"] else None
            continue
        if m := TABLE.match(line):
            table = tables.setdefault(m.group(1), [])
            continue
        if line.startswith("    ") and table is not None:
            continue  # survey's nested by_path tables: overall is enough
        if line.startswith("  ") and table is not None and not line.startswith("  - "):
            table.append(split_row(line[2:]))
            continue
        if (m := FIELD.match(line)) and table is None:
            fields[m.group(1)] = decode(m.group(2))
            continue
        if command == "scout" and not line.startswith(("  ", "note: ")):
            if (m := LISTED.match(line)) and listing is not None:
                listed.append((listing, int(m.group(1))))
            elif line and not SNIPPET_OR_SCOPE.match(line):
                listing = decode(line)
            table = None
            continue
        if (m := SNIPPET.match(line)) and file is not None:
            shown.append((file, int(m.group(1))))
            if line[len(m.group(1))] == ":":
                matched.append(int(m.group(1)))
            continue
        table = None if not line.startswith("  ") else table
    return Answer(command, fields, tables, shown, matched, next_argv, listed)
