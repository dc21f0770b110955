"""Binary files are counted as rg decides them, by rg's own numbers (issue 20 items 2
and 7, issue 23): never from its debug log, whose names are lossy (U+FFFD for a byte
that is not UTF-8) and can be faked by a file name.

rg's own judgement here is independent of asrch's parsing: the files `rg --files`
walks to, minus those `rg --count --include-zero` printed a count for (rg prints none
for a file it stopped reading at a NUL byte), on trees where nothing is unreadable.
"""

import os
import re
import subprocess
import sysconfig
from pathlib import Path

import pytest

from asrch.domain.filters import make_filters
from asrch.domain.query import Query
from asrch.engine.argv import BASE_FLAGS
from asrch.engine.binary import resolve_rg
from asrch.engine.counts import count_files, parse_count_records, rg_path_order
from tests.end_to_end.helpers import as_json, asrch, check_invariants
from tests.support.cli import Result
from tests.support.files import write_files

RG = resolve_rg()
QUERY = Query(term="needle")


def rg_binary(cwd: Path, target: str = ".") -> list[bytes]:
    """The binary files rg meets walking `target` (see the module docstring)."""
    walked = subprocess.run(
        [RG, *BASE_FLAGS, "--files", "--null", "--", target],
        cwd=cwd,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")[:-1]
    counted = subprocess.run(
        [RG, *BASE_FLAGS, "--count", "--include-zero", "--null", "-e", "needle", "--", target],
        cwd=cwd,
        capture_output=True,
        check=False,
    ).stdout
    read = {path for path, _ in parse_count_records(counted)}
    return sorted(p for p in walked if p not in read)


def _note_count(run: Result) -> int:
    """The binary files the answer counts: JSON's notice (D45: the text says them only
    on a zero answer)."""
    found = [n["message"] for n in as_json(run)["notices"] if n["kind"] == "binary"]
    if not found:
        return 0
    return int(re.search(r"([0-9]+) binary file", found[0])[1])  # type: ignore[index]


def _hostile(root: Path) -> None:
    """Binary files under names that are not UTF-8 (and in a directory that is not),
    names that read like rg's log line, a hidden one that used to fake the note."""
    (root / "d").mkdir()
    os.mkdir(os.fsencode(root) + b"/x\xffdir")
    files = {
        b"d/late\xff.dat": b"needle early\n" + b"x" * 300_000 + b"\n\0\n",
        b"b\xfe.bin": b"\0needle\n",
        b"x\xffdir/in.bin": b"needle\n\0",
        b"x: found binary data at offset 3.txt": b"needle\n",
        b".h: found binary data at offset 7": b"needle\n",
        b"d/WARNING: stopped searching binary file.txt": b"WARNING binary\n",
        b"plain.txt": b"needle\nneedle\n",
        b"lf\nname: found binary data at offset 1.bin": b"\0",
    }
    for name, data in files.items():
        with open(os.fsencode(root) + b"/" + name, "wb") as out:
            out.write(data)


def test_binary_files_under_hostile_names_are_rgs(tmp_path: Path) -> None:
    _hostile(tmp_path)
    binary = rg_binary(tmp_path)
    assert len(binary) == 4
    for target in (str(tmp_path), str(tmp_path / "d")):
        tally = count_files(RG, QUERY, target, cap=50_000)
        assert tally.binary == len(rg_binary(tmp_path, target))
    run = asrch("scout", "needle", cwd=tmp_path)
    check_invariants(run, frozenset({0}))
    assert _note_count(run) == 4, str(run)


def test_a_name_reading_like_the_log_fakes_no_binary_file(tmp_path: Path) -> None:
    (tmp_path / ".h: found binary data at offset 7").write_text("needle\n")
    (tmp_path / "a: found binary data at offset 2").write_text("needle\n")
    for run in (
        asrch("scout", "needle", cwd=tmp_path),
        asrch("survey", "--term=needle", "--term=found", cwd=tmp_path),
    ):
        check_invariants(run, frozenset({0}))
        assert _note_count(run) == 0, str(run)


def test_filtered_and_capped_scans_count_the_binary_files_they_keep(tmp_path: Path) -> None:
    _hostile(tmp_path)
    binary = rg_binary(tmp_path)
    for glob in ("*.dat", "!*.bin", "x*/**", "*.txt"):
        filters = make_filters((), (glob,), {}, cwd=str(tmp_path))
        keeps = filters.keeper(str(tmp_path))
        query = QUERY._replace(filters=filters)
        tally = count_files(RG, query, str(tmp_path), cap=50_000)
        want = [p for p in binary if keeps(str(tmp_path) + "/" + os.fsdecode(p[2:]))]
        assert tally.binary == len(want), glob


def test_a_scan_cut_at_the_cap_counts_the_binary_files_before_its_last(tmp_path: Path) -> None:
    _hostile(tmp_path)
    # rg's log would write `\x80` as U+FFFD (EF BF BD), which sorts after `\xc0`: the
    # binary file before the last counted one would seem to lie after it.
    with open(os.fsencode(tmp_path) + b"/d/\x80.bin", "wb") as out:
        out.write(b"\0")
    with open(os.fsencode(tmp_path) + b"/d/\xc0.txt", "wb") as out:
        out.write(b"needle\n")
    target = str(tmp_path)
    binary = [os.fsencode(target) + p[1:] for p in rg_binary(tmp_path)]
    for cap in (1, 2, 3, 4):
        tally = count_files(RG, QUERY, target, cap=cap)
        assert tally.capped
        last = rg_path_order(os.fsencode(tally.files[-1].path))
        assert tally.binary == sum(1 for p in binary if rg_path_order(p) < last)


@pytest.mark.slow
def test_binary_files_of_the_stdlib_with_pyc_are_rgs() -> None:
    lib = Path(sysconfig.get_paths()["stdlib"])
    binary = rg_binary(lib)
    assert len(binary) > 1000
    assert count_files(RG, Query(term="zqxj never here"), str(lib), cap=50_000).binary == len(
        binary
    )
    run = asrch("scout", "zqxj never here", cwd=lib)
    check_invariants(run, frozenset({0}))
    assert _note_count(run) == len(binary)


def _counted(cwd: Path, target: str) -> list[tuple[bytes, int]]:
    """rg's own counts, with `/` in paths and NUL after each (what the census reads)."""
    out = subprocess.run(
        [RG, *BASE_FLAGS, "--count", "--null", "-e", "needle", "--", target],
        cwd=cwd,
        capture_output=True,
        check=False,
    ).stdout
    return sorted(parse_count_records(out))


def test_names_that_read_like_a_count_record_are_rgs(tmp_path: Path) -> None:
    # The census record is `PATH:COUNT LF` (`/` printed as NUL): names holding `:` and
    # digits, a count's own spelling, or a LF after one must neither make nor hide one.
    names = {
        b"c:5": b"x\n",
        b"d:0": b"needle\n",
        b"e:0:3": b"needle\nneedle\n",
        b"sub/f:12": b"needle\n" * 12,
        b"sub/g:1x": b"",
        b"h:": b"needle\n",
        b"\xff:0": b"a\n",
        b"bin:0": b"\0needle\n",
        b"sub/bin:7.pyc": b"needle\n\0",
    }
    write_files(tmp_path, names)
    target = str(tmp_path)
    first = os.fsencode(target).split(b"/")[1]
    # A LF after a count, then the searched path's first component; one after `:1`. The
    # census cannot split these records (its checks send it to rg's plain records).
    for extra in (None, b"t:0\n" + first, b"u:1\nx.txt"):
        if extra is not None:
            with open(os.fsencode(target) + b"/" + extra, "wb") as out:
                out.write(b"needle\n")
        tally = count_files(RG, QUERY, target, cap=50_000)
        assert tally.binary == len(rg_binary(tmp_path)) == 2
        found = sorted((os.fsencode(f.path), f.matches) for f in tally.files)
        assert found == [item for item in _counted(tmp_path, target) if item[1]]


@pytest.mark.parametrize("cap", [50_000, 2, 1])
@pytest.mark.parametrize("globs", [(), ("*.txt",), ("!d/**",)])
def test_without_the_census_the_counts_are_the_censuss(
    tmp_path: Path, cap: int, globs: tuple[str, ...]
) -> None:
    """D45: a count that does not take the census (`rg --count`, only the files with a
    match) gives the census's Tally, its binary files aside, capped or filtered alike."""
    _hostile(tmp_path)
    query = Query(term="needle", filters=make_filters((), globs, {}))
    for target in (str(tmp_path), str(tmp_path / "d"), "."):
        cwd = tmp_path if target == "." else None
        here = os.getcwd()
        try:
            os.chdir(cwd or here)
            whole = count_files(RG, query, target, cap=cap)
            plain = count_files(RG, query, target, cap=cap, census=False)
        finally:
            os.chdir(here)
        assert plain == whole._replace(binary=0), (target, globs, cap)
