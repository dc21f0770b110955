"""D46 end to end: `show FILE --line N` without a query, wherever the options stand, and
`show --line N --scope` on the files that can go wrong (no grammar, too large, binary,
past the end): an answer with a note, or the usual one-line error, never a traceback."""

import json
import shutil
from pathlib import Path

import pytest

from asrch.domain.limits import SCOPE_MAX_BYTES
from tests.contract.schemas import schema_errors
from tests.end_to_end.helpers import as_json
from tests.support.cli import Result, run_asrch

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scopes"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scope") / "tree"
    shutil.copytree(FIXTURE, root)
    (root / "big.py").write_text("def f():\n" + "    x = 1\n" * (SCOPE_MAX_BYTES // 10 + 1))
    (root / "blob.c").write_bytes(b"int f(void)\n{\n\x00\xff\xfe return 0;\n}\n" * 3)
    (root / "Makefile").write_text("all:\n\techo hi\n")
    return root


def show(tree: Path, *args: str) -> Result:
    return run_asrch(["show", *args], cwd=tree)


@pytest.mark.parametrize(
    "args",
    [
        ["src/pool.py", "--line", "13"],
        ["--line", "13", "src/pool.py"],
        ["--line=13", "src/pool.py", "--context", "2"],
        ["--line", "13", "--", "src/pool.py"],
    ],
)
def test_one_argument_is_the_file_wherever_the_options_stand(tree: Path, args: list[str]) -> None:
    alone = show(tree, *args)
    assert alone.status == 0, alone
    assert alone.stdout == show(tree, "src/pool.py", "--line", "13").stdout
    lines = alone.stdout.decode().splitlines()
    # The text repeats neither (D42); JSON says which argument was the file.
    answer = as_json(alone)
    assert (answer["file"], answer["query"]) == ("src/pool.py", None), answer
    assert any(ln.startswith("13-") for ln in lines)
    assert not any(":" in ln.split(" ", 1)[0] and ln[0].isdigit() for ln in lines), lines


def test_two_arguments_are_the_query_and_the_file(tree: Path) -> None:
    both = show(tree, "self", "src/pool.py", "--line", "13")
    assert both.status == 0 and b"13:        self.size = size\n" in both.stdout, both
    assert show(tree, "--line", "13", "self", "src/pool.py").stdout == both.stdout


@pytest.mark.parametrize(
    ("args", "got"),
    [
        (["src/pool.py"], "got 1 argument besides options: src/pool.py"),
        ([], "got no argument besides options"),
    ],
)
def test_without_line_the_query_is_needed(tree: Path, args: list[str], got: str) -> None:
    done = show(tree, *args)
    first = done.stderr.decode().splitlines()[0]
    assert (done.status, done.stdout) == (2, b"")
    assert first == (
        f"error: show needs QUERY and FILE, or FILE and --line N, {got}; see the usage below"
    )


@pytest.mark.parametrize("args", [["--scope", "src/pool.py"], ["src/pool.py", "--scope"]])
def test_scope_without_line_or_query_says_line_is_missing(tree: Path, args: list[str]) -> None:
    """Issue 40 item 9: 1 line that names what is missing, as the MCP tool does."""
    done = show(tree, *args)
    assert (done.status, done.stdout) == (2, b"")
    assert done.stderr.decode() == (
        "error: --scope needs --line N, the line whose unit to print "
        "(or QUERY before src/pool.py, to print each match's)\n"
    )


def test_three_arguments_are_one_too_many(tree: Path) -> None:
    done = show(tree, "a", "src/pool.py", "c", "--line", "2")
    assert done.status == 2
    assert done.stderr.decode().startswith("error: unexpected argument for show: c;")


@pytest.mark.parametrize(
    ("file", "line", "note"),
    [
        ("big.py", "2", f"note: no definition known: big.py is over {SCOPE_MAX_BYTES // 10**6} MB"),
        ("Makefile", "2", "note: no definition known: files without an extension are not parsed"),
        ("src/notes.txt", "1", "note: no definition known: .txt files are not parsed"),
    ],
)
def test_no_parse_is_the_context_window_and_one_note(
    tree: Path, file: str, line: str, note: str
) -> None:
    scoped = show(tree, file, "--line", line, "--scope")
    plain = show(tree, file, "--line", line)
    assert scoped.status == 0, scoped
    text = scoped.stdout.decode()
    assert text.startswith(plain.stdout.decode()), "the --context window, as without --scope"
    assert text.splitlines()[-1].startswith(note), text
    assert text.count("note:") == 1


def test_a_binary_file_is_answered_not_a_traceback(tree: Path) -> None:
    done = show(tree, "blob.c", "--line", "3", "--scope")
    assert done.status == 0, done
    assert b"Traceback" not in done.stderr and done.stderr == b""
    assert done.stdout.endswith(
        b"note: no definition known: blob.c holds a NUL byte (binary), not parsed\n"
    )


def test_a_parse_past_its_bounds_drops_no_match(tree: Path) -> None:
    """D51: each match of `show QUERY FILE --scope` prints, with its --context window and a
    note, when the parse stops at its bound (a 960 KB table on one line)."""
    table = "static const int big[] = {" + "1," * 480_000 + "0};\n"
    (tree / "table.c").write_text(table + "int h(void) {\n  return big[0];\n}\n")
    done = show(tree, "return", "table.c", "--scope", "--context", "0")
    assert done.status == 0, done
    lines = done.stdout.decode().splitlines()
    assert "3:  return big[0];" in lines
    assert lines[-1] == "note: no definition known: the parse cannot place line 3"
    assert "units[kind,lines]:" not in lines  # no unit: the window, and the note


def test_a_line_past_the_end_is_the_usual_error(tree: Path) -> None:
    done = show(tree, "src/table.c", "--line", "99", "--scope")
    assert (done.status, done.stdout) == (2, b"")
    assert done.stderr == (
        b"error: --line 99 is out of range; allowed: 1-24 (the last line of src/table.c)\n"
    )


def test_the_json_answer_carries_the_definition_and_no_query(tree: Path) -> None:
    done = show(tree, "--format", "json", "src/table.c", "--line", "20", "--scope")
    answer = json.loads(done.stdout)
    assert schema_errors(answer) == []
    assert answer["query"] is None and answer["window_matches"] is None
    assert answer["definition"] == {"start": 15, "end": 22} == answer["window"]
    assert answer["units"] == [{"kind": "definition", "start": 15, "end": 22}]
    printed = [ln["line"] for s in answer["snippets"] for ln in s["lines"]]
    assert printed == list(range(15, 23))
    assert not any(ln["match"] for s in answer["snippets"] for ln in s["lines"])
    none = json.loads(
        show(tree, "--format", "json", "src/pool.py", "--line", "8", "--scope").stdout
    )
    assert schema_errors(none) == [] and none["definition"] is None and none["units"] == []
    assert [n["kind"] for n in none["notices"]] == ["no_definition"]
