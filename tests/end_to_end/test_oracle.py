"""An independent oracle for fixed-string counts: plain Python, no rg.

It walks the tree as asrch's rules say rg does: no symlinks, only regular files, no
hidden names, none of the default exclusions below the root, no binary files (a NUL
anywhere, when met while walking), a UTF-16 or UTF-8 byte-order mark decoded as rg
does, lines split on LF; a line counts once however often it holds the term's bytes.
The trees hold no ignore files (the standard-library test checks that rg's ignore
rules change nothing there). Past the 50,000-line cap, counts are those of a scan in
rg's path order stopped at the cap, printed `at least`.
"""

import os
import random
import stat
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from asrch.domain.exclusions import EXCLUDED_DIRS, EXCLUDED_FILES
from tests.end_to_end.helpers import asrch, asrch_many, check_invariants, ranked
from tests.support.toon import field, overall

CAP = 50_000


@dataclass(frozen=True)
class Expected:
    matches: int
    files: int
    capped: bool
    per_file: dict[bytes, int]


def _searchable(root: bytes) -> list[bytes]:
    """Relative paths of the files rg searches under `root`, by asrch's rules."""
    found: list[bytes] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(b".")
            and os.fsdecode(d) not in EXCLUDED_DIRS
            and not os.path.islink(os.path.join(folder, d))
        ]
        for name in files:
            path = os.path.join(folder, name)
            if name.startswith(b".") or any(
                fnmatchcase(os.fsdecode(name), glob) for glob in EXCLUDED_FILES
            ):
                continue
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            found.append(os.path.relpath(path, root))
    return found


