"""D32's listed lines in one rg run (`engine.files.matching_lines`), held to one
`scan_file` per file: the same lines, spans and numbers, whatever the names."""

import os
from pathlib import Path

from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine.binary import resolve_rg
from asrch.engine.files import line_numbers, matching_lines, scan_file
from asrch.engine.process import Launch
from asrch.engine.searcher import RipgrepSearcher
from tests.support.files import write_files

RG = resolve_rg()


# Names with a dash, bytes that are no UTF-8, CRLF lines, more matches than kept, none.
AWKWARD = {
    b"a.py": b"needle = 1\nx\n  needle()\n",
    b"-": b"needle in a file named dash\n",
    b"caf\xe9.txt": b"\xe9 needle \xff\n",
    b"crlf.txt": b"one needle\r\ntwo\r\nneedle\r\n",
    b"many.txt": b"needle\n" * 15,
    b"none.txt": b"nothing here\n",
    b"sub/needle needle.md": b"needle needle\n",
}
QUERIES = (Query(term="needle"), Query(term="needle", options=SearchOptions(mode=Mode.WORD)))


def _written(tmp_path: Path, files: dict[bytes, bytes]) -> tuple[list[str], Launch]:
    """The files written, their names (and one that does not exist), rg's launch there."""
    write_files(tmp_path, files)
    return [os.fsdecode(name) for name in files] + ["gone.txt"], Launch(cwd=str(tmp_path))


def test_one_search_lists_what_a_scan_of_each_file_lists(tmp_path: Path) -> None:
    names, launch = _written(tmp_path, AWKWARD)
    for query in QUERIES:
        found = matching_lines(RG, query, names, keep=10, launch=launch)
        assert list(found) == names
        for file in names:
            scan = scan_file(RG, query, file, context=0, keep=10, cap=50_000, launch=launch)
            assert found[file] == tuple(line for line in scan.lines if line.is_match), file
        assert len(found["many.txt"]) == 10
        assert found["none.txt"] == found["gone.txt"] == ()


def test_line_numbers_are_the_listed_lines_numbers(tmp_path: Path) -> None:
    """survey's places (D56) read only the numbers: the same as the listed lines', for
    the awkward names, one with a newline, and a line of 4 MB."""
    long = b"x\n" + b"needle " * (600 << 10) + b"\nneedle\n"
    names, launch = _written(
        tmp_path, {**AWKWARD, b"new\nline.txt": b"x\nneedle\n", b"long.js": long}
    )
    for query in QUERIES:
        listed = matching_lines(RG, query, names, keep=3, launch=launch)
        found = line_numbers(RG, query, names, keep=3, launch=launch)
        assert found == {f: tuple(line.number for line in lines) for f, lines in listed.items()}
        assert found["long.js"] == (2, 3)


def test_line_numbers_of_a_file_holding_a_nul_are_left_to_the_listed_lines(
    tmp_path: Path,
) -> None:
    """rg names a file that holds a NUL in a line of its own, with no numbers: the
    searcher reads that one's lines as `matching_lines` does."""
    write_files(tmp_path, {"a.txt": b"needle\n", "b.bin": b"needle\n\0\nneedle\n"})
    launch = Launch(cwd=str(tmp_path))
    query = Query(term="needle")
    assert line_numbers(RG, query, ["a.txt", "b.bin"], keep=3, launch=launch) is None
    searcher = RipgrepSearcher(RG, cwd=str(tmp_path))
    assert searcher.line_numbers(query, ["a.txt", "b.bin"], keep=3) == {
        "a.txt": (1,),
        "b.bin": (1, 3),
    }
