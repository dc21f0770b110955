"""pydantic sits at the boundary (the schemas, the MCP server): no command line path
imports it, text or `--format json` (D41)."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.imports import imported_modules

BOUNDARY = ("pydantic", "pydantic_core", "annotated_types", "typing_inspection", "jsonschema")


def _imported(tmp_path: Path, *args: str) -> set[str]:
    """Every module the command imports, as `python -X importtime` lists them."""
    (tmp_path / "a.py").write_text("def connect():\n    return 1\n")
    (tmp_path / "b.py").write_text("connect()\n")
    return imported_modules(tmp_path, *args)


COMMANDS = [
    ("scout", "connect", "."),
    ("survey", "--term", "connect", "--term", "return", "."),
    ("sample", "connect", "a.py"),
    ("show", "connect", "a.py"),
    ("show", "connect", "a.py", "--line", "1"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_the_text_path_imports_no_pydantic(tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = _imported(tmp_path, *args)
    assert "asrch.cli" in modules, "the listing is read correctly"
    leaked = sorted(m for m in modules if m.split(".")[0] in BOUNDARY or "contract" in m)
    assert not leaked, f"asrch {' '.join(args)} imports {leaked}"


def _as_json(args: tuple[str, ...]) -> tuple[str, ...]:
    return (args[0], "--format", "json", *args[1:])


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(_as_json(c)) for c in COMMANDS])
def test_the_json_path_imports_no_pydantic(tmp_path: Path, args: tuple[str, ...]) -> None:
    """D41: `--format json` writes each report by its answer's declaration with the
    stdlib; pydantic reads the same declarations (the schemas, the MCP boundary's check)
    in `asrch.contract.schema` only, never loaded on the command line's path."""
    modules = _imported(tmp_path, *_as_json(args))
    assert {"asrch.cli", "asrch.contract.build", "asrch.contract.render"} <= modules, (
        "the listing is read correctly, and the JSON path was taken"
    )
    leaked = sorted(
        m for m in modules if m.split(".")[0] in BOUNDARY or m == "asrch.contract.schema"
    )
    assert not leaked, f"asrch {' '.join(_as_json(args))} imports {leaked}"


# --- the MCP SDK (D29): only `asrch mcp` imports it -----------------------------------

MCP_BOUNDARY = ("mcp", "mcp_types", "anyio", "starlette", "httpx", "httpx2")


@pytest.mark.parametrize(
    "args",
    [*COMMANDS, ("scout", "--format", "json", "connect", ".")],
    ids=[" ".join(c) for c in [*COMMANDS, ("scout", "--format", "json", "connect", ".")]],
)
def test_the_command_line_never_imports_the_mcp_sdk(tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = _imported(tmp_path, *args)
    assert "asrch.cli" in modules, "the listing is read correctly"
    leaked = sorted(
        m for m in modules if m.split(".")[0] in MCP_BOUNDARY or m.startswith("asrch.server")
    )
    assert not leaked, f"asrch {' '.join(args)} imports {leaked}"


@pytest.mark.parametrize("missing", ["mcp", "anyio", "starlette"])
def test_asrch_mcp_without_a_piece_of_the_extra_says_how_to_install_it(
    tmp_path: Path, missing: str
) -> None:
    # As if one package of the extra were not installed: a None entry in sys.modules
    # makes its import fail with ModuleNotFoundError, as a missing package does. The
    # server imports anyio before mcp, so each piece must be caught, not only `mcp`.
    hide = (
        f"import sys; sys.modules[{missing!r}] = None; from asrch.entry import main; "
        "raise SystemExit(main(['mcp']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    checkout = Path(__file__).resolve().parents[2]
    # This suite's asrch is an editable install of the checkout (pip install -e).
    assert done.stderr == (
        f"error: asrch mcp needs the mcp extra, which is not installed (no module {missing}); "
        f"install it with: {sys.executable} -m pip install -e '{checkout}[mcp]'\n"
    )


# --- start-up: what only some paths need is imported on those paths -----------------


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_the_text_path_builds_no_help(tmp_path: Path, args: tuple[str, ...]) -> None:
    """The help texts are built only for `--help` or a usage error (docs/performance.md,
    *Start-up*)."""
    modules = _imported(tmp_path, *args)
    assert "asrch.cli" in modules, "the listing is read correctly"
    assert "asrch.cli.help" not in modules


def test_the_start_up_path_imports_no_json_and_no_textwrap(tmp_path: Path) -> None:
    """A scout that lists nothing (one rg `--count`, the bench's start-up figure) needs
    neither `json` (rg's `--json` events, the tools' spelling, `--format json`) nor
    `textwrap` (the help texts')."""
    modules = _imported(tmp_path, "scout", "-i", "zqxjv-absent", ".")
    assert "asrch.cli" in modules, "the listing is read correctly"
    leaked = sorted(m for m in modules if m in {"json", "textwrap"} or m.startswith("json."))
    assert not leaked, f"asrch scout -i zqxjv-absent . imports {leaked}"


# --- the index's watcher (D58): only a server keeps a root fresh ---------------------


def test_an_indexed_search_on_the_command_line_loads_no_watcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """inotify (libc found by `ctypes.util`) serves `asrch mcp` between calls; a command
    line's search under an index checks freshness by one walk and never loads the
    watcher (`ctypes` itself is the child's pdeathsig, engine/process.py)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "a.py").write_text("def connect():\n    return 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "asrch", "index", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    modules = imported_modules(tmp_path, "scout", "--format", "json", "connect", ".")
    assert "asrch.engine.index.candidates" in modules, "the index was asked"
    leaked = sorted(m for m in modules if m in ("ctypes.util", "asrch.engine.watch"))
    assert not leaked, f"an indexed scout imports {leaked}"


def test_a_search_no_index_covers_loads_no_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once `asrch index` has run anywhere, every search asks whether an index covers
    its directory; where none does, it answers from the index's file names alone: no
    sqlite3, no store (4-5 ms of a start-up of ~20, docs/performance.md)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    indexed, searched = tmp_path / "indexed", tmp_path / "searched"
    for tree in (indexed, searched):
        tree.mkdir()
        (tree / "a.py").write_text("def connect():\n    return 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "asrch", "index", "."],
        cwd=indexed,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    modules = imported_modules(searched, "scout", "-i", "zqxjv-absent", ".")
    assert "asrch.engine.index.location" in modules, "the index was looked for"
    leaked = sorted(
        m
        for m in modules
        if m.split(".")[0] == "sqlite3"
        or (
            m.startswith("asrch.engine.index.")
            and m.rsplit(".", 1)[1] not in ("location", "candidates")
        )
    )
    assert not leaked, f"a search no index covers imports {leaked}"
    under_index = imported_modules(indexed, "scout", "-i", "zqxjv-absent", ".")
    assert {"sqlite3", "asrch.engine.index.store"} <= under_index, "an index covers it"


@pytest.mark.parametrize(("args", "built"), [((), 0), (("--format", "json"), 1)])
def test_the_json_escapes_are_built_for_a_json_answer_only(
    tmp_path: Path, args: tuple[str, ...], built: int
) -> None:
    """The table of the code points a JSON answer escapes (4,200 of them) is built on
    the first JSON answer, not at import: ~2 ms of every text start-up."""
    line = ["scout", *args, "-i", "zqxjv-absent", "."]
    code = (
        "import sys; from asrch.cli import main; "
        f"status = main({line!r}, stdout=open('/dev/null', 'w')); "
        "from asrch.domain.text_safety import json_escapes; "
        "print(status, json_escapes.cache_info().currsize)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == f"0 {built}\n", done.stderr[-2000:]
