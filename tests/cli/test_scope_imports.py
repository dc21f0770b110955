"""D31: tree-sitter is loaded only when a line of a supported file is printed.

The count-only answers (scout, survey, a refused show) and a show or sample that prints
nothing, or prints only lines of a file without a grammar, keep today's start-up.
"""

from pathlib import Path

import pytest

from tests.support.imports import imported_modules


def _parser_modules(modules: set[str]) -> list[str]:
    """tree-sitter and any grammar wheel (`tree_sitter_c`, …)."""
    return sorted(m for m in modules if m.split(".")[0].startswith("tree_sitter"))


def _imported(tmp_path: Path, *args: str) -> set[str]:
    (tmp_path / "a.py").write_text("def connect():\n    return 1\n")
    (tmp_path / "b.py").write_text("connect()\n")
    (tmp_path / "notes.txt").write_text("def connect():\n    return 1\n")
    (tmp_path / "many.py").write_text("connect()\n" * 30)
    return imported_modules(tmp_path, *args, statuses=(0, 1, 3))


COUNT_ONLY = [
    ("scout", "connect", "."),
    ("scout", "--format", "json", "connect", "."),
    ("survey", "--term", "connect", "--term", "return", "."),
    ("show", "connect", "many.py"),
    ("show", "absent", "a.py"),
    ("sample", "absent", "a.py"),
]


@pytest.mark.parametrize("args", COUNT_ONLY, ids=[" ".join(c) for c in COUNT_ONLY])
def test_answers_that_print_no_line_never_load_the_parser(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    modules = _imported(tmp_path, *args)
    assert "asrch.cli" in modules, "the listing is read correctly"
    leaked = _parser_modules(modules)
    if args[0] in ("scout", "survey"):
        leaked += sorted(m for m in modules if m == "asrch.engine.scopes")
    assert not leaked, f"asrch {' '.join(args)} imports {leaked}"


@pytest.mark.parametrize(
    "args", [("show", "return", "notes.txt"), ("sample", "return", "notes.txt")]
)
def test_a_file_without_a_grammar_never_loads_the_parser(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    modules = _imported(tmp_path, *args)
    assert "asrch.cli" in modules
    assert not _parser_modules(modules)


@pytest.mark.parametrize(
    "args",
    [
        ("show", "return", "a.py"),
        ("show", "x", "a.py", "--line", "2"),
        ("sample", "return", "a.py"),
    ],
)
def test_a_printed_line_of_a_python_file_loads_its_grammar(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # A package's own line can be missing from the listing at exit; its binding's is not.
    grammars = {m.split(".")[0] for m in _parser_modules(_imported(tmp_path, *args))}
    assert grammars == {"tree_sitter", "tree_sitter_python"}


def test_a_grammar_is_loaded_from_its_binding_alone(tmp_path: Path) -> None:
    # The wheel's package imports importlib.resources for query files asrch never reads
    # (≈4 ms of the call, issue 23): only its compiled binding is imported.
    modules = _imported(tmp_path, "show", "x", "a.py", "--line", "2")
    assert "tree_sitter_python._binding" in modules
    assert "tree_sitter_python" not in modules
    assert "importlib.resources" not in modules
