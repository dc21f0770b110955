"""The suite's one reader of asrch's text answers (D1, D2, D7), written apart from the
renderers.

It reads what a user sees, so a test can hold the JSON answer to the text answer's
numbers, or a name on disk to the row that shows it, without trusting the code that wrote
either. `read` parses a whole answer (any line it does not understand is an error);
`field`, `table`, `overall`, `survey_by_path` and `notes` are a test's questions to it.
"""

import dataclasses
import re
import shlex
from dataclasses import dataclass

_BLOCK = re.compile(r"^([a-z_]+):$")
_TABLE = re.compile(r"^( *)([a-z_]+)\[([a-z_,]+)\]:$")
_LIST = re.compile(r"^([a-z_]+)\[(\d+)\]:$")
_ITEM = re.compile(r"^  - ([a-z_]+): (.*)$")
_FIELD = re.compile(r"^  ([a-z_]+): (.*)$")
_LIST_FIELD = re.compile(r"^  ([a-z_]+)\[(\d+)\]: (.*)$")
_HEADER = re.compile(r"^== (\d+)(?:-(\d+))? \((\d+) hits?(?:, cluster (\d+)/(\d+))?\) ==$")
"""A cluster: `START-END` (`START` alone for 1 line), its hits, and `cluster I/C` when the
clusters take more than 1 page."""
_SNIPPET = re.compile(r"^(\d+)([:-])(.*)$")
_FOLDED = re.compile(r"~ ([0-9]+)-([0-9]+): ([0-9]+) match(?:es)? in (.+) \(\S+ shows them\)")
"""D53: a region whose matches show counted but did not print."""
_ELIDED = re.compile(r"-- [0-9]+ lines( of (docstring|comment) \([0-9]+-[0-9]+\))? --")
_REST = re.compile(r"-- ([0-9]+) more lines of the unit \(([0-9]+)-([0-9]+)\) --")
_SCOPE = re.compile(r"^(\d+)=(.*)$")
_ESCAPE = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}
_CODE_POINT = {"u": 4, "U": 8}
"""How many hex digits follow `\\u` and `\\U`."""


def decode(token: str) -> str:
    """One D2 value: bare, or quoted with `\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, `\\uXXXX`,
    `\\UXXXXXXXX` and `\\xNN` escapes; the inverse of `asrch.domain.text_safety.quote`."""
    if not token.startswith('"'):
        return token
    if len(token) < 2 or not token.endswith('"'):
        raise ValueError(f"unterminated quoted value: {token!r}")
    out, body, i = [], token[1:-1], 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            out.append(char)
            i += 1
            continue
        kind = body[i + 1]
        if kind in _ESCAPE:
            out.append(_ESCAPE[kind])
            i += 2
        elif kind in _CODE_POINT:
            digits = _CODE_POINT[kind]
            out.append(chr(int(body[i + 2 : i + 2 + digits], 16)))
            i += 2 + digits
        elif kind == "x":
            # An undecodable byte, as os.fsdecode keeps it (os.fsencode gives it back).
            byte = int(body[i + 2 : i + 4], 16)
            if byte < 0x80:
                raise ValueError(f"\\x{byte:02x} is not an undecodable byte in {token!r}")
            out.append(chr(0xDC00 + byte))
            i += 4
        else:
            raise ValueError(f"unknown escape \\{kind} in {token!r}")
    return "".join(out)


_VALUE = r'(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_\-./=]+)'
_PLACE = re.compile(rf"({_VALUE}):([0-9]+)")
_PLACES = re.compile(rf"{_VALUE}:[0-9]+(?: {_VALUE}:[0-9]+)*")


def places(cell: str) -> list[tuple[str, int]] | None:
    """survey's `FILE:LINE FILE:LINE` cell (D56), each file decoded; None for a file."""
    if not _PLACES.fullmatch(cell):
        return None
    return [(decode(m.group(1)), int(m.group(2))) for m in _PLACE.finditer(cell)]


def split_row(row: str) -> list[str]:
    """Comma-separated D2 values; commas inside quotes belong to the value. A cell of
    survey's places (D56) is kept as written: `places` reads it."""
    values, start, quoted, i = [], 0, False, 0
    while i < len(row):
        char = row[i]
        if quoted and char == "\\":
            i += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            values.append(_cell(row[start:i]))
            start = i + 1
        i += 1
    values.append(_cell(row[start:]))
    return values


def _cell(token: str) -> str:
    return token if _PLACES.fullmatch(token) else decode(token)


def count(value: str) -> tuple[int, bool]:
    """A count and whether it is a lower bound (`at least N`, `>=N`)."""
    for prefix in ("at least ", ">="):
        if value.startswith(prefix):
            return int(value.removeprefix(prefix)), True
    return int(value), False


@dataclass
class Table:
    columns: tuple[str, ...]
    rows: list[dict[str, str]] = dataclasses.field(default_factory=list)


@dataclass
class Line:
    number: int
    match: bool
    text: str


@dataclass
class Cluster:
    start: int
    end: int
    hits: int
    index: int | None
    of: int | None
    """`cluster I/C`: None where the text leaves it out (1 page)."""
    snippets: list[list[Line]] = dataclasses.field(default_factory=list)


