"""Every tool through the SDK's in-memory client: the text is the command line's text, the
structured content (a `structured` server's, D47) its --format json object; every error
is a tool error with the command line's one-line message."""

from pathlib import Path
from typing import Any

import pytest

from asrch.engine.mock_rg import MockRg, Reply
from asrch.server.app import build_server
from tests.server.helpers import call_tool, call_tools, cli_json, run_cli, text_of, tool_text
from tests.support.cli import run_asrch

# (tool, arguments, the same question on the command line)
ANSWERS: list[tuple[str, dict[str, Any], list[str]]] = [
    (
        "survey",
        {"terms": ["connect", "retry"], "paths": ["src", "docs"]},
        ["survey", "--term", "connect", "--term", "retry", "src", "docs"],
    ),
    ("survey", {"terms": ["id"], "mode": "identifier"}, ["survey", "--identifier", "--term", "id"]),
    (
        "survey",
        {"terms": ["connect"], "paths": ["src/", "./src"]},
        ["survey", "--term", "connect", "src/", "./src"],
    ),
    ("scout", {"query": "connect"}, ["scout", "connect"]),
    ("scout", {"query": "connect", "path": "src/net"}, ["scout", "connect", "src/net"]),
    ("scout", {"query": "pool", "mode": "word"}, ["scout", "--word", "pool"]),
    (
        "scout",
        {"query": "re.ry", "path": "src", "mode": "regex"},
        ["scout", "--regex", "re.ry", "src"],
    ),
    ("scout", {"query": "-e"}, ["scout", "--", "-e"]),
    ("scout", {"query": "nothing-matches-this"}, ["scout", "nothing-matches-this"]),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt"},
        ["sample", "hit", "samples/clusters.txt"],
    ),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "clusters": 1, "page": 2},
        ["sample", "hit", "samples/clusters.txt", "--clusters", "1", "--page", "2"],
    ),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "page": 99},
        ["sample", "hit", "samples/clusters.txt", "--page", "99"],
    ),
    (
        "show",
        {"query": "connect", "file": "src/net/client.py"},
        ["show", "connect", "src/net/client.py"],
    ),
    (
        "show",
        {"query": "connect", "file": "src/net/client.py", "line": 3, "context": 1},
        ["show", "connect", "src/net/client.py", "--line", "3", "--context", "1"],
    ),
    (
        "show",
        {"query": "item", "file": "samples/twentyone.txt"},
        ["show", "item", "samples/twentyone.txt"],
    ),
    (
        "show",
        {"query": "of", "file": "samples/twentyone.txt", "mode": "word", "context": 0},
        ["show", "--word", "of", "samples/twentyone.txt", "--context", "0"],
    ),
    # The 800-byte line cap, bytes that are not UTF-8, control characters, a name to quote.
    (
        "show",
        {"query": "beacon", "file": "samples/long_line.txt"},
        ["show", "beacon", "samples/long_line.txt"],
    ),
    ("show", {"query": "caf", "file": "samples/latin1.txt"}, ["show", "caf", "samples/latin1.txt"]),
    (
        "show",
        {"query": "ctrl", "file": "samples/control.txt"},
        ["show", "ctrl", "samples/control.txt"],
    ),
    ("scout", {"query": "release", "path": "docs"}, ["scout", "release", "docs"]),
    # D30: type, glob, ignore_case are the command line's --type, --glob, -i.
    ("scout", {"query": "connect", "type": ["py"]}, ["scout", "--type", "py", "connect"]),
    (
        "scout",
        {"query": "connect", "glob": ["!tests/**", "*.py"]},
        ["scout", "--glob", "!tests/**", "--glob", "*.py", "connect"],
    ),
    ("scout", {"query": "CONNECT", "ignore_case": True}, ["scout", "-i", "CONNECT"]),
    (
        "survey",
        {"terms": ["Connect", "RETRY"], "ignore_case": True, "type": ["py", "md"]},
        ["survey", "-i", "--type", "py", "--type", "md", "--term", "Connect", "--term", "RETRY"],
    ),
    (
        "sample",
        {"query": "HIT", "file": "samples/clusters.txt", "ignore_case": True, "glob": ["*.txt"]},
        ["sample", "-i", "--glob", "*.txt", "HIT", "samples/clusters.txt"],
    ),
    (
        "show",
        {"query": "Connect", "file": "src/net/pool.py", "ignore_case": True, "type": ["py"]},
        ["show", "-i", "--type", "py", "Connect", "src/net/pool.py"],
    ),
    # D52: def is --def, read from the first root (the parse reads where rg searched).
    ("scout", {"query": "connect", "def": True}, ["scout", "--def", "connect"]),
    (
        "show",
        {"query": "take", "file": "src/net/pool.py", "def": True},
        ["show", "--def", "take", "src/net/pool.py"],
    ),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"), ANSWERS, ids=[" ".join(a[2]) for a in ANSWERS]
)
def test_a_tool_answers_as_the_command_line_does(
    corpus: Path, tool: str, arguments: dict[str, Any], argv: list[str]
) -> None:
    result = call_tool(build_server([str(corpus)]), tool, arguments)
    shell = run_cli(corpus, *argv)
    assert result.is_error is False
    assert shell.status in (0, 3), shell.err
    assert text_of(result) == tool_text(shell.out)
    # D47: the text alone, unless the server is structured; then the JSON beside it.
    assert result.structured_content is None
    structured = call_tool(build_server([str(corpus)], structured=True), tool, arguments)
    assert text_of(structured) == text_of(result)
    assert structured.structured_content == cli_json(corpus, argv)


