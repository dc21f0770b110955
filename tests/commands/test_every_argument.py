"""Every argument of the command table does something (D49): each command run on the
fixture corpus with and without each of its arguments gives a different answer.

An option added to `COMMON` that parses, shows in the help and the tool schemas but
reaches no search (its `update` missing, or the engine ignoring the field it sets)
fails here: the table's arguments are the list walked, and each must have its case.
"""

import shutil
from pathlib import Path
from typing import Any

import pytest

from asrch.commands.table import COMMANDS, search_options
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions
from tests.golden.corpora_sample_show import SETTINGS_RS
from tests.support.cli import Result, run_asrch

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"

# For each command and argument: the command line without it, and with it (or with
# another value where it must be given). Paths are relative to the corpus.
CASES: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "survey": {
        "term": (["--term", "retry"], ["--term", "retry", "--term", "pool"]),
        "paths": (["--term", "retry"], ["--term", "retry", "src/util"]),
        "ignore_case": (["--term", "Retry"], ["-i", "--term", "Retry"]),
        "type": (["--term", "connect", "src"], ["--type", "js", "--term", "connect", "src"]),
        "glob": (["--term", "connect", "src"], ["--glob", "*.py", "--term", "connect", "src"]),
        "format": (["--term", "retry"], ["--format", "json", "--term", "retry"]),
        "word": (["--term", "retr", "src"], ["--word", "--term", "retr", "src"]),
        "identifier": (["--term", "retr", "src"], ["--identifier", "--term", "retr", "src"]),
        # survey's --regex is a refusal: it changes the answer to an error.
        "regex": (["--term", "retry", "src"], ["--regex", "--term", "retry", "src"]),
        "max_filesize": (
            ["--term", "line", "samples"],
            ["--max-filesize", "1K", "--term", "line", "samples"],
        ),
    },
    "scout": {
        "query": (["retry"], ["pool"]),
        "path": (["connect"], ["connect", "src"]),
        "ignore_case": (["Retry", "src"], ["-i", "Retry", "src"]),
        "type": (["connect", "src"], ["--type", "js", "connect", "src"]),
        "glob": (["connect", "src"], ["--glob", "*.py", "connect", "src"]),
        "format": (["retry", "src"], ["--format", "json", "retry", "src"]),
        "word": (["retr", "src"], ["--word", "retr", "src"]),
        "identifier": (["retr", "src"], ["--identifier", "retr", "src"]),
        "regex": (["re.ry", "src"], ["--regex", "re.ry", "src"]),
        "definitions": (["connect", "src"], ["--def", "connect", "src"]),
        "max_filesize": (["line", "samples"], ["--max-filesize", "1K", "line", "samples"]),
    },
}
_ONE_FILE: dict[str, tuple[list[str], list[str]]] = {
    "query": (["connect", "src/net/pool.py"], ["pool", "src/net/pool.py"]),
    "file": (["connect", "src/net/pool.py"], ["connect", "src/net/client.py"]),
    "ignore_case": (["Connect", "src/net/pool.py"], ["-i", "Connect", "src/net/pool.py"]),
    # A filter that drops the named file refuses it; one that keeps it changes nothing
    # a file search could show.
    "type": (["connect", "src/net/pool.py"], ["--type", "js", "connect", "src/net/pool.py"]),
    "glob": (["connect", "src/net/pool.py"], ["--glob", "*.js", "connect", "src/net/pool.py"]),
    "format": (["connect", "src/net/pool.py"], ["--format", "json", "connect", "src/net/pool.py"]),
    "word": (["connec", "src/net/pool.py"], ["--word", "connec", "src/net/pool.py"]),
    "identifier": (["connec", "src/net/pool.py"], ["--identifier", "connec", "src/net/pool.py"]),
    "regex": (["conn.ct", "src/net/pool.py"], ["--regex", "conn.ct", "src/net/pool.py"]),
}
CASES["sample"] = {
    **_ONE_FILE,
    "clusters": (
        ["hit", "samples/clusters.txt"],
        ["hit", "samples/clusters.txt", "--clusters", "1"],
    ),
    "page": (["hit", "samples/clusters.txt"], ["hit", "samples/clusters.txt", "--page", "2"]),
}
CASES["show"] = {
    **_ONE_FILE,
    "line": (["connect", "src/net/pool.py"], ["connect", "src/net/pool.py", "--line", "1"]),
    "context": (["connect", "src/net/pool.py"], ["connect", "src/net/pool.py", "--context", "0"]),
    # D46: the definition around line 6, not its --context window.
    "scope": (["src/net/pool.py", "--line", "6"], ["src/net/pool.py", "--line", "6", "--scope"]),
    "definitions": (["connect", "src/net/pool.py"], ["--def", "connect", "src/net/pool.py"]),
    # D53: the copy's rust/settings.rs (written by the fixture) has matches in its tests.
    "folded": (
        ["DEFAULT_SHELL", "rust/settings.rs"],
        ["--folded", "DEFAULT_SHELL", "rust/settings.rs"],
    ),
}