@dataclass
class Answer:
    block: str = ""
    fields: dict[str, str] = dataclasses.field(default_factory=dict)
    tables: dict[str, Table] = dataclasses.field(default_factory=dict)
    sections: list[tuple[str, Table]] = dataclasses.field(default_factory=list)
    """survey's `by_path` items: the path and its `terms` table."""
    sections_declared: int | None = None
    clusters: list[Cluster] = dataclasses.field(default_factory=list)
    snippets: list[list[Line]] = dataclasses.field(default_factory=list)
    """Snippets outside any cluster (`show`)."""
    notes: list[str] = dataclasses.field(default_factory=list)
    scopes: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    folded: list[tuple[int, int, int, str]] = dataclasses.field(default_factory=list)
    """The `N=text` scope lines (D31), in answer order."""
    rest: tuple[int, int, int] | None = None
    """`-- K more lines of the unit (A-B) --` (a long unit's beginning, issue 40)."""
    lists: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    """Header fields written as inline lists (`globs[2]: "*.py","!t/**"`)."""
    listed: list[tuple[str, list[Line]]] = dataclasses.field(default_factory=list)
    """A scout's listed files (D32): each path line and the lines under it."""
    next: list[str] | None = None
    """The `next:` line's command, split as a shell splits it."""


def read(text: str) -> Answer:
    """Parse one text answer; any line it does not understand is an error."""
    answer = Answer()
    table: Table | None = None
    snippets = answer.snippets
    lines = text.removesuffix("\n").split("\n") if text else []  # "": a refused run's
    for line in lines:
        if line.startswith("note: "):
            answer.notes.append(line.removeprefix("note: "))
        elif line.startswith("next: "):
            assert answer.next is None, "two next: lines"
            answer.next = shlex.split(line.removeprefix("next: "))
        elif m := _BLOCK.match(line):
            answer.block = m.group(1)
        elif m := _LIST.match(line):
            answer.sections_declared = int(m.group(2))
        elif m := _TABLE.match(line):
            table = Table(tuple(m.group(3).split(",")))
            if m.group(1):
                answer.sections[-1] = (answer.sections[-1][0], table)
            else:
                answer.tables[m.group(2)] = table
        elif m := _ITEM.match(line):
            answer.sections.append((decode(m.group(2)), Table(())))
            table = None
        elif line.startswith("  ") and table is not None:
            values = split_row(line.strip(" "))
            assert len(values) == len(table.columns), f"row {line!r} for {table.columns}"
            table.rows.append(dict(zip(table.columns, values, strict=True)))
        elif (m := _LIST_FIELD.match(line)) and table is None:
            values = split_row(m.group(3))
            assert len(values) == int(m.group(2)), f"{line!r} declares {m.group(2)} values"
            answer.lists[m.group(1)] = values
        elif m := _FIELD.match(line):
            answer.fields[m.group(1)] = decode(m.group(2))
        elif m := _HEADER.match(line):
            start, end, hits, index, of = (None if g is None else int(g) for g in m.groups())
            assert start is not None and hits is not None, line
            answer.clusters.append(Cluster(start, end or start, hits, index, of, [[]]))
            snippets = answer.clusters[-1].snippets
        elif m := _FOLDED.fullmatch(line):
            start, end, count = (int(g) for g in m.groups()[:3])
            answer.folded.append((start, end, count, m.group(4)))
        elif m := _REST.fullmatch(line):
            assert answer.rest is None, "two rest lines"
            k, a, b = (int(g) for g in m.groups())
            answer.rest = (k, a, b)
        elif line == "--" or _ELIDED.fullmatch(line):  # `-- K lines --`: show --scope (D46, D51)
            snippets.append([])
        elif m := _SCOPE.match(line):
            answer.scopes.append((int(m.group(1)), m.group(2)))
        elif (m := _SNIPPET.match(line)) and answer.listed:
            answer.listed[-1][1].append(Line(int(m.group(1)), m.group(2) == ":", m.group(3)))
        elif m := _SNIPPET.match(line):
            if not snippets:
                snippets.append([])
            snippets[-1].append(Line(int(m.group(1)), m.group(2) == ":", m.group(3)))
        elif answer.block == "scout" and not line.startswith(" "):
            answer.listed.append((decode(line), []))  # a listed file's path (D32)
        else:
            raise ValueError(f"not a line of a text answer: {line!r}")
    return answer


# --- a test's questions to an answer ------------------------------------------------


def field(out: str, key: str) -> str:
    """The decoded value of the header's `key: value` line."""
    fields = read(out).fields
    assert key in fields, f"no field {key!r} in\n{out}"
    return fields[key]


_NAMED_TABLE = re.compile(r"([a-z_]+)\[([a-z_,]+)\]:")


def table(out: str, header: str) -> list[list[str]]:
    """The decoded rows of the table under the line `header` (`top_files[path,matches]:`),
    each in the header's column order."""
    named = _NAMED_TABLE.fullmatch(header)
    assert named, f"not a table header: {header!r}"
    columns = tuple(named[2].split(","))
    found = read(out).tables.get(named[1])
    assert found is not None and found.columns == columns, f"no table {header!r} in\n{out}"
    return [[row[column] for column in columns] for row in found.rows]


def overall(out: str) -> list[list[str]]:
    """survey's per-term rows, `[term, matches, files, ...]`: `overall`, or with 1 path
    the one table `terms` (D42)."""
    tables = read(out).tables
    if "overall" in tables:
        return table(out, "overall[term,matches,files,dominant_path]:")
    return table(out, "terms[term,matches,files,top_file]:")


def survey_by_path(out: str) -> list[tuple[str, list[list[str]]]]:
    """survey's `by_path` entries: each candidate path and its decoded term rows."""
    return [
        (path, [[row[column] for column in terms.columns] for row in terms.rows])
        for path, terms in read(out).sections
    ]


def notes(out: str) -> list[str]:
    """The answer's `note: ...` lines, whole."""
    return [f"note: {note}" for note in read(out).notes]