def test_a_refused_show_is_an_answer_not_an_error(corpus: Path) -> None:
    result = call_tool(
        build_server([str(corpus)], structured=True),
        "show",
        {"query": "item", "file": "samples/twentyone.txt"},
    )
    assert result.is_error is False
    assert result.structured_content is not None
    assert result.structured_content["refused"] is True
    assert "sample" in text_of(result)


def test_the_answer_is_relative_to_the_first_root_whatever_the_working_directory(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = call_tool(build_server([str(corpus)]), "scout", {"query": "connect", "path": "src"})
    assert text_of(result) == tool_text(run_cli(corpus, "scout", "connect", "src").out)


# (tool, arguments, the same mistake on the command line)
INPUT_ERRORS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("scout", {"query": ""}, ["scout", ""]),
    ("scout", {"query": "connect", "path": ""}, ["scout", "connect", ""]),
    ("scout", {"query": "connect", "path": "nope"}, ["scout", "connect", "nope"]),
    ("scout", {"query": "a|b", "mode": "regex"}, ["scout", "--regex", "a|b"]),
    ("scout", {"query": "a+|b", "mode": "regex"}, ["scout", "--regex", "a+|b"]),
    ("scout", {"query": "(", "mode": "regex"}, ["scout", "--regex", "("]),
    ("survey", {"terms": []}, ["survey"]),
    ("survey", {"terms": [""]}, ["survey", "--term", ""]),
    (
        "survey",
        {"terms": [f"t{i}" for i in range(13)]},
        ["survey", *[f"--term=t{i}" for i in range(13)]],
    ),
    (
        "survey",
        {"terms": ["x"], "paths": ["nope", "gone"]},
        ["survey", "--term", "x", "nope", "gone"],
    ),
    ("sample", {"query": "hit", "file": "samples"}, ["sample", "hit", "samples"]),
    ("sample", {"query": "hit", "file": "nope.txt"}, ["sample", "hit", "nope.txt"]),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "clusters": 6},
        ["sample", "hit", "samples/clusters.txt", "--clusters", "6"],
    ),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "clusters": 0},
        ["sample", "hit", "samples/clusters.txt", "--clusters", "0"],
    ),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "page": 0},
        ["sample", "hit", "samples/clusters.txt", "--page", "0"],
    ),
    (
        "show",
        {"query": "x", "file": "README.md", "context": 6},
        ["show", "x", "README.md", "--context", "6"],
    ),
    (
        "show",
        {"query": "x", "file": "README.md", "line": 9999},
        ["show", "x", "README.md", "--line", "9999"],
    ),
    (
        "show",
        {"query": "x", "file": "README.md", "line": 0},
        ["show", "x", "README.md", "--line", "0"],
    ),
    # Issue 39, item 10: the tool's `file`, not the command line's FILE.
    ("sample", {"query": "hit", "file": ""}, ["sample", "hit", ""]),
    ("show", {"query": "x", "file": ""}, ["show", "x", ""]),
    ("scout", {"query": "x", "type": ["pyhton"]}, ["scout", "--type", "pyhton", "x"]),
    ("scout", {"query": "x", "glob": ["[a"]}, ["scout", "--glob", "[a", "x"]),
    (
        "sample",
        {"query": "hit", "file": "samples/clusters.txt", "type": ["py"]},
        ["sample", "--type", "py", "hit", "samples/clusters.txt"],
    ),
    (
        "show",
        {"query": "x", "file": "README.md", "glob": ["!*.md"]},
        ["show", "--glob", "!*.md", "x", "README.md"],
    ),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"), INPUT_ERRORS, ids=[" ".join(a[2])[:60] for a in INPUT_ERRORS]
)
def test_an_input_error_is_a_tool_error_with_the_command_lines_message(
    corpus: Path, tool: str, arguments: dict[str, Any], argv: list[str]
) -> None:
    result = call_tool(build_server([str(corpus)]), tool, arguments)
    shell = run_cli(corpus, *argv)
    assert shell.status == 2
    assert result.is_error is True
    assert result.structured_content is None
    # The command line's message, its arguments named as the tool names them (D37).
    said = " ".join(argv)
    assert text_of(result) == TOOL_WORDS.get(said, shell.err), said
    # One line; a refusal that names the call answering it, a `next:` line after (D54).
    assert text_of(result).count("\n") == 1 + text_of(result).count("\nnext: ")


