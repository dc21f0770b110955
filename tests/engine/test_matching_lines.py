"""D32's listed lines in one rg run (`engine.files.matching_lines`), held to one
`scan_file` per file: the same lines, spans and numbers, whatever the names."""

import os
from pathlib import Path

from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine.binary import resolve_rg
from asrch.engine.files import matching_lines, scan_file
from asrch.engine.process import Launch
from tests.support.files import write_files

RG = resolve_rg()


def test_one_search_lists_what_a_scan_of_each_file_lists(tmp_path: Path) -> None:
    files = {
        b"a.py": b"needle = 1\nx\n  needle()\n",
        b"-": b"needle in a file named dash\n",
        b"caf\xe9.txt": b"\xe9 needle \xff\n",
        b"crlf.txt": b"one needle\r\ntwo\r\nneedle\r\n",
        b"many.txt": b"needle\n" * 15,
        b"none.txt": b"nothing here\n",
        b"sub/needle needle.md": b"needle needle\n",
    }
    write_files(tmp_path, files)
    names = [os.fsdecode(name) for name in files] + ["gone.txt"]
    launch = Launch(cwd=str(tmp_path))
    for query in (
        Query(term="needle"),
        Query(term="needle", options=SearchOptions(mode=Mode.WORD)),
    ):
        found = matching_lines(RG, query, names, keep=10, launch=launch)
        assert list(found) == names
        for file in names:
            scan = scan_file(RG, query, file, context=0, keep=10, cap=50_000, launch=launch)
            assert found[file] == tuple(line for line in scan.lines if line.is_match), file
        assert len(found["many.txt"]) == 10
        assert found["none.txt"] == found["gone.txt"] == ()
