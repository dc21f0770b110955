"""domain/text_safety.py: the character classes and each output's form of them."""

import json
from typing import NamedTuple

import pytest

from asrch.domain.text_safety import (
    CharClass,
    char_class,
    has_surrogate,
    json_escapes,
    json_path,
    json_text,
    pastes,
    quote,
    quote_cut,
    rg_text,
    visible,
    visible_line,
)


@pytest.mark.parametrize(
    ("raw", "written"),
    [
        ("src/net/a.py", "src/net/a.py"),
        ("a=b-c_d.e", "a=b-c_d.e"),
        ("", '""'),
        ("a b,c.py", '"a b,c.py"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("line\nbreak\ttab\rcr", '"line\\nbreak\\ttab\\rcr"'),
        ("esc\x1b", '"esc\\u001b"'),
        ("接続", '"接続"'),
        ("at least 50000", '"at least 50000"'),
        (">=50000", '">=50000"'),
        ("bad\udcffbyte", '"bad\\xffbyte"'),
    ],
)
def test_quote(raw: str, written: str) -> None:
    assert quote(raw) == written


class Row(NamedTuple):
    """One character and how each output shows it (None: never met there)."""

    char: str
    char_class: CharClass | None
    in_value: str
    """Inside a D2 value's quotes."""
    in_line: str
    pastes: bool
    in_json: str | None
    """The JSON string as `render_json` writes it; None: refused (`has_surrogate`)."""
    in_rg: str | None


# One character of each class (and a few of none): the module's table, as values.
TABLE = [
    Row("\t", CharClass.TAB, "\\t", "\t", False, '"\\t"', "\\u0009"),
    Row("\n", CharClass.LINE_END, "\\n", "\u240a", False, '"\\n"', "\\u000a"),
    Row("\r", CharClass.LINE_END, "\\r", "\u240d", False, '"\\r"', "\\u000d"),
    Row("\x1b", CharClass.CONTROL, "\\u001b", "\u241b", False, '"\\u001b"', "\\u001b"),
    Row("\x00", CharClass.CONTROL, "\\u0000", "\u2400", False, '"\\u0000"', "\\u0000"),
    Row("\x7f", CharClass.CONTROL, "\\u007f", "\u2421", False, '"\\u007f"', "\\u007f"),
    Row("\x85", CharClass.C1, "\\u0085", "\\u0085", False, '"\\u0085"', "\\u0085"),
    Row("\x9f", CharClass.C1, "\\u009f", "\\u009f", False, '"\\u009f"', "\\u009f"),
    Row("\u2028", CharClass.SEPARATOR, "\\u2028", "\\u2028", False, '"\\u2028"', "\\u2028"),
    Row("\u2029", CharClass.SEPARATOR, "\\u2029", "\\u2029", False, '"\\u2029"', "\\u2029"),
    Row("\udce9", CharClass.BYTE, "\\xe9", "\\xe9", False, '"\\\\xe9"', None),
    Row("\ud800", CharClass.SURROGATE, "\\ud800", "\\ud800", False, None, None),
    Row('"', CharClass.QUOTE, '\\"', '"', True, '"\\""', '"'),
    Row("\\", CharClass.BACKSLASH, "\\\\", "\\", True, '"\\\\"', "\\"),
    Row("é", None, "é", "é", True, '"é"', "é"),
    Row("接", None, "接", "接", True, '"接"', "接"),
    Row(" ", None, " ", " ", True, '" "', " "),
    Row("\u202e", CharClass.FORMAT, "\\u202e", "\\u202e", False, '"\\u202e"', "\\u202e"),
    Row("\u2066", CharClass.FORMAT, "\\u2066", "\\u2066", False, '"\\u2066"', "\\u2066"),
    Row("\u200b", CharClass.FORMAT, "\\u200b", "\\u200b", False, '"\\u200b"', "\\u200b"),
    Row("\ufeff", CharClass.FORMAT, "\\ufeff", "\\ufeff", False, '"\\ufeff"', "\\ufeff"),
    Row("\xad", CharClass.FORMAT, "\\u00ad", "\\u00ad", False, '"\\u00ad"', "\\u00ad"),
    Row(
        "\U000e0041",
        CharClass.FORMAT,
        "\\U000e0041",
        "\\U000e0041",
        False,
        '"\\udb40\\udc41"',
        "\\U000e0041",
    ),
    # Default ignorable code points a renderer draws as nothing, which `str.isprintable`
    # passes (issue 39, item 10: printed raw on 71ae67e).
    Row("\ufe0f", CharClass.INVISIBLE, "\\ufe0f", "\\ufe0f", False, '"\\ufe0f"', "\\ufe0f"),
    Row("\ufe00", CharClass.INVISIBLE, "\\ufe00", "\\ufe00", False, '"\\ufe00"', "\\ufe00"),
    Row("\u034f", CharClass.INVISIBLE, "\\u034f", "\\u034f", False, '"\\u034f"', "\\u034f"),
    Row("\u17b4", CharClass.INVISIBLE, "\\u17b4", "\\u17b4", False, '"\\u17b4"', "\\u17b4"),
    Row("\u3164", CharClass.INVISIBLE, "\\u3164", "\\u3164", False, '"\\u3164"', "\\u3164"),
    Row(
        "\U000e0100",
        CharClass.INVISIBLE,
        "\\U000e0100",
        "\\U000e0100",
        False,
        '"\\udb40\\udd00"',
        "\\U000e0100",
    ),
    Row("\U0001f600", None, "\U0001f600", "\U0001f600", True, '"\U0001f600"', "\U0001f600"),
    Row("\xa0", None, "\xa0", "\xa0", True, '"\xa0"', "\\u00a0"),
]


@pytest.mark.parametrize("row", TABLE, ids=[f"U+{ord(row.char):04X}" for row in TABLE])
def test_each_output_shows_each_class_as_the_table_says(row: Row) -> None:
    char = row.char
    assert char_class(char) is row.char_class
    assert quote(f"a{char}b") == f'"a{row.in_value}b"'
    assert visible(char) == row.in_line
    assert visible_line(f"a{char}b") == f"a{row.in_line}b"
    assert pastes(f"a{char}b") is row.pastes
    if row.in_json is None:
        assert has_surrogate(json_text(f"é{char}"))
    else:
        written = json.dumps(json_text(char), ensure_ascii=False).translate(json_escapes())
        assert written == row.in_json
        assert not has_surrogate(json_text(f"é{char}"))
    if row.in_rg is not None:
        assert rg_text(f"x{char}y") == f"x{row.in_rg}y"


def test_a_path_doubles_its_own_backslash_before_a_byte_is_written() -> None:
    assert json_text("lat\\xe9") == "lat\\xe9"
    assert json_path("lat\\xe9") == "lat\\\\xe9"
    assert json_path("lat\udce9") == "lat\\xe9"
    assert json_path("plain/a.py") == "plain/a.py"


def _classed() -> list[int]:
    return [code for code in range(0x110000) if char_class(chr(code)) is not None]


def test_the_format_class_is_unicodes_format_category() -> None:
    """Every Cf character this Python knows is FORMAT (3.11's Unicode 14 to 3.13's 15.1);
    FORMAT holds nothing else but the code points Unicode leaves unassigned among them
    (the rest of the tag block, U+2065): one that a later Unicode makes Cf is already in."""
    import unicodedata

    formats = {c for c in _classed() if char_class(chr(c)) is CharClass.FORMAT}
    cf = {c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"}
    assert cf <= formats
    assert {unicodedata.category(chr(c)) for c in formats - cf} == {"Cn"}
    assert set(range(0xE0000, 0xE0080)) <= formats


def test_the_classes_cover_what_the_table_names_and_nothing_else() -> None:
    classed = _classed()
    expected = {
        *range(0x20),
        0x22,
        0x5C,
        *range(0x7F, 0xA0),
        0x2028,
        0x2029,
        *range(0xD800, 0xE000),
    }
    formats = {c for c in classed if char_class(chr(c)) in (CharClass.FORMAT, CharClass.INVISIBLE)}
    assert set(classed) - formats == expected
    assert [c for c in range(0xDC80, 0xDD00)] == [
        c for c in classed if char_class(chr(c)) is CharClass.BYTE
    ]


def test_a_printable_string_holds_no_class_but_quote_backslash_and_invisible() -> None:
    """What every fast path (`str.isprintable`, then a search for INVISIBLE) rests on."""
    printable = {char_class(chr(code)) for code in _classed() if chr(code).isprintable()}
    assert printable == {CharClass.QUOTE, CharClass.BACKSLASH, CharClass.INVISIBLE}


def test_invisible_is_the_default_ignorable_code_points_format_leaves() -> None:
    """Unicode 15.1's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as
    ranges: each is FORMAT or INVISIBLE, and INVISIBLE holds nothing else."""
    ignorable = {
        0xAD,
        0x34F,
        0x61C,
        0x115F,
        0x1160,
        0x17B4,
        0x17B5,
        *range(0x180B, 0x1810),
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        0x3164,
        *range(0xFE00, 0xFE10),
        0xFEFF,
        0xFFA0,
        *range(0xFFF0, 0xFFF9),
        *range(0x1BCA0, 0x1BCA4),
        *range(0x1D173, 0x1D17B),
        *range(0xE0000, 0xE1000),
    }
    shown = {CharClass.FORMAT, CharClass.INVISIBLE}
    assert all(char_class(chr(code)) in shown for code in ignorable)
    invisible = {c for c in _classed() if char_class(chr(c)) is CharClass.INVISIBLE}
    assert invisible <= ignorable


def test_a_line_shows_each_character_as_one_character_would() -> None:
    line = '\tdef f(x):  # \x1b[31m "é" \\ \x85\u2028\udce9 接\r'
    assert visible_line(line) == "".join(visible(c) for c in line)
    assert visible_line('plain ascii, quotes " and \\') == 'plain ascii, quotes " and \\'


def test_json_escapes_are_what_the_encoder_leaves_raw() -> None:
    formats = {
        c for c in _classed() if char_class(chr(c)) in (CharClass.FORMAT, CharClass.INVISIBLE)
    }
    assert set(json_escapes()) == {0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, *formats}
    for code in formats:
        assert json.loads(f'"{json_escapes()[code]}"') == chr(code)
    for code in range(0x20):
        assert code not in json_escapes()
        assert json.dumps(chr(code), ensure_ascii=False) != f'"{chr(code)}"'


@pytest.mark.parametrize(
    "value", ["a" * 2_000, "é" * 2_000, '\\"' * 700, "\U000e0041" * 300, "short one", "x"]
)
def test_an_echo_is_cut_to_its_limit_and_says_how_much(value: str) -> None:
    """An error line echoes at most ECHO_MAX bytes of a value, so the reason after it
    survives the 800-byte cut (issue 39, item 10)."""
    echo = quote_cut(value, 200)
    if len(quote(value).encode()) <= 200:
        assert echo == quote(value)
        return
    head, marker = echo.rsplit("…", 1)
    assert len(head.encode()) <= 200
    left = int(marker.removeprefix("[+").removesuffix(" bytes]"))
    kept = value.encode("utf-8")[: len(value.encode("utf-8")) - left].decode("utf-8")
    assert head == quote(kept)
    assert len(quote(value[: len(kept) + 1]).encode()) > 200
