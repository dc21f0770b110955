"""`--max-filesize` (rg's): a walk skips the files larger than the size; it never
reaches rg reading asrch's own files (survey's matched lines, fed or in a scratch file;
the pattern probe's empty input), which may be larger than the size the user named."""

import subprocess
import sys
from pathlib import Path

import pytest

from asrch.commands.arguments import MAX_FILESIZE
from asrch.domain.errors import InputError
from asrch.domain.limits import SCAN_CAP
from asrch.domain.query import Query, SearchOptions
from asrch.engine.argv import (
    census_argv,
    count_argv,
    files_argv,
    judge_lines_argv,
    lines_argv,
    pattern_probe_argv,
)
from asrch.engine.binary import resolve_rg
from asrch.engine.searcher import RipgrepSearcher

RG = resolve_rg()
SMALL = Query(term="needle", options=SearchOptions(max_filesize="1K"))


def test_only_the_walks_take_it() -> None:
    walks = [
        count_argv("rg", SMALL, "."),
        census_argv("rg", SMALL, "."),
        lines_argv("rg", [SMALL, SMALL], "."),
        files_argv("rg", ".", SMALL.options),
    ]
    assert all("--max-filesize=1K" in argv for argv in walks)
    own_files = [judge_lines_argv("rg", SMALL, "-", cap=5), pattern_probe_argv("rg", SMALL)]
    assert not any(a.startswith("--max-filesize") for argv in own_files for a in argv)


@pytest.mark.parametrize("size", ["1K", "1024", "3M", "2G", "0"])
def test_rg_s_sizes_are_taken(size: str) -> None:
    assert MAX_FILESIZE.update is not None
    assert MAX_FILESIZE.update(SearchOptions(), size).max_filesize == size


@pytest.mark.parametrize("size", ["1.5K", "1k", "K", "", "-1", "1KB", " 1K", "1" * 16, "١"])
def test_another_size_is_the_input_s_error(size: str) -> None:
    assert MAX_FILESIZE.update is not None
    with pytest.raises(InputError, match="takes a size in bytes"):
        MAX_FILESIZE.update(SearchOptions(), size)


def test_survey_s_lines_outgrow_the_size_and_are_all_judged(tmp_path: Path) -> None:
    """40 files of 900 bytes under a 1K limit, 12 terms: the matched lines survey's
    one pass feeds its judges (36 KB) are far over the limit, and every term's count is
    still each file's, as the per-term count plan finds it; a file of 2 KB is skipped."""
    terms = [f"term{i:02d}" for i in range(12)]
    for n in range(40):
        body = "".join(f"{terms[(n + k) % 12]} {'x' * 60}\n" for k in range(13))
        (tmp_path / f"f{n:02d}.txt").write_text(body[:900])
    (tmp_path / "big.txt").write_text(" ".join(terms) + "\n" + "y" * 2048)
    options = SearchOptions(max_filesize="1K")
    queries = [Query(term=t, options=options) for t in terms]
    searcher = RipgrepSearcher(RG, census=False)
    one_pass = searcher.count_terms(queries, str(tmp_path), cap=SCAN_CAP)
    each = [searcher.count(q, str(tmp_path), cap=SCAN_CAP) for q in queries]
    assert one_pass == each
    assert all(t.files and t.matches >= 30 for t in one_pass)
    assert not any(f.path.endswith("big.txt") for t in one_pass for f in t.files)
    without = searcher.count(Query(term="term00"), str(tmp_path), cap=SCAN_CAP)
    assert any(f.path.endswith("big.txt") for f in without.files)


def test_the_command_line_reads_it_where_pydantic_is_loaded() -> None:
    """cyclopts checks each option's default against its type once pydantic is loaded
    (the MCP server's process, a test run): a text option without a default is
    `str | None`, or every line of the command fails to parse."""
    code = (
        "import pydantic\n"
        "from asrch.cli.app import read\n"
        "print(read(['scout', '--max-filesize', '1K', 'x']))\n"
        "print(read(['survey', '--term', 'x']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "'max_filesize': '1K'" in done.stdout