def _text(data: bytes) -> bytes:
    """What rg searches: a byte-order mark decoded (UTF-16) or dropped (UTF-8)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16-le" if data.startswith(b"\xff\xfe") else "utf-16-be"
        return data[2:].decode(codec, "replace").encode("utf-8")
    return data.removeprefix(b"\xef\xbb\xbf")


def oracle(root: Path, terms: list[str]) -> dict[str, Expected]:
    base = os.fsencode(root)
    counts: dict[str, dict[bytes, int]] = {t: {} for t in terms}
    needles = [(t, t.encode()) for t in terms]
    for rel in _searchable(base):
        with open(os.path.join(base, rel), "rb") as handle:
            data = _text(handle.read())
        if b"\0" in data:
            continue
        lines = data.split(b"\n")
        for term, needle in needles:
            n = sum(1 for line in lines if needle in line)
            if n:
                counts[term][rel] = n
    result: dict[str, Expected] = {}
    for term, per_file in counts.items():
        total, files, capped = 0, 0, False
        # rg's --sort=path: Rust Path order, component by component.
        for _rel, n in sorted(per_file.items(), key=lambda item: item[0].split(b"/")):
            total += n
            files += 1
            if total >= CAP:
                total, capped = CAP, True
                break
        result[term] = Expected(total, files, capped, per_file)
    return result


def _shown(n: int, capped: bool, survey: bool = False) -> str:
    if not capped:
        return str(n)
    return f">={n}" if survey else f"at least {n}"


def check_against_oracle(root: Path, terms: list[str], *, top_files: bool = True) -> None:
    want = oracle(root, terms)
    runs = asrch_many(
        [["scout", "--", t, "."] for t in terms]
        + [["survey", *(f"--term={t}" for t in terms), "--", "."]],
        cwd=root,
    )
    for run in runs:
        check_invariants(run, frozenset({0}))
    *scouts, survey = runs
    totals = overall(survey.out)
    for term, scout, row in zip(terms, scouts, totals, strict=True):
        exp = want[term]
        assert field(scout.out, "matches") == _shown(exp.matches, exp.capped), term
        assert field(scout.out, "files") == _shown(exp.files, exp.capped), term
        assert row[:3] == [
            term,
            _shown(exp.matches, exp.capped, survey=True),
            _shown(exp.files, exp.capped, survey=True),
        ]
        if top_files and not exp.capped:
            best = sorted(exp.per_file.items(), key=lambda item: (-item[1], item[0]))
            rows = ranked(scout, "top_files")
            assert [[os.fsencode(p), int(n)] for p, n in rows] == [[p, n] for p, n in best[:5]], (
                term
            )


# --- generated trees ----------------------------------------------------------------

WORDS = ["needle", "needles", "haystack", "ab", "a b", "日本", "日本語", "x", "NEEDLE", " "]
TERMS = ["needle", "ab", "日本", "a b"]


def _line(rng: random.Random) -> bytes:
    parts = [rng.choice(WORDS).encode() for _ in range(rng.randint(0, 6))]
    if rng.random() < 0.1:
        parts.append(bytes([rng.choice([0xFF, 0xE6, 0x80, 0xC3])]))
    return b"".join(p + rng.choice([b"", b" ", b"\t", b"-"]) for p in parts)


def _content(rng: random.Random) -> bytes:
    lines = [_line(rng) for _ in range(rng.randint(0, 40))]
    ending = rng.choice([b"\n", b"\r\n"])
    data = ending.join(lines) + rng.choice([ending, b""])
    if rng.random() < 0.08:
        data = data[: len(data) // 2] + b"\0" + data[len(data) // 2 :]
    return b"x" + data  # never a byte-order mark by chance


def _generate(root: Path, seed: int) -> None:
    rng = random.Random(seed)
    names = ["src", "lib", "a b", "日本", ".hidden", *EXCLUDED_DIRS[:4], "deep"]
    files = ["f.txt", "g.py", "x.log", "y.min.js", ".h.txt", "z.xml", "n o.md", "é.txt"]
    folders = [root]
    for _ in range(rng.randint(3, 10)):
        folder = rng.choice(folders) / rng.choice(names)
        folder.mkdir(exist_ok=True)
        folders.append(folder)
    for _ in range(rng.randint(10, 40)):
        path = rng.choice(folders) / f"{rng.randint(0, 9)}{rng.choice(files)}"
        path.write_bytes(_content(rng))
    # Files that are not searched, whatever they hold.
    (root / "link.txt").symlink_to(path)
    os.mkfifo(root / "fifo.txt")


@pytest.mark.parametrize("seed", range(6))
def test_generated_trees_agree_with_the_oracle(tmp_path: Path, seed: int) -> None:
    _generate(tmp_path, seed)
    check_against_oracle(tmp_path, TERMS)


def test_cap_agrees_with_a_path_ordered_oracle(tmp_path: Path) -> None:
    for i, n in enumerate([20_000, 25_000, 10_000, 5_000]):
        sub = tmp_path / ("b" if i % 2 else "a") / f"f{i}"
        sub.mkdir(parents=True)
        (sub / "data.txt").write_bytes(b"needle\n" * n + b"other\n")
    want = oracle(tmp_path, ["needle"])["needle"]
    assert want.capped and want.files == 3  # the cap lands inside the third file
    check_against_oracle(tmp_path, ["needle"])


def test_oracle_skips_what_it_should(tmp_path: Path) -> None:
    """The oracle itself: a check on the checker, without asrch."""
    (tmp_path / ".hid").mkdir()
    (tmp_path / ".hid" / "a.txt").write_bytes(b"needle\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "a.txt").write_bytes(b"needle\n")
    (tmp_path / "a.log").write_bytes(b"needle\n")
    (tmp_path / "bin.txt").write_bytes(b"needle\n\0")
    (tmp_path / "u16.txt").write_bytes("needle\n".encode("utf-16"))
    (tmp_path / "ok.txt").write_bytes(b"needle needle\nneedle\nno\n")
    want = oracle(tmp_path, ["needle"])["needle"]
    assert want.per_file == {b"ok.txt": 2, b"u16.txt": 1}


# --- the running interpreter's standard library --------------------------------------


@pytest.mark.slow
def test_standard_library_agrees_with_the_oracle() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    rg = Path(sys.executable).parent / "rg"
    listed = []
    for extra in ([], ["--no-ignore"]):
        done = subprocess.run(
            [str(rg), "--no-config", "--no-require-git", "--files", *extra, "."],
            cwd=stdlib,
            capture_output=True,
            timeout=120,
            check=False,
        )
        listed.append(len(done.stdout.splitlines()))
    if listed[0] != listed[1]:
        pytest.skip(f"ignore files change what rg searches under {stdlib}: {listed}")
    terms = ["def ", "import os", "Guido", "__name__ == '__main__'"]
    check_against_oracle(stdlib, terms, top_files=False)


def test_survey_with_the_oracle_on_several_paths(tmp_path: Path) -> None:
    _generate(tmp_path, 99)
    paths = sorted(p.name for p in tmp_path.iterdir() if p.is_dir() and not p.name.startswith("."))
    paths = [p for p in paths if p not in EXCLUDED_DIRS][:3] or ["."]
    run = asrch("survey", "--term=needle", "--", *paths, cwd=tmp_path)
    check_invariants(run, frozenset({0}))
    total = sum(oracle(tmp_path / p, ["needle"])["needle"].matches for p in paths)
    (row,) = overall(run.out)
    assert row[1] == str(total)
