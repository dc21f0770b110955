"""survey's counts equal separate `rg -c` runs with the same exclusions."""

import subprocess
import sysconfig
from pathlib import Path

from asrch.domain.query import Query
from asrch.engine.argv import count_argv
from asrch.engine.binary import resolve_rg
from tests.support.cli import run_asrch

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
RG = resolve_rg()


def _rg_counts(term: str, path: str, cwd: Path) -> tuple[int, int]:
    argv = count_argv(RG, Query(term=term), path)
    out = subprocess.run(argv, cwd=cwd, capture_output=True, check=False).stdout
    counts = [int(rec.split(b"\0")[1]) for rec in out.splitlines() if b"\0" in rec]
    return sum(counts), len(counts)


def _survey_overall(terms: list[str], paths: list[str], cwd: Path) -> dict[str, tuple[int, int]]:
    args = [a for t in terms for a in (f"--term={t}",)]
    done = run_asrch(["survey", *args, *paths], cwd=cwd)
    assert done.status == 0, done
    lines = done.out.split("\n")
    start = lines.index("overall[term,matches,files,dominant_path]:") + 1
    rows = {}
    for line in lines[start : start + len(terms)]:
        term, matches, files, _ = line.strip().rsplit(",", 3)
        rows[term] = (int(matches), int(files))
    return rows


def test_corpus_counts_match_rg() -> None:
    terms, paths = ["connect", "retry", "client", "def"], ["src", "docs", "tests", "src"]
    overall = _survey_overall(terms, paths, CORPUS)
    for term in terms:
        expected = [_rg_counts(term, p, CORPUS) for p in paths]
        assert overall[term] == (sum(m for m, _ in expected), sum(f for _, f in expected))


def test_stdlib_counts_match_rg() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    terms, paths = ["import", "asyncio", "frozenset", "Tkinter"], ["json", "asyncio", "email"]
    overall = _survey_overall(terms, paths, stdlib)
    for term in terms:
        expected = [_rg_counts(term, p, stdlib) for p in paths]
        assert overall[term] == (sum(m for m, _ in expected), sum(f for _, f in expected))


def test_same_bytes_twice() -> None:
    # Two processes, each with its own hash seed: an order that hangs on one shows here.
    argv = ["survey", "--term", "connect", "--term", "a", ".", "src"]
    first = run_asrch(argv, cwd=CORPUS, cold=True)
    second = run_asrch(argv, cwd=CORPUS, cold=True)
    assert first.status == 0, first
    assert first.stdout == second.stdout