# What a tool call alone takes (the command line spells it otherwise): its value, and
# the search options it must give.
TOOL_ONLY: dict[str, tuple[Any, SearchOptions]] = {
    "mode": ("word", SearchOptions(mode=Mode.WORD)),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy outside any git repository, as the spec's examples run (D24)."""
    root = tmp_path_factory.mktemp("every_argument") / "corpus"
    shutil.copytree(CORPUS, root)
    # D53's case, outside src/ (the glob cases' idle-filter notes count src/'s files)
    (root / "rust").mkdir()
    (root / "rust" / "settings.rs").write_text(SETTINGS_RS, encoding="utf-8")
    return root


CALLS = [
    (command.name, argument.name)
    for command in COMMANDS.values()
    for argument in command.arguments
    if argument.cli is not None
]


def _answer(corpus: Path, command: str, words: list[str]) -> Result:
    return run_asrch([command, *words], cwd=corpus)


@pytest.mark.parametrize(("command", "name"), CALLS, ids=[f"{c} {n}" for c, n in CALLS])
def test_each_argument_changes_the_answer(corpus: Path, command: str, name: str) -> None:
    assert name in CASES[command], f"{command} {name}: add its case to CASES"
    without, with_it = CASES[command][name]
    before = _answer(corpus, command, without)
    after = _answer(corpus, command, with_it)
    assert before.status == 0, before
    assert (after.stdout, after.stderr, after.status) != (
        before.stdout,
        before.stderr,
        before.status,
    ), f"asrch {command} {' '.join(with_it)} answers as without {name}"


TOOL_CALLS = [
    (command.name, argument.name)
    for command in COMMANDS.values()
    for argument in command.arguments
    if argument.cli is None
]


@pytest.mark.parametrize(("command", "name"), TOOL_CALLS, ids=[f"{c} {n}" for c, n in TOOL_CALLS])
def test_each_tool_argument_reaches_the_search(corpus: Path, command: str, name: str) -> None:
    """An argument only a tool takes (`mode`): its value reaches the search options, and
    a search with it answers differently."""
    assert name in TOOL_ONLY, f"{command} {name}: add its case to TOOL_ONLY"
    value, expected = TOOL_ONLY[name]
    table = COMMANDS[command]
    assert search_options(table, {name: value}) == expected
    assert search_options(table, {}) != expected


def test_every_search_argument_says_how_it_reaches_the_options() -> None:
    for command in COMMANDS.values():
        for argument in command.arguments:
            assert (argument.role == "search") == (argument.update is not None), (
                f"{command.name} {argument.name}"
            )


def test_the_table_walk_knows_each_case() -> None:
    """No case here for an argument the table no longer has."""
    for command, cases in CASES.items():
        names = {a.name for a in COMMANDS[command].arguments if a.cli is not None}
        assert set(cases) == names, command
