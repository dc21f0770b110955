"""D58 over MCP: a tool call under an indexed root reads the index's candidates (through
the call's pins) and answers what the command line answers without an index."""

import gc
import os
import shutil
import sys
from pathlib import Path

import pytest

from asrch.engine.mock_rg import MockRg, recorded
from asrch.server.app import build_server
from tests.server.helpers import call_tool, cli_json, run_cli, text_of, tool_text


@pytest.fixture
def indexed(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for dirpath, _, names in os.walk(corpus):
        for name in names:
            os.utime(Path(dirpath, name), (1_600_000_000, 1_600_000_000))
    cache = tmp_path / "cache"
    assert run_cli(corpus, "index", env={"XDG_CACHE_HOME": str(cache)}).status == 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return corpus


@pytest.mark.parametrize(
    ("tool", "arguments", "words"),
    [
        ("scout", {"query": "Pool"}, ["scout", "Pool"]),
        ("scout", {"query": "Pool", "path": "src"}, ["scout", "Pool", "src"]),
        ("survey", {"terms": ["Pool", "retry"]}, ["survey", "--term", "Pool", "--term", "retry"]),
    ],
)
def test_a_call_under_an_indexed_root_reads_candidates_and_answers_the_same(
    indexed: Path, tmp_path: Path, tool: str, arguments: dict[str, object], words: list[str]
) -> None:
    seen = MockRg(recorded)  # the real rg, each argv kept
    server = build_server([str(indexed)], transport=seen)
    text = text_of(call_tool(server, tool, arguments))
    scan = run_cli(indexed, *words, env={"XDG_CACHE_HOME": str(tmp_path / "none")})
    assert text == tool_text(scan.out)
    # rg counted (a survey: printed the matches of) the named candidates, never walked.
    counts = [r.argv for r in seen.requests if {"--count", "--only-matching"} & set(r.argv)]
    assert counts and all(argv[-2:] != ("--", ".") for argv in counts), counts
    # An edit without re-indexing: the next call sees it.
    (indexed / "src/app.py").write_text("Pool retry\n")
    again = text_of(call_tool(server, tool, arguments))
    scan = run_cli(indexed, *words, env={"XDG_CACHE_HOME": str(tmp_path / "none")})
    assert again == tool_text(scan.out)
    shutil.rmtree(tmp_path / "cache")


def test_a_structured_answer_says_whether_it_read_the_index(indexed: Path) -> None:
    """The structured content is the command line's JSON, `index` field included (D58)."""
    server = build_server([str(indexed)], structured=True)
    result = call_tool(server, "scout", {"query": "Pool"})
    assert result.structured_content is not None
    assert result.structured_content["index"] == "used"
    assert result.structured_content == cli_json(indexed, ["scout", "Pool"])
    bare = build_server([str(indexed / "src")], structured=True)
    os.environ["XDG_CACHE_HOME"] = str(indexed.parent / "no-cache")
    try:
        plain = call_tool(bare, "scout", {"query": "Pool"}).structured_content
    finally:
        os.environ.pop("XDG_CACHE_HOME")
    assert plain is not None and "index" not in plain


def test_the_server_keeps_its_walk_fresh_from_inotify(indexed: Path, tmp_path: Path) -> None:
    """Edits between calls, no `asrch index`: each answer is the scan's, and only an edit
    that can change which files the walk meets walks the root again (engine/index/fresh.py)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("inotify is Linux's")
    # The servers earlier tests let go still hold their roots' watches until collected:
    # past `watched.OPEN_MAX` of them this root would get none and be walked each call.
    gc.collect()
    seen = MockRg(recorded)  # the real rg, each argv kept
    server = build_server([str(indexed)], transport=seen)
    bare = {"XDG_CACHE_HOME": str(tmp_path / "none")}

    def walks() -> list[tuple[str, ...]]:
        runs = [tuple(r.argv) for r in seen.requests]
        seen.requests.clear()
        return [argv for argv in runs if "--files" in argv]

    def same(edit: str) -> list[tuple[str, ...]]:
        text = text_of(call_tool(server, "scout", {"query": "Pool"}))
        assert text == tool_text(run_cli(indexed, "scout", "Pool", env=bare).out), edit
        return walks()

    same("first call")
    with (indexed / "src/app.py").open("a") as file:
        file.write("Pool again\n")
    assert all("--max-depth=1" in w for w in same("a file written")), "walked the root"
    assert same("nothing") == []
    (indexed / "src/new.py").write_text("Pool new\n")
    same("a file made")
    (indexed / "fresh").mkdir()
    (indexed / "fresh/deep.py").write_text("Pool deep\n")
    same("a directory made, a file in it")
    (indexed / "src/new.py").rename(indexed / "fresh/moved.py")
    same("a file moved between directories")
    (indexed / ".gitignore").write_text("fresh/\n")
    same("an ignore rule")
    (indexed / "src/app.py").unlink()
    same("a file removed")
    for name in ("fresh/deep.py", "fresh/moved.py", ".gitignore"):
        (indexed / name).unlink()
    (indexed / "fresh").rmdir()
    same("all undone")