TOOL_WORDS = {
    "scout --regex a|b": "error: mode regex query \"a|b\" contains an unescaped '|'; its 2 "
    "alternatives are fixed strings: survey counts them in one call, one term in terms each "
    "(path:LINE for a term with at most 3 lines in a path); a literal | is written \\|\n"
    'next: survey(terms=["a", "b"])\n',
    "scout --regex a+|b": "error: mode regex query \"a+|b\" contains an unescaped '|'; compare "
    'alternatives with survey(terms=["A", "B"]); a literal | is written \\|\n',
    "scout --regex (": 'error: invalid mode regex query "(": unclosed group\n',
    "survey": 'error: survey needs at least one term in terms (1-12), e.g. terms: ["connect"]\n',
    "survey --term ": "error: empty terms; give a non-empty search term\n",
    "survey " + " ".join(f"--term=t{i}" for i in range(13)): (
        "error: terms has 13 items; at most 12 are allowed\n"
    ),
    "sample hit samples/clusters.txt --clusters 6": (
        "error: clusters 6 is out of range; allowed: 1-5\n"
    ),
    "sample hit samples/clusters.txt --clusters 0": (
        "error: clusters 0 is out of range; allowed: 1-5\n"
    ),
    "sample hit samples/clusters.txt --page 0": (
        "error: page 0 is out of range; allowed: 1 or more\n"
    ),
    "sample hit ": "error: empty file; give one regular file\n",
    "show x ": "error: empty file; give one regular file\n",
    "show x README.md --context 6": "error: context 6 is out of range; allowed: 0-5\n",
    "show x README.md --line 9999": (
        "error: line 9999 is out of range; allowed: 1-4 (the last line of README.md)\n"
    ),
    "show x README.md --line 0": (
        "error: line 0 is out of range; allowed: 1 to the file's last line\n"
    ),
    "scout --type pyhton x": "error: unknown type pyhton; close names: python, cython; "
    "type takes one of ripgrep's 206 type names (rg --type-list), or narrow with glob "
    "instead\n",
    "scout --glob [a x": 'error: glob "[a" is not a valid glob: unclosed character class; '
    "missing ']'\n",
    "sample --type py hit samples/clusters.txt": "error: samples/clusters.txt is excluded by "
    "type py; name a file the filters keep, or drop the filter\n",
    "show --glob !*.md x README.md": 'error: README.md is excluded by glob "!*.md"; name a '
    "file the filters keep, or drop the filter\n",
}
"""The answers that name an argument: as the tool names it, where the command line
names its flag."""


