"""What a walk counts, against the real rg: binary files, path spellings, ignore files.

- The count plan and the JSON reference scan agree (D9) on trees with binary files
  (a NUL byte at the start, after the matches, past rg's first buffer), at any cap,
  and both count the binary files a path-ordered scan meets before it stops.
- Any spelling of the target (`src/`, `src//`, `./src`, …) gives the same rows (D26).
- `.gitignore` applies outside a git repository (D13).
"""

import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asrch.domain.counting import top_directories, top_files
from asrch.domain.query import Query
from asrch.engine.binary import resolve_rg
from asrch.engine.counts import count_files, rg_path_order
from tests.support.reference_scan import tally_from_json

RG = resolve_rg()
QUERY = Query(term="needle")
_NAMES = st.sampled_from(["a.txt", "b/c.txt", "b.txt", "b-c.txt", "B/x.txt", "b/c/d.txt", "_z"])
# Where a file's NUL byte is: nowhere (text), first, after its matches, or after them
# and past rg's first read buffer (so matches are found before the NUL is seen).
_NUL = st.sampled_from(["none", "first", "after", "far"])


def _content(matches: int, nul: str) -> bytes:
    body = b"needle\n" * matches + b"other\n"
    match nul:
        case "first":
            return b"\0" + body
        case "after":
            return body + b"\0\n"
        case "far":
            return body + b"x" * 300_000 + b"\n\0\n"
    return body


@st.composite
def _trees(draw: st.DrawFn) -> dict[str, tuple[int, str]]:
    names = draw(st.lists(_NAMES, min_size=1, max_size=6, unique=True))
    # A name cannot be both a file and a directory.
    names = [n for n in names if not any(o.startswith(n + "/") for o in names)]
    return {n: (draw(st.integers(0, 4)), draw(_NUL)) for n in names}


def _oracle(tree: dict[str, tuple[int, str]], cap: int) -> tuple[dict[str, int], bool, int]:
    """A path-ordered scan: binary files skipped and counted, stopped at the cap."""
    counts: dict[str, int] = {}
    total = 0
    binary = 0
    for name in sorted(tree, key=lambda n: rg_path_order(n.encode())):
        matches, nul = tree[name]
        if nul != "none":
            binary += 1
            continue
        if matches:
            kept = min(matches, cap - total)
            counts[name] = kept
            total += kept
            if total >= cap:
                return counts, True, binary
    return counts, False, binary


@settings(max_examples=40, deadline=None)
@given(_trees(), st.integers(1, 12))
def test_count_plan_equals_json_scan_with_binary_files(
    tree: dict[str, tuple[int, str]], cap: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, (matches, nul) in tree.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(_content(matches, nul))
        counted = count_files(RG, QUERY, tmp, cap=cap)
        assert counted == tally_from_json(RG, QUERY, tmp, cap=cap)
    counts, capped, binary = _oracle(tree, cap)
    assert {f.path.removeprefix(tmp + "/"): f.matches for f in counted.files} == counts
    assert (counted.capped, counted.binary) == (capped, binary)


def test_a_binary_file_named_as_the_target_is_searched(tmp_path: Path) -> None:
    path = tmp_path / "late.dat"
    path.write_bytes(_content(3, "far"))
    for plan in (count_files, tally_from_json):
        tally = plan(RG, QUERY, str(path), cap=50_000)
        assert (tally.matches, tally.binary) == (3, 0)


def test_binary_files_of_the_stdlib_are_counted_like_rg_lists_them() -> None:
    """The count plan's binary files are rg's: those `rg --files` lists that hold NUL
    where rg looks (the whole file, for a count)."""
    import sysconfig

    lib = Path(sysconfig.get_paths()["stdlib"]) / "json"
    listed = subprocess.run(
        [RG, "--no-config", "--no-require-git", "--files", "--", str(lib)],
        capture_output=True,
        check=True,
    ).stdout.splitlines()
    holding_nul = sum(1 for p in listed if b"\0" in Path(p.decode()).read_bytes())
    assert holding_nul > 0
    assert count_files(RG, Query(term="def "), str(lib), cap=50_000).binary == holding_nul


# --- spellings of the target (D26) ---------------------------------------------------


@pytest.fixture(scope="module")
def src_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spell")
    for name, n in (("src/top.py", 1), ("src/net/pool.py", 3), ("src/net/deep/x.py", 2)):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("needle\n" * n)
    return root


SPELLINGS = ["src/", "src//", "./src", ".//src", "./src/", "src/.", "src/./", "src/net/.."]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_the_target_gives_the_same_rows(
    src_tree: Path, spelling: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(src_tree)
    want = count_files(RG, QUERY, "src", cap=50_000)
    got = count_files(RG, QUERY, spelling, cap=50_000)
    assert top_files(got.files, spelling, 5) == top_files(want.files, "src", 5)
    assert top_directories(got.files, spelling, 5) == top_directories(want.files, "src", 5)
    absolute = str(src_tree) + "//" + spelling
    got = count_files(RG, QUERY, absolute, cap=50_000)
    assert top_files(got.files, absolute, 5) == top_files(want.files, "src", 5)


# --- ignore files outside git (D13) ----------------------------------------------------


def test_gitignore_applies_outside_a_git_repository(tmp_path: Path) -> None:
    outside = subprocess.run(
        ["git", "-C", str(tmp_path), "rev-parse", "--git-dir"], capture_output=True, check=False
    )
    assert outside.returncode != 0, "the test tree must not be inside a git repository"
    (tmp_path / ".gitignore").write_text("*.bak\nignored/\n")
    (tmp_path / "ignored").mkdir()
    (tmp_path / "ignored" / "x.txt").write_text("needle\n")
    (tmp_path / "old.bak").write_text("needle\n")
    (tmp_path / "kept.txt").write_text("needle\n")
    tally = count_files(RG, QUERY, str(tmp_path), cap=50_000)
    assert [f.path for f in tally.files] == [str(tmp_path / "kept.txt")]
    assert tally == tally_from_json(RG, QUERY, str(tmp_path), cap=50_000)
