"""Hostile file contents: output stays valid UTF-8, every line within 800 bytes (D8).

Bytes that are not UTF-8 print as `\\xNN`, line endings are stripped, other controls
are made visible, a long line is cut on a character boundary with a marker that
says how many bytes were cut. Files holding NUL found while walking a directory are
binary to rg and not counted, and
the answer says how many there were.
"""

import json
import re
from pathlib import Path

import pytest

from tests.end_to_end.helpers import LINE_CAP, as_json, asrch, asrch_many, check_invariants
from tests.support.cli import Result
from tests.support.toon import field, notes

HUGE = 10_000_000
JP = "日本語テキスト"

CONTENT: dict[str, bytes] = {
    "plain.txt": b"needle\n",
    "bad-utf8.txt": b"needle \xff\x80 \xc3(\nlatin1 caf\xe9 needle\n",
    "crlf.txt": b"needle one\r\nother\r\nneedle two\r\n",
    "huge.txt": b"x" * HUGE + b" needle\n",
    "no-final-newline.txt": b"first\nneedle at the end",
    "controls.txt": b"needle \x1b[31mred\x1b[0m \x07 \x7f \xc2\x85 \xe2\x80\xa8 \x0b\x0c end\n",
    # Format characters (issue 32): a right-to-left override, isolates, a zero width
    # space, U+FEFF inside a line, a soft hyphen and 2 tag characters; then the default
    # ignorable characters that are no format characters (issue 39, item 10): variation
    # selectors, a combining grapheme joiner, a Khmer inherent vowel.
    "invisible.txt": (
        "needle \u202e \u2066x\u2069 \u200b \ufeff \xad \U000e0041\U000e0042"
        " \ufe0f\U000e0100 \u034f \u17b4 end\n"
    ).encode(),
    # The 800-byte cut lands at each of the three offsets inside a 3-byte character
    # (the match is in the head of the line, so the line keeps its head).
    "japanese.txt": b"".join(("needle " + "a" * k + JP * 60 + "\n").encode() for k in range(3)),
    "empty.txt": b"",
}
MATCHING_LINES = {
    "plain.txt": 1,
    "bad-utf8.txt": 2,
    "crlf.txt": 2,
    "huge.txt": 1,
    "no-final-newline.txt": 1,
    "controls.txt": 1,
    "invisible.txt": 1,
    "japanese.txt": 3,
    "empty.txt": 0,
}
# NUL marks a file binary: once in the first block, once 200 KB in.
BINARY: dict[str, bytes] = {
    "binary.dat": b"needle\n\0needle\n",
    "late-nul.dat": b"needle\n" * 30_000 + b"\0needle\n",
}
MARKER = re.compile(r"…\[\+(\d+) bytes\]$")
LEFT_MARKER = re.compile(r"^\[\+(\d+) bytes\]…")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("content")
    for name, data in {**CONTENT, **BINARY}.items():
        (root / name).write_bytes(data)
    return root


def _body(run: Result, fields: int) -> list[str]:
    """The snippet lines after a `show:` block of `fields` lines, without the answer's
    `next:` line: 3 (`matches`), or 4 with --line (`window`, `last_line`); nothing the
    agent typed is echoed (D42)."""
    lines = run.out.splitlines()
    start = 1 + sum(1 for ln in lines[1:] if ln.startswith("  "))
    assert start == fields - 1, lines  # `show:` and its fields
    return [ln for ln in lines[start:] if not ln.startswith("next: ")]


