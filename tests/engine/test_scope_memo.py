"""Scope lines kept between calls (`engine.scope_memo`, issue 41, item 5): used again
only for a file that reads the same bytes, bounded, and the same answers as a parse."""

import os
from pathlib import Path

import pytest

from asrch.domain.lines import Scope, SourceLine
from asrch.engine.scope_memo import Answers, ScopeMemo
from asrch.engine.scopes import parse as parse_module
from asrch.engine.scopes import reader
from asrch.engine.scopes.reader import TreeSitterScopes

BEFORE = b"class Box:\n    def size(self):\n        return needle\n"
AFTER = b"class Bag:\n    def mass(self):\n        return needle\n"  # same length


def _line(data: bytes, number: int) -> SourceLine:
    text = data.splitlines(keepends=True)[number - 1]
    at = text.find(b"needle")
    return SourceLine(number, text, True, (at, at + 6))


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per parse the scope reader makes."""
    made: list[int] = []
    parse = parse_module.parse

    def counted(*args: object, **kwargs: object) -> object:
        made.append(1)
        return parse(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "parse", counted)
    return made


def test_a_file_that_reads_the_same_is_not_parsed_again(tmp_path: Path, parses: list[int]) -> None:
    (tmp_path / "box.py").write_bytes(BEFORE)
    memo = ScopeMemo()
    first = TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", [_line(BEFORE, 3)])
    assert len(parses) == 1
    # A new reader (the next call), the same memo: the answer without a parse.
    again = TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", [_line(BEFORE, 3)])
    assert again == first
    assert len(parses) == 1
    assert [s.text for s in first.scopes[3] or ()] == [b"class Box:", b"    def size(self):"]


def test_a_file_rewritten_in_place_is_read_again(tmp_path: Path, parses: list[int]) -> None:
    """Same size, same inode, the time stamps put back: still the new bytes' answer."""
    path = tmp_path / "box.py"
    path.write_bytes(BEFORE)
    memo = ScopeMemo()
    TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", [_line(BEFORE, 3)])
    stamp = os.stat(path)
    with open(path, "r+b") as out:
        out.write(AFTER)
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_ino, after.st_mtime_ns) == (
        stamp.st_size,
        stamp.st_ino,
        stamp.st_mtime_ns,
    )
    placed = TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", [_line(AFTER, 3)])
    assert len(parses) == 2
    assert placed == TreeSitterScopes(cwd=str(tmp_path)).of("box.py", [_line(AFTER, 3)])
    assert [s.text for s in placed.scopes[3] or ()] == [b"class Bag:", b"    def mass(self):"]


def test_lines_not_asked_before_are_walked_and_kept(tmp_path: Path, parses: list[int]) -> None:
    (tmp_path / "box.py").write_bytes(BEFORE)
    memo = ScopeMemo()
    TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", [_line(BEFORE, 3)])
    two = [_line(BEFORE, 2), _line(BEFORE, 3)]
    both = TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", two)
    assert both == TreeSitterScopes(cwd=str(tmp_path)).of("box.py", two)
    assert len(parses) == 3  # the first, the one without a memo, one for line 2
    TreeSitterScopes(cwd=str(tmp_path), memo=memo).of("box.py", two)
    assert len(parses) == 3


def test_the_memo_is_bounded() -> None:
    memo = ScopeMemo(limit=3_000)
    answer: Answers = {(1, 0): ((Scope(1, b"def f():"),), False)}
    for n in range(10):
        memo.keep(f"f{n}.py", bytes(1_000), answer)
        assert memo.size <= 3_000
    assert memo.answers("f9.py", bytes(1_000)) == answer
    assert memo.answers("f0.py", bytes(1_000)) == {}  # the least recently asked went first
    memo.keep("huge.py", bytes(5_000), answer)  # larger than the whole memo: not kept
    assert memo.answers("huge.py", bytes(5_000)) == {}
    assert memo.answers("f9.py", b"other bytes") == {}
