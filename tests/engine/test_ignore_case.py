"""`-i` (D30) counts, clusters and `show --line` marks agree with plain `rg -i`.

The oracle is rg run by hand here, with the exclusions spelled out, not asrch's own
argument lists: a mistake in those must not be copied into the expectation.
"""

import json
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from asrch.domain.exclusions import EXCLUDED_DIRS, EXCLUDED_FILES
from asrch.engine.binary import resolve_rg
from tests.support.cli import run_asrch

RG = resolve_rg()
EXCLUDES = [f"--glob=!{d}/" for d in EXCLUDED_DIRS] + [f"--glob=!{f}" for f in EXCLUDED_FILES]
MODE_FLAGS = {"fixed": ["-F"], "word": ["-F", "-w"], "regex": []}


def _rg_i(term: str, path: str, mode: str, cwd: Path) -> dict[str, int]:
    argv = [RG, "--no-config", "--no-require-git", "-i", "--count", "--with-filename"]
    argv += ["--null", *EXCLUDES, *MODE_FLAGS[mode], "-e", term, "--", path]
    out = subprocess.run(argv, cwd=cwd, capture_output=True, check=False).stdout
    pairs = [rec.split(b"\0") for rec in out.splitlines() if b"\0" in rec]
    return {p.decode(): int(n) for p, n in pairs}


def _rg_i_lines(term: str, file: Path, mode: str) -> list[int]:
    argv = [RG, "--no-config", "-i", "-n", "--no-filename", *MODE_FLAGS[mode], "-e", term]
    out = subprocess.run([*argv, "--", str(file)], capture_output=True, check=False).stdout
    return [int(line.split(b":", 1)[0]) for line in out.splitlines()]


def _asrch(*args: str, cwd: Path) -> Any:
    done = run_asrch([args[0], "--format", "json", *args[1:]], cwd=cwd)
    assert done.status in (0, 3), done.stderr
    return json.loads(done.stdout)


def _mode_args(mode: str) -> list[str]:
    return [] if mode == "fixed" else [f"--{mode}"]


def _sample_and_show_agree(term: str, file: Path, mode: str) -> None:
    lines = _rg_i_lines(term, file, mode)
    cwd = file.parent
    clusters: list[Any] = []
    page = 1
    while True:
        answer = _asrch(
            "sample", "-i", *_mode_args(mode), "--clusters", "5", "--page", str(page),
            "--", term, file.name, cwd=cwd,
        )  # fmt: skip
        assert answer["case"] == "insensitive"
        clusters += answer["shown"]
        if page >= answer["pages"]:
            break
        page += 1
    assert sum(c["hits"] for c in clusters) == len(lines)
    starts = [n for i, n in enumerate(lines) if i == 0 or n - lines[i - 1] > 2]
    assert [c["start"] for c in clusters] == starts
    for number in [*lines[:5], *lines[-1:]]:
        window = _asrch(
            "show", "-i", *_mode_args(mode), "--line", str(number), "--context", "2",
            "--", term, file.name, cwd=cwd,
        )  # fmt: skip
        marked = [ln["line"] for s in window["snippets"] for ln in s["lines"] if ln["match"]]
        assert marked == [n for n in lines if number - 2 <= n <= number + 2]


def test_sample_clusters_and_show_marks_follow_rg_i(tmp_path: Path) -> None:
    text = "Rollover\nx\nshouldRollover()\nROLLOVER = 1\n\n\n\n\nrollover\nnothing\n"
    (tmp_path / "mixed.txt").write_text(text)
    for mode in ("fixed", "word", "regex"):
        _sample_and_show_agree(
            "rollover" if mode != "regex" else "roll(ov)er", tmp_path / "mixed.txt", mode
        )


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["fixed", "word", "regex"])
def test_ignore_case_counts_match_rg_i_on_the_stdlib(mode: str) -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for term, path in [("rollover", "logging"), ("Retry", "."), ("unicodeerror", "."),
                       ("Http", "http"), ("ResourceWarning", "asyncio")]:  # fmt: skip
        expected = _rg_i(term, path, mode, stdlib)
        scout = _asrch("scout", "-i", *_mode_args(mode), "--", term, path, cwd=stdlib)
        assert (scout["matches"], scout["files"]) == (sum(expected.values()), len(expected))
        survey = _asrch("survey", "-i", *_mode_args(mode) if mode != "regex" else [],
                        f"--term={term}", path, cwd=stdlib)  # fmt: skip
        if mode != "regex":
            total = survey["overall"][0]
            assert (total["matches"], total["files"]) == (sum(expected.values()), len(expected))


@pytest.mark.slow
def test_ignore_case_clusters_and_marks_on_the_stdlib() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    _sample_and_show_agree("rollover", stdlib / "logging" / "handlers.py", "fixed")
    _sample_and_show_agree("error", stdlib / "json" / "decoder.py", "word")