def _check_cut(line: str, full: bytes) -> None:
    """`line` is `full` (`N:` and the line) cut to 800 bytes on character boundaries, each
    cut side marked with the bytes it left out; a matching line keeps `needle` in view."""
    assert len(line.encode()) <= LINE_CAP
    prefix = re.match(rb"\d+[:-]", full)
    assert prefix, full[:20]
    raw = full[prefix.end() :]
    assert line.startswith(prefix.group().decode())
    body = line[prefix.end() :]
    left = LEFT_MARKER.match(body)
    start = int(left.group(1)) if left else 0
    body = body[left.end() :] if left else body
    right = MARKER.search(body)
    end = len(raw) - int(right.group(1)) if right else len(raw)
    body = body[: right.start()] if right else body
    assert left or right, line[-80:]
    assert body.encode() == raw[start:end], "the markers miscount the cut"
    if full[prefix.end() - 1 : prefix.end()] == b":" and b"needle" in raw:
        assert "needle" in body, "the match is cut away"


def test_scout_counts_text_and_skips_binary(tree: Path) -> None:
    runs = asrch_many([["scout", "needle", "."], ["survey", "--term=needle", "--", "."]], cwd=tree)
    for run in runs:
        check_invariants(run, frozenset({0}))
    scout, survey = runs
    assert field(scout.out, "matches") == str(sum(MATCHING_LINES.values()))
    assert field(scout.out, "files") == str(sum(1 for n in MATCHING_LINES.values() if n))
    assert ".dat" not in scout.out
    total = sum(MATCHING_LINES.values())
    files = sum(1 for n in MATCHING_LINES.values() if n)
    assert f"  needle,{total},{files},japanese.txt\n" in survey.out
    # Not a silent drop: both binary files are counted (D21), in JSON always; the text
    # says so only on a zero answer, inside its note (D45).
    for run in runs:
        said = [n["message"] for n in as_json(run)["notices"] if n["kind"] == "binary"]
        assert said == [f"{len(BINARY)} binary files skipped"], str(run)
        assert "binary" not in run.out, str(run)
    missing = asrch("scout", "absent-term", ".", cwd=tree)
    assert f"{len(BINARY)} binary files" in notes(missing.out)[-1], str(missing)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_file_named_explicitly_is_searched(tree: Path, name: str) -> None:
    """As rg does: a file named on the command line is searched, NUL and all."""
    run = asrch("scout", "needle", name, cwd=tree)
    check_invariants(run, frozenset({0}))
    assert field(run.out, "matches") == str(BINARY[name].count(b"needle"))


def test_show_prints_nul_visibly(tree: Path) -> None:
    run = asrch("show", "needle", "binary.dat", cwd=tree)
    check_invariants(run, frozenset({0}))
    assert _body(run, 3) == ["1:needle", "2:␀needle"]


@pytest.mark.parametrize("name", sorted(CONTENT))
def test_single_file_commands_keep_the_line_contract(tree: Path, name: str) -> None:
    lines = CONTENT[name].count(b"\n") + (not CONTENT[name].endswith(b"\n") and bool(CONTENT[name]))
    commands = [
        ["sample", "needle", name],
        ["show", "needle", name],
        ["show", "--line", "1", "--context", "5", "needle", name],
        ["show", "--line", str(max(lines, 1)), "--context", "0", "needle", name],
    ]
    for command, run in zip(commands, asrch_many(commands, cwd=tree), strict=True):
        if name == "empty.txt" and "--line" in command:
            check_invariants(run, frozenset({2}))
            assert run.err == "error: --line 1 is out of range; empty.txt is empty\n"
            continue
        check_invariants(run, frozenset({0}))
        if "--line" not in command:
            assert field(run.out, "matches") == str(MATCHING_LINES[name])


def test_undecodable_bytes_print_as_escapes(tree: Path) -> None:
    run = asrch("show", "needle", "bad-utf8.txt", cwd=tree)
    check_invariants(run, frozenset({0}))
    assert _body(run, 3) == ["1:needle \\xff\\x80 \\xc3(", "2:latin1 caf\\xe9 needle"]