def test_an_rg_that_is_missing_is_a_tool_error_with_the_command_lines_message(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = str(tmp_path / "missing-rg")
    shell = run_cli(corpus, "scout", "connect", env={"ASRCH_RG": missing})
    monkeypatch.setenv("ASRCH_RG", missing)
    # The server resolves rg as the command line does, on its first call.
    result = call_tool(build_server([str(corpus)]), "scout", {"query": "connect"})
    assert shell.status == 4
    assert result.is_error is True
    assert text_of(result) == shell.err


@pytest.mark.parametrize(
    "reply",
    [Reply(stderr=b"rg: broken\n", status=3), Reply(stdout=b"garbage\n")],
    ids=["fails", "garbage"],
)
def test_an_engine_failure_is_a_tool_error_with_the_command_lines_message(
    corpus: Path, reply: Reply
) -> None:
    rg = MockRg(lambda _: reply)
    shell = run_asrch(["scout", "connect"], cwd=corpus, transport=rg)
    result = call_tool(build_server([str(corpus)], transport=rg), "scout", {"query": "connect"})
    assert shell.status == 4
    assert result.is_error is True
    assert text_of(result) == shell.err


def test_an_argument_of_the_wrong_type_is_a_tool_error_and_the_server_goes_on(corpus: Path) -> None:
    # (tool, arguments, the argument the SDK's own validation names)
    bad: list[tuple[str, dict[str, Any], str]] = [
        ("sample", {"query": "hit", "file": "samples/clusters.txt", "clusters": "3"}, "clusters"),
        ("sample", {"query": "hit", "file": "samples/clusters.txt", "page": 1.5}, "page"),
        ("show", {"query": "x", "file": "README.md", "line": True}, "line"),
        ("scout", {"query": 3}, "query"),
        ("scout", {"path": "src"}, "query"),
        ("scout", {"query": "x", "mode": "fuzzy"}, "mode"),
        ("survey", {"terms": ["x"], "mode": "regex"}, "mode"),
        ("survey", {"terms": ["x"] * 13}, "terms"),
        ("scout", {"query": "x", "type": [1]}, "type"),
        ("scout", {"query": "x", "paht": "src"}, "paht"),
    ]
    server = build_server([str(corpus)], structured=True)
    calls = [(tool, arguments) for tool, arguments, _ in bad]
    *refused, answered = call_tools(server, *calls, ("scout", {"query": "connect"}))
    for (tool, arguments, named), result in zip(bad, refused, strict=True):
        assert result.is_error is True, (tool, arguments)
        assert named in text_of(result), (tool, arguments)
    assert answered.is_error is False
    assert answered.structured_content is not None
    assert answered.structured_content["matches"] == 22


def test_a_bug_is_one_line_and_the_server_goes_on(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The safety net of D20: a renderer that raises is a bug in asrch, answered as the
    command line words one (`error: internal error: …`), and the next call is answered."""

    def broken(report: object, spelling: object) -> str:
        raise RuntimeError("renderer broke")

    server = build_server([str(corpus)])
    monkeypatch.setattr("asrch.render.scout.render_scout", broken)
    bug, fine = call_tools(
        server,
        ("scout", {"query": "connect"}),
        ("sample", {"query": "hit", "file": "samples/clusters.txt"}),
    )
    assert bug.is_error is True
    assert text_of(bug) == 'error: internal error: RuntimeError: "renderer broke"\n'
    assert fine.is_error is False


def test_a_nul_character_is_an_input_error_not_a_crash(corpus: Path) -> None:
    """JSON can carry U+0000, which no command line can: refused in one line."""
    nul: list[tuple[str, dict[str, Any], str]] = [
        ("scout", {"query": "con\x00nect"}, "error: query "),
        ("scout", {"query": "connect", "path": "src\x00"}, "error: path "),
        ("survey", {"terms": ["a\x00"]}, "error: terms "),
        ("sample", {"query": "hit", "file": "samples/clusters.txt\x00"}, "error: file "),
        ("show", {"query": "\x00", "file": "README.md"}, "error: query "),
        ("scout", {"query": "x", "glob": ["*\x00"]}, "error: glob "),
        ("scout", {"query": "x", "type": ["p\x00y"]}, "error: type "),
    ]
    results = call_tools(build_server([str(corpus)]), *[(t, a) for t, a, _ in nul])
    for (tool, arguments, start), result in zip(nul, results, strict=True):
        assert result.is_error is True, (tool, arguments)
        message = text_of(result)
        assert message.startswith(start) and "holds a NUL character" in message, message
        assert "\\u0000" in message and message.count("\n") == 1


def test_scope_lines_are_read_from_the_first_root_whatever_the_working_directory(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # D31: the parse reads the file where the search did, not where the server started.
    monkeypatch.chdir(tmp_path)
    arguments = {"query": "self", "file": "src/net/pool.py", "line": 6, "context": 1}
    result = call_tool(build_server([str(corpus)], structured=True), "show", arguments)
    argv = ["show", "self", "src/net/pool.py", "--line", "6", "--context", "1"]
    assert text_of(result) == tool_text(run_cli(corpus, *argv).out)
    assert "4=class Pool:" in text_of(result).splitlines()
    assert result.structured_content is not None
    (line,) = [
        ln for s in result.structured_content["snippets"] for ln in s["lines"] if ln["line"] == 6
    ]
    assert line["scope"] == [
        {"line": 4, "text": "class Pool:"},
        {"line": 5, "text": "    def __init__(self, size):"},
    ]


def test_one_string_is_taken_where_a_list_is(corpus: Path) -> None:
    """D37: `"type": "py"` is `["py"]`; `"terms": "connect"` one term."""
    one, listed = call_tools(
        build_server([str(corpus)], structured=True),
        ("survey", {"terms": "connect", "paths": "src", "type": "py", "glob": "!tests/**"}),
        ("survey", {"terms": ["connect"], "paths": ["src"], "type": ["py"], "glob": ["!tests/**"]}),
    )
    assert one.is_error is False, text_of(one)
    assert text_of(one) == text_of(listed)
    assert one.structured_content == listed.structured_content


def test_show_takes_no_query_when_line_is_given(corpus: Path) -> None:
    """D46: `query` is optional for show with `line`; without both, refused in the
    tool's words. `scope`: the definition around the line, as the command line prints it."""
    server = build_server([str(corpus)])
    bare, scoped, missing = call_tools(
        server,
        ("show", {"file": "samples/clusters.txt", "line": 16, "context": 1}),
        ("show", {"file": "src/net/pool.py", "line": 6, "scope": True}),
        ("show", {"file": "samples/clusters.txt"}),
    )
    argv = ["show", "samples/clusters.txt", "--line", "16", "--context", "1"]
    assert text_of(bare) == tool_text(run_cli(corpus, *argv).out)
    assert "16-line 16: hit the target\n" in text_of(bare)
    argv = ["show", "src/net/pool.py", "--line", "6", "--scope"]
    assert text_of(scoped) == tool_text(run_cli(corpus, *argv).out)
    assert missing.is_error is True
    assert text_of(missing) == "error: show needs query without line; give query\n"


def test_a_zero_answer_does_not_send_a_tool_caller_to_the_help(corpus: Path) -> None:
    """spec/mcp, Answers: the command line's zero note points to `asrch --help`; a tool
    caller cannot run it, so its note ends at what was not searched."""
    text = text_of(call_tool(build_server([str(corpus)]), "scout", {"query": "zz-no-such"}))
    shell = run_cli(corpus, "scout", "zz-no-such").out
    assert "(see asrch --help)" in shell
    note = next(line for line in text.splitlines() if line.startswith("note: "))
    assert note.startswith("note: no matches; not searched: ")
    assert "--help" not in text
