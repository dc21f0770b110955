r"""Which characters could break an output, and how each output shows them (issue 21).

Text reaches asrch as `str` decoded with `surrogateescape` (names through os.fsdecode,
file lines from their bytes), so a byte that is not UTF-8 is one code point
U+DC80-U+DCFF. `char_class` sorts a character into one class; the functions below say how
each output shows each class, and each rule is written once, here.

| `CharClass`    | code points         | D2 value  | line text | step   | JSON string | rg's words |
| -------------- | ------------------- | --------- | --------- | ------ | ----------- | ---------- |
| TAB            | U+0009              | `\t`      | kept      | none   | `\t`        | `\u0009`   |
| LINE_END       | U+000A, U+000D      | `\n` `\r` | `␊` `␍`   | none   | `\n` `\r`   | `\u000a`   |
| CONTROL        | other C0, DEL       | `\u001b`  | `␛` `␡`   | none   | `\u001b`    | `\u001b`   |
| C1             | U+0080-U+009F       | `\u0085`  | `\u0085`  | none   | `\u0085`    | `\u0085`   |
| SEPARATOR      | U+2028, U+2029      | `\u2028`  | `\u2028`  | none   | `\u2028`    | `\u2028`   |
| FORMAT         | Cf: U+202E, U+200B… | `\u202e`  | `\u202e`  | none   | `\u202e`(4) | `\u202e`   |
| INVISIBLE      | U+FE0F, U+034F…     | `\ufe0f`  | `\ufe0f`  | none   | `\ufe0f`(4) | `\ufe0f`   |
| BYTE           | U+DC80-U+DCFF: NN   | `\xNN`    | `\xNN`    | none   | `\xNN`      | (never)    |
| SURROGATE      | other U+D800-U+DFFF | `\ud800`  | `\ud800`  | none   | refused     | (never)    |
| QUOTE          | `"`                 | `\"`      | kept      | quoted | `\"`        | kept       |
| BACKSLASH      | `\`                 | `\\`      | kept      | quoted | `\\` (1)    | kept       |
| (none)         | the rest            | kept (2)  | kept      | quoted | kept        | kept (3)   |

The columns: a D2 value (`quote`): a path, a term, a value in an error line, on stdout
and stderr alike; line text (`visible`): snippet and scope lines, a cluster header's
path; step (`pastes`): a word of the `next:` command, shell-quoted (`none`: the answer
has no step); JSON string (`json_text`, `json_path`, `json_escapes`): the `--format
json` answer and a tool's structured content; rg's words (`rg_text`): rg's reason for
refusing a search, in an error line. (1) a path's own `\` is doubled before JSON
doubles it again: `\\\\`. (2) bare only when made of ASCII letters, digits and
`_ - . / =`, else the whole value is quoted. (3) unless `str.isprintable` says no:
format characters such as U+202E and spaces other than U+0020 become `\uXXXX`.
(4) past U+FFFF (the tag characters) `\U000e0041` where a `\u` takes 4 digits (a D2
value, line text, rg's words) and the surrogate pair in JSON (`\udb40\udc41`, which
every JSON reader reads back as the one character).

FORMAT is Unicode's format category (Cf) as of Unicode 15.1, with the code points left
unassigned among them (the whole tag block U+E0000-U+E007F, U+2065): the bidi
controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the zero width
characters (U+200B-U+200D, U+2060-U+2064), U+FEFF, U+00AD, the tag characters, and
the rest of Cf. Each prints nothing or reorders the text around it, so a line that
holds one reads as something the file does not say (Trojan Source, CVE-2021-42574;
instructions hidden in tag characters): every output shows them escaped, as C1.

INVISIBLE is the rest of Unicode's default ignorable code points (DerivedCoreProperties
15.1, `Default_Ignorable_Code_Point`), which are no format characters and which
`str.isprintable` passes: the variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF, and
the rest of U+E0080-U+E0FFF), U+034F (combining grapheme joiner), U+17B4 and U+17B5
(Khmer inherent vowels), the Mongolian free variation selectors (U+180B-U+180D,
U+180F), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and U+FFF0-U+FFF8. A
renderer draws none of them, so a run of them carries text no reader sees (issue 39,
item 10): each output shows them as it shows FORMAT.

Why they differ:
- A D2 value round-trips: every escape decodes to exactly one code point or byte.
- Line text is read, not decoded: a tab stays (code is full of them), a control is
  one visible column, a quote or a backslash is itself. The line's ending is stripped
  before (`render/lines.py`).
- A step is pasted into a shell as one line; a word that cannot be is no step at all.
- The JSON encoder escapes `"`, `\` and C0 itself; `json_escapes` adds DEL, C1 and the
  separators, so no reader splits the answer and no terminal acts on it. A byte that is
  not UTF-8 cannot be in a JSON string: `\xNN`, as the text shows it. No other
  surrogate arrives (os.fsdecode makes only U+DC80-U+DCFF; the MCP wire refuses a
  request holding one); the answers' schemas refuse one too (both by `has_surrogate`).
- rg's words are not asrch's values; rg's stderr is decoded with U+FFFD, so no byte or
  surrogate is among them.
- Then every printed line, whatever made it, is cut to 800 bytes (`render/lines.py`,
  D8), and a surrogate nothing above handled would be written `\udcNN`
  (`backslashreplace`) rather than fail: the output is always UTF-8.
"""

