"""The engine against the real rg binary, on small trees."""

import os
import subprocess
from pathlib import Path

import pytest

from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine.binary import resolve_rg
from asrch.engine.counts import count_files
from tests.support.cli import run_asrch
from tests.support.files import write_files
from tests.support.reference_scan import tally_from_json

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
RG = resolve_rg()


@pytest.mark.parametrize(
    "query",
    [
        Query(term="connect"),
        Query(term="id", options=SearchOptions(mode=Mode.IDENTIFIER)),
        Query(term="id", options=SearchOptions(mode=Mode.WORD)),
        Query(term=r"def \w+", options=SearchOptions(mode=Mode.REGEX)),
    ],
)
def test_count_plan_equals_json_scan_on_corpus(
    query: Query, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(CORPUS)
    assert count_files(RG, query, ".", cap=50_000) == tally_from_json(RG, query, ".", cap=50_000)


def test_count_plan_equals_json_scan_at_cap(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "a/x.txt": "n\n" * 700,
            "a.b/y.txt": "n\n" * 700,
            "a-b/z.txt": "n\n" * 700,
            "B.txt": "n\n" * 10,
        },
    )
    query = Query(term="n")
    counted = count_files(RG, query, str(tmp_path), cap=1500)
    assert counted == tally_from_json(RG, query, str(tmp_path), cap=1500)
    assert counted.capped and counted.matches == 1500


def test_identifier_boundaries(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.py": "id\nuser_id\nidx\n(id)\nvalid\n接続id\n"})
    tally = count_files(
        RG, Query(term="id", options=SearchOptions(mode=Mode.IDENTIFIER)), str(tmp_path), cap=50_000
    )
    assert tally.matches == 3  # id, (id), 接続id


def _cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    ran = run_asrch(args, cwd=cwd, environ=env)
    return subprocess.CompletedProcess(args, ran.status, ran.out, ran.err)


def test_option_like_terms_are_literal(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.txt": "use -e here\nand --files there\n"})
    for term in ("-e", "--files"):
        done = _cli("scout", "--", term, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "  matches: 1\n" in done.stdout


def test_ripgrep_config_changes_no_count(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"src/a.txt": "Connect\nconnect\n", "src/.h.txt": "connect\n", "src/x.log": "connect\n"},
    )
    config = tmp_path / "rgrc"
    config.write_text(
        "--ignore-case\n--hidden\n--no-ignore\n--max-count=1\n--invert-match\n"
        "--glob=*.log\n--word-regexp\n--count-matches\n--follow\n"
    )
    plain = _cli("scout", "connect", "src", cwd=tmp_path)
    env = {**os.environ, "RIPGREP_CONFIG_PATH": str(config)}
    configured = _cli("scout", "connect", "src", cwd=tmp_path, env=env)
    assert plain.returncode == configured.returncode == 0
    assert plain.stdout == configured.stdout
    assert "  matches: 1\n" in plain.stdout


def test_project_under_build_folder_is_searched(tmp_path: Path) -> None:
    project = write_files(tmp_path / "build" / "proj", {"a.py": "term\n", "build/b.py": "term\n"})
    done = _cli("scout", "term", ".", cwd=project)
    assert "  matches: 1\n" in done.stdout


def test_missing_rg_is_a_clear_engine_error(tmp_path: Path) -> None:
    env = {**os.environ, "ASRCH_RG": str(tmp_path / "nope")}
    done = _cli("scout", "x", ".", cwd=tmp_path, env=env)
    assert done.returncode == 4
    assert done.stderr.startswith("error: ASRCH_RG=")
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # an oracle over the whole stdlib: once, not on every interpreter
def test_count_plan_equals_json_scan_on_the_stdlib() -> None:
    """Real names (`_x`, `x.y`, `x-y`, case, digits) order exactly as rg's --sort=path."""
    import sysconfig

    stdlib = sysconfig.get_paths()["stdlib"]
    for term, cap in (("frozenset", 50_000), ("self", 8_000)):
        query = Query(term=term)
        assert count_files(RG, query, stdlib, cap=cap) == tally_from_json(
            RG, query, stdlib, cap=cap
        )
