"""D53 through MCP: show's fold line names `folded`, which prints every match."""

from pathlib import Path

from asrch.server.app import build_server
from tests.golden.corpora_sample_show import folded_tests
from tests.golden.corpora_scopes import scopes_large
from tests.server.helpers import call_tool, text_of


def test_the_fold_line_names_the_argument_and_the_argument_prints_them(tmp_path: Path) -> None:
    folded_tests(tmp_path)
    server = build_server([str(tmp_path)])
    arguments = {"query": "DEFAULT_SHELL", "file": "src/settings.rs", "context": 0}
    folded = text_of(call_tool(server, "show", arguments))
    assert "~ 21-36: 2 matches in #[cfg(test)] mod tests (folded shows them)" in folded
    assert "28:" not in folded and "matches: 4" in folded
    every = text_of(call_tool(server, "show", {**arguments, "folded": True}))
    assert "~ 21-36" not in every and "28:" in every and "matches: 4" in every


def test_scout_lists_a_file_over_256_kib_without_scope_lines_and_says_so(tmp_path: Path) -> None:
    """Issue 39 through MCP: the listing's bound and its note, as the CLI's."""
    scopes_large(tmp_path)
    server = build_server([str(tmp_path)])
    answer = text_of(call_tool(server, "scout", {"query": "checksum"}))
    assert "src/big.c\n30003:  return step_0001(i) + checksum;\nsrc/small.c" in answer
    assert "3=int verify(void)" in answer
    assert "note: scope lines not read in 1 file over 256 KiB" in answer