import functools
import re
from bisect import bisect_right
from collections.abc import Iterable
from enum import Enum


class CharClass(Enum):
    TAB = "tab"
    LINE_END = "line end"
    CONTROL = "control"
    C1 = "C1 control"
    SEPARATOR = "line separator"
    FORMAT = "format character"
    INVISIBLE = "invisible character"
    BYTE = "byte that is not UTF-8"
    SURROGATE = "surrogate"
    QUOTE = "double quote"
    BACKSLASH = "backslash"


_SPANS: tuple[tuple[int, int, CharClass], ...] = (
    (0x00, 0x09, CharClass.CONTROL),
    (0x09, 0x0A, CharClass.TAB),
    (0x0A, 0x0B, CharClass.LINE_END),
    (0x0B, 0x0D, CharClass.CONTROL),
    (0x0D, 0x0E, CharClass.LINE_END),
    (0x0E, 0x20, CharClass.CONTROL),
    (0x22, 0x23, CharClass.QUOTE),
    (0x5C, 0x5D, CharClass.BACKSLASH),
    (0x7F, 0x80, CharClass.CONTROL),
    (0x80, 0xA0, CharClass.C1),
    (0xAD, 0xAE, CharClass.FORMAT),
    (0x34F, 0x350, CharClass.INVISIBLE),
    (0x600, 0x606, CharClass.FORMAT),
    (0x61C, 0x61D, CharClass.FORMAT),
    (0x6DD, 0x6DE, CharClass.FORMAT),
    (0x70F, 0x710, CharClass.FORMAT),
    (0x890, 0x892, CharClass.FORMAT),
    (0x8E2, 0x8E3, CharClass.FORMAT),
    (0x115F, 0x1161, CharClass.INVISIBLE),
    (0x17B4, 0x17B6, CharClass.INVISIBLE),
    (0x180B, 0x180E, CharClass.INVISIBLE),
    (0x180E, 0x180F, CharClass.FORMAT),
    (0x180F, 0x1810, CharClass.INVISIBLE),
    (0x200B, 0x2010, CharClass.FORMAT),
    (0x2028, 0x202A, CharClass.SEPARATOR),
    (0x202A, 0x202F, CharClass.FORMAT),
    (0x2060, 0x2070, CharClass.FORMAT),
    (0x3164, 0x3165, CharClass.INVISIBLE),
    (0xD800, 0xDC80, CharClass.SURROGATE),
    # os.fsdecode's stand-ins for the bytes 0x80-0xFF (a byte below 0x80 is UTF-8).
    (0xDC80, 0xDD00, CharClass.BYTE),
    (0xDD00, 0xE000, CharClass.SURROGATE),
    (0xFE00, 0xFE10, CharClass.INVISIBLE),
    (0xFEFF, 0xFF00, CharClass.FORMAT),
    (0xFFA0, 0xFFA1, CharClass.INVISIBLE),
    (0xFFF0, 0xFFF9, CharClass.INVISIBLE),
    (0xFFF9, 0xFFFC, CharClass.FORMAT),
    (0x110BD, 0x110BE, CharClass.FORMAT),
    (0x110CD, 0x110CE, CharClass.FORMAT),
    (0x13430, 0x13440, CharClass.FORMAT),
    (0x1BCA0, 0x1BCA4, CharClass.FORMAT),
    (0x1D173, 0x1D17B, CharClass.FORMAT),
    (0xE0000, 0xE0080, CharClass.FORMAT),
    (0xE0080, 0xE1000, CharClass.INVISIBLE),
)
"""Every classed code point, as `[start, stop)` spans in order: the classes' one
definition, which `char_class` looks a character up in."""

_STARTS = [start for start, _, _ in _SPANS]

_PRINTABLE = (CharClass.QUOTE, CharClass.BACKSLASH)
"""The classes `str.isprintable` passes that every output but a D2 value shows as
themselves; it passes INVISIBLE too (the tests hold it to these three)."""

_INVISIBLE = re.compile(
    "[" + "".join(f"{chr(a)}-{chr(b - 1)}" for a, b, k in _SPANS if k is CharClass.INVISIBLE) + "]"
)


def _shows_itself(text: str) -> bool:
    """Whether every character of `text` prints as itself in line text and rg's words
    (no class, or QUOTE or BACKSLASH): asked in C, `str.isprintable` then a search for
    INVISIBLE, so a character is looked up one at a time only in a string that fails."""
    return text.isprintable() and (text.isascii() or _INVISIBLE.search(text) is None)


def char_class(char: str) -> CharClass | None:
    """The class of one character; None: shown as itself by every output."""
    code = ord(char)
    index = bisect_right(_STARTS, code) - 1
    if index < 0:
        return None
    _, stop, found = _SPANS[index]
    return found if code < stop else None


