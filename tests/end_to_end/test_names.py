"""Hostile file names: every row stays one line and its value decodes to the name.

Names are made as bytes (`os.fsencode` round-trips them), each file inside a
directory of a hostile name too, so that both `top_directories` and `top_files`
carry them. Groups of five files hold 10..14 matching lines (21 or more in all: more than a
scout lists, D44), so every file has a row and the order of the rows is known.
"""

import json
import os
import shlex
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from asrch.domain.limits import SCOUT_LIST_MAX
from asrch.domain.scout import KINDS as FILE_KINDS
from asrch.domain.scout import kind_of
from tests.end_to_end.helpers import asrch, asrch_many, check_invariants, ranked
from tests.support.cli import Result
from tests.support.toon import field, overall, read, survey_by_path, table

NAMES: tuple[bytes, ...] = (
    b"space name.txt",
    b"trailing space .txt",
    b"comma,name.txt",
    b'quote"name.txt',
    b"'single'.txt",
    b"back\\slash.txt",
    b"literal\\x41 and \\u0041.txt",
    b"new\nline.txt",
    b"tab\tname.txt",
    b"cr\rname.txt",
    b"esc\x1b[31mred.txt",
    b"bell\x07.txt",
    b"del\x7f.txt",
    b"nel\xc2\x85.txt",
    b"linesep\xe2\x80\xa8.txt",
    "rlo\u202egpj.txt".encode(),
    "isolate\u2066x\u2069.txt".encode(),
    "zero\u200bwidth.txt".encode(),
    "\ufeffbom.txt".encode(),
    "tag\U000e0041\U000e0042.txt".encode(),
    b"latin1-caf\xe9.txt",
    b"bad\xff\xfe.txt",
    b"lone\x80continuation.txt",
    b"cut\xe6\x97.txt",
    b"surrogate\xed\xa0\x80.txt",
    b"-leading-dash.txt",
    b"--files",
    b"-e",
    b"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e.txt",
    b"snake\xf0\x9f\x90\x8d.txt",
    b"shell;|&*?[]$(x).txt",
    b"=equals=.txt",
)
GROUP = 5
GROUPS = [NAMES[i : i + GROUP] for i in range(0, len(NAMES), GROUP)]
TERM = b"needle"


def _dir_of(name: bytes) -> bytes:
    return name + b".d"


def _text(value: str) -> bytes:
    return os.fsencode(value)


def _make_group(root: Path, names: tuple[bytes, ...]) -> list[tuple[bytes, bytes, int]]:
    """(directory, file, matching lines) per name; file i holds i + 10 matching lines."""
    made = []
    base = os.fsencode(root)
    for i, name in enumerate(names):
        folder = os.path.join(base, _dir_of(name))
        os.mkdir(folder)
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write((TERM + b" here\n") * (i + 10) + b"filler\n")
        made.append((_dir_of(name), name, i + 10))
    return made


def _pasteable(path: bytes) -> bool:
    """A name D28 can write in a `next:` line: UTF-8, no control character."""
    try:
        text = path.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(
        ord(c) < 0x20
        or 0x7F <= ord(c) < 0xA0
        or c in "\u2028\u2029"
        or unicodedata.category(c) == "Cf"
        for c in text
    )


def _check_step(words: list[str] | None, path: bytes) -> None:
    """A next step: present exactly when `path` can be pasted, naming `path` as its
    last argument, after `--` when it starts with `-`."""
    if not _pasteable(path):
        assert words is None, (words, path)
        return
    assert words is not None and words[0] == "asrch", (words, path)
    assert _text(words[-1]) == path, (words, path)
    assert words[-2] == TERM.decode()
    assert ("--" in words) == path.startswith(b"-")


def _split_next(out: str, path: bytes) -> list[str]:
    """The answer's lines without its `next:` line (a refused show's, D54), after
    checking that line as pasted into a shell."""
    lines = out.splitlines()
    last = lines[-1]
    if not last.startswith("next: "):
        _check_step(None, path)
        return lines
    _check_step(shlex.split(last.removeprefix("next: ")), path)
    return lines[:-1]


