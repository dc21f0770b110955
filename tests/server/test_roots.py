"""The server searches only inside its roots: every way out is refused before rg runs.

A symlink met while rg walks a directory is not followed (rg's default, D21), so a link
inside a searched directory that leads out needs no refusal: it is simply not searched.
"""

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from asrch.engine.binary import resolve_rg
from asrch.engine.mock_rg import MockRg, recorded
from asrch.server.app import build_server
from asrch.server.roots import Roots
from tests.server.helpers import call_tool, call_tools, run_cli, text_of, tool_text, wait_for

SECRET = "zebra_secret"


@pytest.fixture
def layout(corpus: Path, tmp_path: Path) -> dict[str, Path]:
    """The corpus as the first root, a second root, and a directory outside both,
    with links out of the root and one inside a searched directory."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(f"{SECRET} = 1\n")
    library = tmp_path / "library"
    library.mkdir()
    (library / "lib.py").write_text("def connect(): pass\n")
    (corpus / "out_dir").symlink_to(outside)
    (corpus / "out_file.py").symlink_to(outside / "secret.py")
    (corpus / "src" / "inner_link").symlink_to(outside)
    (corpus / "in_link").symlink_to(corpus / "src")
    return {"root": corpus, "library": library, "outside": outside}


def _escapes(layout: dict[str, Path]) -> list[tuple[str, dict[str, Any]]]:
    outside = str(layout["outside"])
    return [
        ("scout", {"query": SECRET, "path": ".."}),
        ("scout", {"query": SECRET, "path": "../outside"}),
        ("scout", {"query": SECRET, "path": "src/../../outside"}),
        ("scout", {"query": SECRET, "path": outside}),
        ("scout", {"query": SECRET, "path": "/"}),
        ("scout", {"query": SECRET, "path": "out_dir"}),
        ("scout", {"query": SECRET, "path": "src/inner_link"}),
        ("survey", {"terms": [SECRET], "paths": ["src", "out_dir"]}),
        ("sample", {"query": SECRET, "file": "out_file.py"}),
        ("sample", {"query": SECRET, "file": "out_dir/secret.py"}),
        ("show", {"query": SECRET, "file": f"{outside}/secret.py"}),
        ("show", {"query": SECRET, "file": "in_link/../../outside/secret.py", "line": 1}),
    ]


def test_every_escape_is_refused_before_rg_runs(layout: dict[str, Path], tmp_path: Path) -> None:
    # The real rg, each run it is asked for recorded: which calls reached rg at all.
    recording = MockRg(recorded)
    server = build_server([str(layout["root"]), str(layout["library"])], transport=recording)
    escapes = _escapes(layout)
    results = call_tools(server, *escapes)
    for (tool, arguments), result in zip(escapes, results, strict=True):
        assert result.is_error is True, (tool, arguments)
        message = text_of(result)
        assert message.startswith("error: "), message
        assert "is outside the server's roots" in message, message
        assert str(layout["root"]) in message and str(layout["library"]) in message
        assert message.count("\n") == 1
    assert recording.requests == [], "rg ran for a refused call"
    # The recorder does record: an allowed call reaches rg.
    assert call_tool(server, "scout", {"query": "connect"}).is_error is False
    assert recording.requests


def test_the_refusal_names_the_path_as_given(layout: dict[str, Path]) -> None:
    server = build_server([str(layout["root"])])
    result = call_tool(server, "sample", {"query": "x", "file": "../outside/secret.py"})
    root = layout["root"]
    assert text_of(result) == (
        f"error: file ../outside/secret.py is outside the server's roots ({root}); "
        "give a path inside one (relative paths start at the first)\n"
    )


ALLOWED = [
    # Through a symlink or a `..`: searched, and named, where it resolves (what was
    # checked is what rg opens); otherwise as typed.
    ("scout", {"query": "connect", "path": "src/../src"}, ["scout", "connect", "src"]),
    ("scout", {"query": "connect", "path": "in_link"}, ["scout", "connect", "src"]),
    ("scout", {"query": "connect", "path": "./src/net/"}, ["scout", "connect", "./src/net/"]),
    (
        "sample",
        {"query": "connect", "file": "in_link/net/pool.py"},
        ["sample", "connect", "src/net/pool.py"],
    ),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"),
    ALLOWED,
    ids=[str(a[1].get("path", a[1].get("file"))) for a in ALLOWED],
)
def test_a_path_that_stays_inside_is_searched_as_the_command_line_does(
    layout: dict[str, Path], tool: str, arguments: dict[str, Any], argv: list[str]
) -> None:
    result = call_tool(build_server([str(layout["root"])]), tool, arguments)
    assert result.is_error is False
    assert text_of(result) == tool_text(run_cli(layout["root"], *argv).out)


SWAPPED = [
    ("scout", {"query": SECRET, "path": "flip"}, ["scout", SECRET, "inside"]),
    (
        "survey",
        {"terms": [SECRET, "nothing"], "paths": ["flip", "src"]},
        ["survey", "--term", SECRET, "--term", "nothing", "inside", "src"],
    ),
    ("sample", {"query": "e", "file": "flip/secret.py"}, ["sample", "e", "inside/secret.py"]),
    ("show", {"query": "e", "file": "flip/secret.py"}, ["show", "e", "inside/secret.py"]),
    (
        "show",
        {"query": "e", "file": "flip/secret.py", "line": 1},
        ["show", "e", "inside/secret.py", "--line", "1"],
    ),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"),
    SWAPPED,
    ids=[" ".join(a[2][:2]) + str(len(a[2])) for a in SWAPPED],
)
def test_a_symlink_swapped_after_the_check_does_not_lead_out(
    layout: dict[str, Path], tmp_path: Path, tool: str, arguments: dict[str, Any], argv: list[str]
) -> None:
    """Issue 20, item 9: `flip` leads inside when the path is checked, and outside by
    the time rg starts (its stand-in waits until the link is swapped). rg searches what
    was checked, not the name: the answer is the one for `inside`."""
    root = layout["root"]
    inside = root / "inside"
    inside.mkdir()
    (inside / "secret.py").write_text("nothing here\n")
    (root / "flip").symlink_to(inside)
    started, swapped = tmp_path / "started", tmp_path / "swapped"
    script = tmp_path / "waiting-rg"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$*" in *--type-list*) ;; *) touch {started}\n'
        f"  while [ ! -e {swapped} ]; do sleep 0.01; done ;; esac\n"
        f'exec {resolve_rg()} "$@"\n'
    )
    script.chmod(0o755)
    server = build_server([str(root)], rg=str(script))

    def swap() -> None:
        wait_for(started.exists)  # the call has checked its path and started its rg
        link = root / "flip.new"
        link.symlink_to(layout["outside"])
        os.replace(link, root / "flip")
        swapped.touch()

    swapper = threading.Thread(target=swap)
    swapper.start()
    result = call_tool(server, tool, arguments)
    swapper.join()
    assert os.readlink(root / "flip") == str(layout["outside"]), "the link was never swapped"
    assert f"{SECRET} = 1" not in text_of(result)
    assert text_of(result) == tool_text(run_cli(root, *argv).out)


def test_an_absolute_path_inside_any_root_is_searched(layout: dict[str, Path]) -> None:
    server = build_server([str(layout["root"]), str(layout["library"])], structured=True)
    inside_first = str(layout["root"] / "src")
    in_second = str(layout["library"])
    first, second = call_tools(
        server,
        ("scout", {"query": "connect", "path": inside_first}),
        ("scout", {"query": "connect", "path": in_second}),
    )
    assert text_of(first) == tool_text(
        run_cli(layout["root"], "scout", "connect", inside_first).out
    )
    assert text_of(second) == tool_text(run_cli(layout["root"], "scout", "connect", in_second).out)
    assert second.structured_content is not None
    assert second.structured_content["matches"] == 1


def test_relative_paths_start_at_the_first_root_only(layout: dict[str, Path]) -> None:
    server = build_server([str(layout["root"]), str(layout["library"])])
    result = call_tool(server, "sample", {"query": "connect", "file": "lib.py"})
    assert result.is_error is True
    assert text_of(result) == "error: file lib.py does not exist\n"


def test_a_symlink_inside_a_searched_directory_is_not_followed(layout: dict[str, Path]) -> None:
    """rg does not follow links while walking: the secret behind src/inner_link is not
    counted, though it is one file away."""
    server = build_server([str(layout["root"])], structured=True)
    hidden, direct = call_tools(
        server,
        ("scout", {"query": SECRET, "path": "src"}),
        ("scout", {"query": SECRET, "path": "."}),
    )
    for result in (hidden, direct):
        assert result.is_error is False
        assert result.structured_content is not None
        assert result.structured_content["matches"] == 0
    assert text_of(hidden) == tool_text(run_cli(layout["root"], "scout", SECRET, "src").out)
    # The command line, not confined, finds it when named: the link is real.
    outside = run_cli(layout["root"], "scout", SECRET, "out_dir")
    assert "matches: 1" in outside.out


def test_roots_are_checked_when_the_server_starts(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    for root, what in (
        (tmp_path / "nope", "does not exist"),
        (tmp_path / "file", "is not a directory"),
    ):
        with pytest.raises(Exception, match=what):
            Roots.of([str(root)])
        done = run_cli(tmp_path, "mcp", "--root", str(root))
        assert done.status == 2
        assert done.err == f"error: --root {root} {what}; give a directory\n"
        assert done.out == ""


def test_without_roots_the_working_directory_is_the_root(
    layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(layout["root"] / "src")
    assert Roots.of([]).real == (os.path.realpath(layout["root"] / "src"),)


# Issue 39, item 9: a `.` or `..` read as the system reads it. Before, `os.path.realpath`
# took `src/net/pool.py/..` by its spelling, as `src/net`, and searched it; the command
# line (the system) says "Not a directory".
AS_THE_SYSTEM_READS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("scout", {"query": "connect", "path": "src/net/pool.py/.."}, ["scout", "connect"]),
    ("scout", {"query": "connect", "path": "src/net/pool.py/."}, ["scout", "connect"]),
    ("scout", {"query": "connect", "path": "src/net/pool.py/../client.py"}, ["scout", "connect"]),
    ("scout", {"query": "connect", "path": "src/nowhere/../net"}, ["scout", "connect"]),
    (
        "survey",
        {"terms": ["connect"], "paths": ["src/nowhere/.."]},
        ["survey", "--term", "connect"],
    ),
    ("sample", {"query": "connect", "file": "src/net/pool.py/../client.py"}, ["sample", "connect"]),
    ("show", {"query": "connect", "file": "src/nowhere/../net/client.py"}, ["show", "connect"]),
    ("show", {"file": "src/net/client.py/.", "line": 1}, ["show", "--line", "1"]),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"),
    AS_THE_SYSTEM_READS,
    ids=[
        str(next(v for k, v in a[1].items() if k in ("path", "paths", "file")))
        for a in AS_THE_SYSTEM_READS
    ],
)
def test_a_dot_after_a_file_or_a_missing_directory_is_the_systems_error(
    layout: dict[str, Path], tool: str, arguments: dict[str, Any], argv: list[str]
) -> None:
    result = call_tool(build_server([str(layout["root"])]), tool, arguments)
    assert result.is_error is True
    (path,) = [v for k, v in arguments.items() if k in ("path", "paths", "file")]
    paths = path if isinstance(path, list) else [path]
    done = run_cli(layout["root"], *argv, *paths)
    assert done.status == 2
    assert text_of(result) == tool_text(done.err)


def test_the_spec_s_examples_of_a_dot_read_as_the_system_reads_it(corpus: Path) -> None:
    server = build_server([str(corpus)])
    pool = call_tool(server, "scout", {"query": "connect", "path": "src/net/pool.py/.."})
    assert text_of(pool) == "error: cannot read src/net/pool.py/..: Not a directory\n"
    nowhere = call_tool(server, "scout", {"query": "connect", "path": "src/nowhere/../net"})
    assert text_of(nowhere) == "error: path src/nowhere/../net does not exist\n"
    # Where the system goes the same way, the path is searched as before.
    inside = call_tool(server, "scout", {"query": "connect", "path": "src/net/../net/."})
    assert text_of(inside) == tool_text(run_cli(corpus, "scout", "connect", "src/net").out)


def test_a_dot_never_leads_out_of_the_roots(layout: dict[str, Path]) -> None:
    server = build_server([str(layout["root"])])
    for path in ("src/net/pool.py/../../../..", "src/nowhere/../../..", "out_file.py/.."):
        result = call_tool(server, "scout", {"query": SECRET, "path": path})
        assert result.is_error is True
        assert SECRET not in text_of(result)