def _codes(*classes: CharClass) -> Iterable[int]:
    return (code for start, stop, k in _SPANS if k in classes for code in range(start, stop))


def _code_escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _json_escape(code: int) -> str:
    """`\\uXXXX`, or past U+FFFF the surrogate pair JSON spells the character with."""
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _byte_escape(char: str) -> str:
    return f"\\x{ord(char) - 0xDC00:02x}"


# D2 values.

_BARE = re.compile(r"[A-Za-z0-9_\-./=]+")
_NAMED = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _in_quotes(char: str) -> str:
    found = char_class(char)
    if found is None:
        return char
    if found is CharClass.BYTE:
        return _byte_escape(char)
    return _NAMED.get(char) or _code_escape(char)


def quote(value: str) -> str:
    """The D2 form of one value: bare, or double-quoted with the escapes above."""
    if _BARE.fullmatch(value):
        return value
    return '"' + "".join(map(_in_quotes, value)) + '"'


ECHO_MAX = 200
"""Bytes of a value an error line echoes (`quote_cut`): what follows it, rg's reason,
must fit in the 800-byte line (issue 39, item 10)."""

PATH_ECHO_MAX = 600
"""Bytes of a path a `cannot read PATH: REASON` line echoes: a system's reason is
short, and a path up to 600 bytes prints whole."""


def quote_cut(value: str, limit: int = ECHO_MAX) -> str:
    """`quote(value)`, or when that is longer than `limit` bytes the quoted form of the
    value's head, followed by `…[+N bytes]` (N: the value's UTF-8 bytes left out), the
    whole at most `limit` bytes plus the marker."""
    whole = quote(value)
    if len(whole.encode("utf-8", "surrogateescape")) <= limit:
        return whole
    size = len(value.encode("utf-8", "surrogateescape"))
    low, high = 0, len(value)
    while low < high:  # the longest head whose quoted form fits
        mid = (low + high + 1) // 2
        if len(quote(value[:mid]).encode("utf-8", "surrogateescape")) <= limit:
            low = mid
        else:
            high = mid - 1
    head = value[:low]
    return f"{quote(head)}…[+{size - len(head.encode('utf-8', 'surrogateescape'))} bytes]"


# Line text.


def visible(char: str) -> str:
    """How one character of a line prints."""
    if _shows_itself(char):
        return char
    found = char_class(char)
    if found is None or found is CharClass.TAB:
        return char
    if found is CharClass.BYTE:
        return _byte_escape(char)
    if found is CharClass.CONTROL or found is CharClass.LINE_END:
        # Unicode Control Pictures: visible, one column, never a real control.
        code = ord(char)
        return chr(0x2400 + code) if code < 0x20 else "\u2421"
    return _code_escape(char)


def visible_line(text: str) -> str:
    """A line's text as it prints: each character `visible`."""
    return text if _shows_itself(text) else "".join(map(visible, text))


# `next:` steps.


def pastes(word: str) -> bool:
    """Whether a word of a command can be pasted into a shell as part of one line."""
    return _shows_itself(word) or all(char_class(c) in (None, *_PRINTABLE) for c in word)


# JSON strings.


@functools.cache
def json_escapes() -> dict[int, str]:
    """What a JSON encoder leaves raw but asrch escapes (a `str.translate` table).
    Built on the first JSON answer, not at import: its 4,200 code points cost a text
    answer's start-up ~2 ms for nothing (docs/performance.md)."""
    classes = (
        CharClass.CONTROL,
        CharClass.C1,
        CharClass.SEPARATOR,
        CharClass.FORMAT,
        CharClass.INVISIBLE,
    )
    # Below U+0020: the encoder's own (`\n`, `\u001b`).
    return {code: _json_escape(code) for code in _codes(*classes) if code >= 0x20}


def json_text(value: str) -> str:
    """A term or a path as a JSON string holds it: each BYTE written `\\xNN`."""
    if value.isascii():
        return value
    return "".join(_byte_escape(c) if char_class(c) is CharClass.BYTE else c for c in value)


def json_path(path: str) -> str:
    """A path as a JSON string holds it, one spelling per name: `json_text`, with each
    `\\` of the name written `\\\\` first, so a name holding the four characters `\\xe9`
    and a name holding the byte E9 never print alike (issue 20, item 8), as in the text's
    quoted form; docs/json.md says how to read a path back."""
    return json_text(path.replace("\\", "\\\\")) if "\\" in path else json_text(path)


def has_surrogate(value: str) -> bool:
    """Whether a string holds a BYTE or a SURROGATE: no JSON string can."""
    return not value.isascii() and any(
        char_class(c) in (CharClass.BYTE, CharClass.SURROGATE) for c in value
    )


# rg's words.


def rg_text(text: str) -> str:
    """rg's words as an error line quotes them."""
    if _shows_itself(text):
        return text
    return "".join(c if _shows_itself(c) else _code_escape(c) for c in text)
