"""Issue 32, item 1: what a call reads is what was confined, whatever the names mean by
the time rg or a reader opens them.

The race is made deterministic by rg's stand-in (`ASRCH_RG`): a script that swaps a
checked file for a symlink out of the root (or a checked directory for one) right
before it execs the real rg (`before`: rg itself would open the link), or right after
the real rg ends (`after`: the scope reader and `show --line`'s window reader, which run
after rg, would open it). Every surface, a file and a directory each. No sleeps: the
swap happens inside the call, between the check and the read.
"""

import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from asrch.engine import pins
from asrch.engine.binary import resolve_rg
from asrch.server.app import build_server
from tests.server.helpers import call_tool, text_of

SECRET = "zebra_secret"

pytestmark = pytest.mark.skipif(not pins.SUPPORTED, reason="pinning needs Linux's /proc")


def _layout(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    (root / "d").mkdir(parents=True)
    outside.mkdir()
    # The same line numbers inside and out: only the text (and the scope line, a
    # definition's header) tells which file was read.
    inside = "def inside_only():\n    alpha = 1\n"
    secret = f"def {SECRET}():\n    alpha = 1\n"
    (root / "f.py").write_text(inside)
    (root / "d" / "g.py").write_text(inside)
    (outside / "f.py").write_text(secret)
    (outside / "g.py").write_text(secret)
    return root, outside


def _swapping_rg(tmp_path: Path, root: Path, outside: Path, target: str, when: str) -> str:
    """rg's stand-in: swap `target` (f.py or d) for a symlink out of the root `when`
    (before or after the real rg runs), once."""
    done = tmp_path / "swapped"
    if target == "f.py":
        link = root / "f.link"
        swap = f"ln -s {outside / 'f.py'} {link} && mv -f {link} {root / 'f.py'}"
    else:
        swap = f"mv {root / 'd'} {root / 'd.old'} && ln -s {outside} {root / 'd'}"
    # mkdir: one run swaps, even when a survey starts its rg children side by side.
    swap = f"if mkdir {done} 2>/dev/null; then {swap}; fi"
    rg = shlex.quote(resolve_rg())
    script = tmp_path / "swapping-rg"
    if when == "before":
        body = f'case "$*" in *--type-list*) ;; *) {swap} ;; esac\nexec {rg} "$@"\n'
    else:
        body = (
            f'{rg} "$@"\nstatus=$?\n'
            f'case "$*" in *--type-list*) ;; *) {swap} ;; esac\nexit $status\n'
        )
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return str(script)


CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("f.py", "show", {"query": "alpha", "file": "f.py"}),
    ("f.py", "show", {"query": "alpha", "file": "f.py", "line": 2}),
    ("f.py", "sample", {"query": "alpha", "file": "f.py"}),
    ("f.py", "scout", {"query": "alpha", "path": "f.py"}),
    ("f.py", "survey", {"terms": ["alpha", "inside"], "paths": ["f.py"]}),
    ("d", "show", {"query": "alpha", "file": "d/g.py"}),
    ("d", "show", {"query": "alpha", "file": "d/g.py", "line": 2}),
    ("d", "sample", {"query": "alpha", "file": "d/g.py"}),
    ("d", "scout", {"query": "alpha", "path": "d"}),
    ("d", "scout", {"query": "alpha", "path": "d/"}),
    ("d", "scout", {"query": "alpha"}),
    ("d", "survey", {"terms": ["alpha", "inside"], "paths": ["d", "f.py"]}),
    ("d", "survey", {"terms": ["alpha", "inside"]}),
]


@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize(
    ("target", "tool", "arguments"),
    CALLS,
    ids=[f"{c[1]}-{'-'.join(f'{k}={v}' for k, v in c[2].items())}" for c in CALLS],
)
def test_a_name_swapped_for_a_symlink_mid_call_is_not_read(
    tmp_path: Path, when: str, target: str, tool: str, arguments: dict[str, Any]
) -> None:
    root, outside = _layout(tmp_path)
    server = build_server([str(root)], rg=_swapping_rg(tmp_path, root, outside, target, when))
    # The answer before any swap: what was confined.
    expected = text_of(call_tool(build_server([str(root)]), tool, arguments))
    result = call_tool(server, tool, arguments)
    assert (tmp_path / "swapped").exists(), "the stand-in never swapped"
    assert os.path.islink(root / target)
    text = text_of(result)
    assert SECRET not in text
    assert result.is_error is False, text
    assert "inside_only" in expected or tool == "survey"
    if "path" in arguments or "file" in arguments or "paths" in arguments:
        assert text == expected
    # Else rg walks the root itself, and meets the renamed directory as it now is (and
    # the link, which it does not follow).


def test_a_path_swapped_before_it_is_pinned_reads_as_unreadable(tmp_path: Path) -> None:
    """Between `Roots.confine`'s check and its pin: the component no longer opens without
    following a link, so the path is refused as rg would word it, never read."""
    root, outside = _layout(tmp_path)
    held = pins.Pins([str(root)])
    try:
        (root / "d").rename(root / "d.old")
        (root / "d").symlink_to(outside)
        assert held.here("d/g.py").endswith("/fd/-1")
        failure = held.failure("d/g.py")
        assert failure is not None and failure.strerror == os.strerror(20)  # ENOTDIR
        assert held.failure("d") is not None  # the link itself is not a directory
        assert held.failure("f.py") is None
        assert Path(held.here("f.py")).read_text().startswith("def inside_only")
    finally:
        held.close()


def test_a_pinned_directory_keeps_its_paths_after_a_rename(tmp_path: Path) -> None:
    """A file below a pinned directory is opened from that directory's descriptor."""
    root, outside = _layout(tmp_path)
    held = pins.Pins([str(root)])
    try:
        held.here("d")
        (root / "d").rename(root / "d.old")
        (root / "d").symlink_to(outside)
        assert Path(held.here("d/g.py")).read_text().startswith("def inside_only")
        assert held.failure("/etc/passwd") is not None  # outside every root
        assert held.failure("d/../f.py") is not None  # never a `..`
    finally:
        held.close()


def test_a_path_longer_than_the_system_takes_is_refused_as_unreadable(tmp_path: Path) -> None:
    """A directory 20 levels of 253 bytes below the root (5,079 bytes): opened from the
    root's descriptor it exists, but the private directory spelling it for rg cannot
    be made (`File name too long`): an internal error (OSError) before; now the call
    is refused as the command line refuses it, `cannot read PATH: File name too long`."""
    root = tmp_path / "root"
    root.mkdir()
    parts = [f"d{i:02d}" + "x" * 250 for i in range(20)]
    fd = os.open(root, os.O_RDONLY)
    try:
        for part in parts:
            os.mkdir(part, dir_fd=fd)
            inner = os.open(part, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    result = call_tool(build_server([str(root)]), "scout", {"query": "x", "path": "/".join(parts)})
    text = text_of(result)
    assert result.is_error is True
    assert text.startswith("error: cannot read d00x"), text
    assert text.endswith(f": {os.strerror(36)}\n"), text
    assert "internal error" not in text
