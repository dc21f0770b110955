"""Files that start with a byte-order mark (issue 32, items 4 and 7): `show --line`'s
window and the scope reader read them as rg does, so a line's number, its text and
whether it matches are rg's. rg itself is the oracle: every line it prints for `^`,
with its number, in its JSON."""

import base64
import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asrch.domain.lines import SourceLine
from asrch.domain.query import Query
from asrch.engine import files
from asrch.engine.argv import BASE_FLAGS
from asrch.engine.binary import resolve_rg
from asrch.engine.decoding import as_rg_reads
from asrch.engine.files import read_lines, read_window
from asrch.engine.scopes import TreeSitterScopes

RG = resolve_rg()
BOMS = {"none": b"", "utf-8": b"\xef\xbb\xbf", "utf-16le": b"\xff\xfe", "utf-16be": b"\xfe\xff"}


def _rg_lines(path: Path) -> dict[int, bytes]:
    """Each line rg reads in the file, by its number, as rg's JSON gives its text."""
    done = subprocess.run(
        [RG, *BASE_FLAGS, "--json", "--regexp=^", "--", str(path)],
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    lines = {}
    for raw in done.stdout.splitlines():
        record = json.loads(raw)
        if record["type"] != "match":
            continue
        text = record["data"]["lines"]
        value = text["text"].encode() if "text" in text else base64.b64decode(text["bytes"])
        lines[record["data"]["line_number"]] = value
    return lines


def _units(order: str) -> st.SearchStrategy[bytes]:
    """UTF-16 code units in `order`: LF, CR, letters, `上` (0A 4E), U+FEFF, lone and
    paired surrogates, NUL; now and then an odd byte."""
    codes = [0x0A, 0x0D, 0x41, 0x20, 0x4E0A, 0x0A0A, 0xFEFF, 0xD800, 0xDC00, 0xDBFF, 0x0]
    unit = st.sampled_from(codes).map(lambda c: c.to_bytes(2, order))  # type: ignore[arg-type]
    return st.one_of(unit, unit, unit, st.binary(min_size=1, max_size=1))


_BODIES = {
    "none": st.lists(st.sampled_from([b"a", b"\n", b"\r", b"\0", b"\xff", b"\xef\xbb\xbf"])),
    "utf-8": st.lists(
        st.sampled_from([b"a", b"\n", b"\r", b"\0", b"\xff", b"\xef\xbb\xbf", "上".encode()])
    ),
    "utf-16le": st.lists(_units("little"), max_size=30),
    "utf-16be": st.lists(_units("big"), max_size=30),
}


@pytest.mark.parametrize("bom", list(BOMS))
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), start=st.integers(1, 12), width=st.integers(0, 5), chunk=st.integers(1, 9))
def test_the_window_is_what_rg_reads(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bom: str,
    *,
    data: st.DataObject,
    start: int,
    width: int,
    chunk: int,
) -> None:
    """Numbers, text and the last line, for each mark rg honours, read in chunks of any
    size (a chunk may end inside a code unit or a surrogate pair)."""
    body = b"".join(data.draw(_BODIES[bom]))
    path = tmp_path / "f.txt"
    path.write_bytes(BOMS[bom] + body)
    monkeypatch.setattr(files, "_CHUNK", chunk)
    rg = _rg_lines(path)
    end = start + width
    window, last = read_lines(str(path), start, end)
    assert last == max(rg, default=0)
    assert window == [(n, rg[n]) for n in range(start, min(end, last) + 1)]


def test_a_utf16_file_is_numbered_by_its_line_breaks(tmp_path: Path) -> None:
    """The issue's reproduction: `上` is 0A 4E in UTF-16 LE, no line break."""
    path = tmp_path / "u16.py"
    path.write_bytes(b"\xff\xfe" + "a = 1\n上 = 2\nfoo = 3\n".encode("utf-16-le"))
    window = read_window(RG, Query(term="foo"), str(path), line=3, context=2)
    assert window.last_line == 3
    assert [(ln.number, ln.text, ln.is_match) for ln in window.lines] == [
        (1, b"a = 1\n", False),
        (2, "上 = 2\n".encode(), False),
        (3, b"foo = 3\n", True),
    ]


@pytest.mark.parametrize("bom", ["utf-8", "utf-16le", "utf-16be"])
def test_scope_lines_read_the_file_as_rg_does(tmp_path: Path, bom: str) -> None:
    """No U+FEFF in a scope line, and a UTF-16 file's definitions where rg's lines are."""
    source = 'class A:\n    """Doc."""\n\n    def f(self):\n        return 1\n'
    encoded = source.encode("utf-8" if bom == "utf-8" else bom)
    path = tmp_path / "a.py"
    path.write_bytes(BOMS[bom] + encoded)
    rg = _rg_lines(path)
    assert rg[4] == b"    def f(self):\n"
    scopes = TreeSitterScopes().of(str(path), [SourceLine(5, rg[5], True)]).scopes[5]
    assert scopes is not None
    assert [(s.line, s.text) for s in scopes] == [(1, b"class A:"), (4, b"    def f(self):")]


@pytest.mark.parametrize("bom", list(BOMS))
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_whole_file_read_is_what_rg_reads(tmp_path: Path, bom: str, data: st.DataObject) -> None:
    """The scope reader's form (the whole file at once): rg's lines, end to end."""
    raw = BOMS[bom] + b"".join(data.draw(_BODIES[bom]))
    path = tmp_path / "f.txt"
    path.write_bytes(raw)
    assert as_rg_reads(raw) == b"".join(_rg_lines(path).values())