def _ids(groups: list[tuple[bytes, ...]]) -> list[str]:
    return [f"group{i}" for i in range(len(groups))]


@pytest.mark.parametrize("names", GROUPS, ids=_ids(GROUPS))
def test_scout_rows_decode_to_the_names(tmp_path: Path, names: tuple[bytes, ...]) -> None:
    made = _make_group(tmp_path, names)
    run, as_json = asrch_many(
        [["scout", "--", TERM, "."], ["scout", "--format", "json", "--", TERM, "."]],
        cwd=tmp_path,
    )
    check_invariants(run, frozenset({0}))
    out = run.out
    expected = sorted(made, key=lambda m: -m[2])
    assert field(out, "files") == str(len(names))
    assert field(out, "matches") == str(sum(m[2] for m in made))
    directories = table(out, "top_directories[path,matches]:")
    files = table(out, "top_files[path,matches]:")
    # One row per file and per directory: no value was split over two lines.
    assert len(files) == len(names)
    assert len(directories) == len(names)
    # next: names the top file of the first kind that matched (D35: a `.txt` is docs).
    chosen = min(
        made,
        key=lambda m: (FILE_KINDS.index(kind_of(os.fsdecode(m[0] + b"/" + m[1]))), -m[2]),
    )
    # D54: the text leaves the step to the agent; JSON carries it.
    lines = out.splitlines()
    assert not any(ln.startswith("next: ") for ln in lines), out
    _check_step(json.loads(as_json.out)["next"], chosen[0] + b"/" + chosen[1])
    total = sum(m[2] for m in made)
    kinds = len({kind_of(os.fsdecode(m[0] + b"/" + m[1])) for m in made})
    listed = len(names) + total if total <= SCOUT_LIST_MAX else 0  # D32: paths and lines
    # The header of counts only (D42), the two tables, the kinds table.
    assert len(lines) == 5 + 2 * len(names) + (kinds + 1 if kinds > 1 else 0) + listed
    for (folder, name, n), dir_row, file_row in zip(expected, directories, files, strict=True):
        assert dir_row == [os.fsdecode(folder), str(n)]
        assert _text(dir_row[0]) == folder
        assert _text(file_row[0]) == folder + b"/" + name
        assert file_row[1] == str(n)