def test_crlf_endings_are_stripped(tree: Path) -> None:
    runs = asrch_many(
        [["show", "needle", "crlf.txt"], ["show", "--line", "2", "needle", "crlf.txt"]], cwd=tree
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
    assert _body(runs[0], 3) == ["1:needle one", "2-other", "3:needle two"]
    assert _body(runs[1], 4) == ["1:needle one", "2-other", "3:needle two"]


def test_controls_are_made_visible(tree: Path) -> None:
    run = asrch("show", "needle", "controls.txt", cwd=tree)
    check_invariants(run, frozenset({0}))
    (line,) = _body(run, 3)
    assert line == "1:needle ␛[31mred␛[0m ␇ ␡ \\u0085 \\u2028 ␋␌ end"


INVISIBLE = (
    "needle \\u202e \\u2066x\\u2069 \\u200b \\ufeff \\u00ad \\U000e0041\\U000e0042"
    " \\ufe0f\\U000e0100 \\u034f \\u17b4 end"
)


def test_format_characters_are_escaped_in_every_answer(tree: Path) -> None:
    """Each prints nothing or reorders the line: every answer that prints the line shows
    each as an escape, as C1 controls are (issue 32, item 6)."""
    runs = asrch_many(
        [
            ["show", "needle", "invisible.txt"],
            ["show", "--line", "1", "needle", "invisible.txt"],
            ["sample", "needle", "invisible.txt"],
            ["scout", "needle", "invisible.txt"],
            ["show", "--format", "json", "needle", "invisible.txt"],
        ],
        cwd=tree,
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
    show, window, sample, scout, as_json = runs
    assert f"1:{INVISIBLE}" in show.out.splitlines()
    assert f"1:{INVISIBLE}" in window.out.splitlines()
    assert f"1:{INVISIBLE}" in sample.out.splitlines()
    assert f"1:{INVISIBLE}" in scout.out.splitlines()
    (line,) = json.loads(as_json.out)["snippets"][0]["lines"]
    assert line["text"] == INVISIBLE


def test_last_line_without_newline(tree: Path) -> None:
    run = asrch("show", "--line", "2", "needle", "no-final-newline.txt", cwd=tree)
    check_invariants(run, frozenset({0}))
    assert field(run.out, "last_line") == "2"
    assert _body(run, 4) == ["1-first", "2:needle at the end"]


def test_empty_file(tree: Path) -> None:
    runs = asrch_many(
        [["scout", "needle", "empty.txt"], ["sample", "needle", "empty.txt"]], cwd=tree
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
        assert field(run.out, "matches") == "0"


def test_ten_megabyte_line_is_cut_with_an_exact_marker(tree: Path) -> None:
    full = b"1:" + CONTENT["huge.txt"].rstrip(b"\n")
    runs = asrch_many([["show", "needle", "huge.txt"], ["sample", "needle", "huge.txt"]], cwd=tree)
    for run in runs:
        check_invariants(run, frozenset({0}))
    show, sample = runs
    _check_cut(_body(show, 3)[0], full)
    _check_cut(sample.out.splitlines()[-1], full)


def test_show_line_on_a_ten_megabyte_line(tree: Path) -> None:
    """The line matches (the term is at its very end) and the marker counts the cut."""
    run = asrch("show", "--line", "1", "needle", "huge.txt", cwd=tree)
    check_invariants(run, frozenset({0}))
    assert sum(1 for ln in run.out.splitlines() if ln.startswith("1:")) == 1
    _check_cut(_body(run, 4)[0], b"1:" + CONTENT["huge.txt"].rstrip(b"\n"))


def test_multibyte_text_is_cut_on_a_character_boundary(tree: Path) -> None:
    run = asrch("show", "needle", "japanese.txt", cwd=tree)
    check_invariants(run, frozenset({0}))
    body = _body(run, 3)
    assert len(body) == 3
    for number, (line, raw) in enumerate(
        zip(body, CONTENT["japanese.txt"].splitlines(), strict=True), start=1
    ):
        _check_cut(line, f"{number}:".encode() + raw)
    # The three lines are cut at three different offsets inside a character.
    assert len({len(line.encode()) for line in body}) == 3
