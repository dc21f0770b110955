"""The reading phase of the context benchmark (issue 30, D46): asrch's `show --scope`
and the sed windows, on a real file, with real processes."""

import shutil
import sys
from pathlib import Path

import pytest
from bench.context.answers import Location
from bench.context.definitions import SED_AFTER, read_with_scope, read_with_sed

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scopes"
ASRCH = [sys.executable, "-m", "asrch"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reading") / "tree"
    shutil.copytree(FIXTURE, root)
    body = "".join(f"    x{k} = {k}\n" for k in range(100))
    (root / "long.py").write_text(f"import os\n\n\ndef long():\n{body}    return x1\n")
    return root


def test_show_scope_reads_a_short_definition_whole_in_one_call(tree: Path) -> None:
    reading = read_with_scope(ASRCH, tree, Location("src/pool.py", 20, 24), ("src/pool.py", 24))
    assert (reading.calls, reading.covers, reading.whole) == (1, True, True)
    assert 0 < reading.bytes_read < 400


def test_show_scope_covers_a_long_definition_without_every_line(tree: Path) -> None:
    reading = read_with_scope(ASRCH, tree, Location("long.py", 4, 105), ("long.py", 60))
    assert (reading.calls, reading.covers, reading.whole) == (1, True, False)


def test_sed_widens_toward_the_missing_end(tree: Path) -> None:
    short = read_with_sed(tree, Location("src/pool.py", 20, 24), ("src/pool.py", 22))
    assert (short.calls, short.covers, short.whole) == (1, True, True)
    # Lines 1-40 miss the end (105): 41-80, then 81-120 find it.
    long = read_with_sed(tree, Location("long.py", 4, 105), ("long.py", 10))
    assert (long.calls, long.covers, long.whole) == (3, True, True)
    assert 10 + SED_AFTER + 80 >= 105
    # Past 3 windows an agent stops: a definition this long is not covered from line 5.
    longer = read_with_sed(tree, Location("long.py", 4, 200), ("long.py", 5))
    assert (longer.calls, longer.covers) == (3, False)