@pytest.mark.parametrize("names", GROUPS, ids=_ids(GROUPS))
def test_survey_paths_and_top_files_decode(tmp_path: Path, names: tuple[bytes, ...]) -> None:
    made = _make_group(tmp_path, names)
    folders = [m[0] for m in made]
    runs = asrch_many(
        [
            ["survey", b"--term=" + TERM, "--", *folders],
            ["survey", b"--term=" + TERM, "--", "."],
        ],
        cwd=tmp_path,
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
    by_folder, whole = (r.out for r in runs)
    entries = survey_by_path(by_folder)
    assert [_text(path) for path, _ in entries] == folders
    for (_path, rows), (_folder, name, n) in zip(entries, made, strict=True):
        assert len(rows) == 1, rows
        term, matches, files, top_file = rows[0]
        assert (term, matches, files) == ("needle", str(n), "1")
        assert _text(top_file) == name
    (total,) = overall(by_folder)
    assert total[:3] == ["needle", str(sum(m[2] for m in made)), str(len(made))]
    assert _text(total[3]) == made[-1][0]
    # 1 path: its 1 table holds the top file (D42).
    (whole_row,) = overall(whole)
    assert _text(whole_row[3]) == made[-1][0] + b"/" + made[-1][1]


def _check_scout(run: Result, path: bytes, n: int) -> None:
    # A file of at most 20 matching lines: listed (D44), its path line then its lines,
    # with no table and no next step; nothing the agent typed is repeated (D42).
    lines = run.out.splitlines()
    assert n <= SCOUT_LIST_MAX
    assert lines[:3] == ["scout:", f"  matches: {n}", "  files: 1"], run.out
    assert _text(read(run.out).listed[0][0]) == path
    assert lines[4:] == [f"{k}:needle here" for k in range(1, n + 1)]


def _check_sample(run: Result, path: bytes, n: int) -> None:
    headers = [ln for ln in run.out.splitlines() if ln.startswith("== ")]
    hits = "1 hit" if n == 1 else f"{n} hits"
    span = "1" if n == 1 else f"1-{n}"  # 1 page: no `cluster 1/1`
    assert headers == [f"== {span} ({hits}) =="], run.out
    # The summary (2 lines: no file, no page of 1, D42), the header, the first and last
    # match with a line around.
    body = run.out.splitlines()[3:]
    assert not body[-1].startswith("next: "), run.out  # D54: no refusal, no step
    assert body[0] == "1:needle here"
    assert body[-1] == f"{n + 1}-filler"


def _check_show(run: Result, path: bytes, n: int) -> None:
    assert run.out.splitlines()[2:] == [  # `show:`, matches (D42)
        *(f"{k}:needle here" for k in range(1, n + 1)),
        f"{n + 1}-filler",
    ]


def _check_line(run: Result, path: bytes, n: int) -> None:
    assert field(run.out, "last_line") == str(n + 1)
    assert "1:needle here" in run.out.splitlines()


KINDS: dict[str, tuple[list[str], Callable[[Result, bytes, int], None]]] = {
    "scout": (["scout"], _check_scout),
    "sample": (["sample"], _check_sample),
    "show": (["show"], _check_show),
    "line": (["show", "--line", "1"], _check_line),
}
# sample and show --line read the file by two different routes (rg JSON, direct
# reads); scout FILE and show repeat routes already covered, so they run as slow.
SINGLE_FILE_CASES = [
    pytest.param(kind, names, id=f"{kind}-group{i}", marks=[pytest.mark.slow] * slow)
    for kind, slow in (("sample", False), ("line", False), ("scout", True), ("show", True))
    for i, names in enumerate(GROUPS)
]


@pytest.mark.parametrize(("kind", "names"), SINGLE_FILE_CASES)
def test_single_file_commands_on_hostile_paths(
    tmp_path: Path, kind: str, names: tuple[bytes, ...]
) -> None:
    made = _make_group(tmp_path, names)
    prefix, check = KINDS[kind]
    paths = [folder + b"/" + name for folder, name, _ in made]
    runs = asrch_many([[*prefix, "--", TERM, path] for path in paths], cwd=tmp_path)
    for run, path, (_, _, n) in zip(runs, paths, made, strict=True):
        check_invariants(run, frozenset({0}))
        check(run, path, n)


@pytest.mark.parametrize("names", GROUPS, ids=_ids(GROUPS))
def test_a_refused_show_names_the_file_as_pasted(tmp_path: Path, names: tuple[bytes, ...]) -> None:
    """A refusal's `next:` line (D54) quotes a hostile name so a shell gives it back."""
    paths = [folder + b"/" + name for folder, name, _ in _make_group(tmp_path, names)]
    for path in paths:
        with open(os.path.join(os.fsencode(tmp_path), path), "ab") as handle:
            handle.write((TERM + b" again\n") * 11)
    runs = asrch_many([["show", "--", TERM, path] for path in paths], cwd=tmp_path)
    for run, path in zip(runs, paths, strict=True):
        check_invariants(run, frozenset({3}))
        assert "note: refused: " in run.out, run.out
        _split_next(run.out, path)


def test_leading_dash_names_are_never_options(tmp_path: Path) -> None:
    """A file named like an rg option, searched from its own directory, is a file."""
    for name in (b"--files", b"-e", b"--pre=sh"):
        (tmp_path / os.fsdecode(name)).write_bytes(b"needle\n")
    run = asrch("scout", "--", TERM, ".", cwd=tmp_path)
    check_invariants(run, frozenset({0}))
    rows = ranked(run, "top_files")
    assert sorted(_text(r[0]) for r in rows) == sorted([b"--files", b"--pre=sh", b"-e"])
    for name in (b"--files", b"-e"):
        run = asrch("show", "--", TERM, name, cwd=tmp_path)
        check_invariants(run, frozenset({0}))
        assert run.out.splitlines()[-1] == "1:needle"
