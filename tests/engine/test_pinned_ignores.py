"""An MCP call's ignore rules against rg's own reading of the same files (issue 39,
item 4).

Under a call rg discovers no ignore file; it is handed the rules asrch read from the
root down (`engine.ignore_files.pinned_rules`), rebased to the paths it prints. Held
here to rg itself: on random trees with random `.gitignore`, `.ignore`, `.rgignore` and
`.git/info/exclude` files (nested, negated, anchored, `**`, directory-only, escaped,
in directories whose names hold glob characters), the files a pinned walk of any
directory of the root lists are exactly those that `rg --files` lists from the root
with no ignore file above it, even after ignore files are written above the root.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from asrch.domain.errors import InputError
from asrch.engine import pins
from asrch.engine.argv import files_argv
from asrch.engine.binary import resolve_rg
from asrch.engine.ignore_files import NAMES
from asrch.engine.process import Launch
from asrch.engine.transport import run_to_end
from tests.support.tiers import examples

pytestmark = pytest.mark.skipif(not pins.SUPPORTED, reason="pinning needs Linux's /proc")

RG = resolve_rg()
DIRS = ("", "x", "x/y", "sub", "sub/x", "d[1]", "e *{a,b}", ".hid", "x/.h2")
FILES = ("a.txt", "b.txt", "c.md", ".d.txt", "#a.txt")
KINDS = (*NAMES, ".git/info/exclude")
RULES = (
    "*.txt", "a.txt", "!a.txt", "/b.txt", "sub/", "sub", "!sub/", "**/c.md", "sub/**",
    "*", "!*", "x/a.txt", "/x/", "x/y/", ".h*", "!.hid/", "!.h2", "\\#a.txt", "a.txt ",
    "[ab].txt", "{a,c}.*", "x/**/a.txt", "#comment", "", "!x/", "**", "x/*/a.txt",
    "a.txt/", "?.txt", "y", "!y/b.txt", "d\\[1]/", "e*/", "!/sub/x/", "b.txt\\ ", "/",
    "!", "**/", "x//", "\\!a.txt", "sub/x/a.txt", "!.d.txt", "*.md/",
)  # fmt: skip

_FILES = st.lists(
    st.tuples(
        st.sampled_from(DIRS),
        st.sampled_from(KINDS),
        st.lists(st.sampled_from(RULES), max_size=5),
    ),
    max_size=5,
)


def _make(root: Path, ignore_files: list[tuple[str, str, list[str]]]) -> None:
    for directory in DIRS:
        (root / directory).mkdir(parents=True, exist_ok=True)
        for name in FILES:
            (root / directory / name).write_text("needle\n")
    for directory, kind, lines in ignore_files:
        path = root / directory / kind
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as file:
            file.write("".join(line + "\n" for line in lines))


def _by_rg(root: Path, target: str) -> set[str]:
    """What rg lists of `target` from the root, finding the ignore files itself."""
    output, _ = run_to_end(files_argv(RG, target or "."), Launch(cwd=str(root)))
    return {_plain(p) for p in os.fsdecode(output).split("\0")[:-1]}


def _pinned(root: Path, target: str) -> set[str]:
    """What a call's walk of `target` lists, spelled from the root."""
    held = pins.Pins([str(root)])
    try:
        walk = held.walk(target or ".")
        assert walk is not None
        launch = Launch(cwd=walk.cwd, rules=walk.rules)
        output, _ = run_to_end(files_argv(RG, walk.operand), launch)
    finally:
        held.close()
    return {_plain(p) for p in os.fsdecode(output).split("\0")[:-1]}


def _plain(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _nothing_above(root: Path) -> None:
    for parent in root.parents:
        for kind in KINDS:
            if (parent / kind).exists():
                pytest.skip(f"{parent / kind} would apply to rg's own walk")


def _outside(base: Path) -> None:
    """Ignore files above the root that would hide everything if read."""
    for holder in (base, base / "p"):
        for kind in KINDS:
            path = holder / kind
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("*\n!nothing\n")


SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(SETTINGS, max_examples=examples(25, more=100))
@given(ignore_files=_FILES, target=st.sampled_from(DIRS))
@example(ignore_files=[("", ".ignore", ["sub/x/a.txt"]), ("sub", ".gitignore", ["!a.txt"])],
         target="sub/x")  # fmt: skip
@example(ignore_files=[("", ".rgignore", ["!*.txt"]), ("sub", ".gitignore", ["a.txt"])],
         target="sub")  # fmt: skip
@example(ignore_files=[("", ".gitignore", ["e*/"]), ("e *{a,b}", ".ignore", ["!*"])],
         target="")  # fmt: skip
@example(ignore_files=[("", ".gitignore", [".h*", "!.hid/"]), (".hid", ".ignore", ["a.txt"])],
         target="")  # fmt: skip
@example(ignore_files=[("", ".gitignore", ["x/a.txt"])], target="x")  # rg#2778
def test_a_pinned_walk_lists_what_rg_lists_from_the_root(
    tmp_path_factory: pytest.TempPathFactory,
    ignore_files: list[tuple[str, str, list[str]]],
    target: str,
) -> None:
    base = tmp_path_factory.mktemp("pinned")
    root = base / "p" / "root"
    _make(root, ignore_files)
    _nothing_above(root)
    expected = _by_rg(root, target)
    whole = {p for p in _by_rg(root, "") if not target or p.startswith(target + "/")}
    _outside(base)
    # rg 14.1.0 applies a rule of an ignore file above its operand below where the rule
    # points when it walks a subdirectory (root `.gitignore` `x/a.txt` also hides
    # `x/y/a.txt` in a walk of `x`, not in a walk of the root: BurntSushi/ripgrep#2778,
    # fixed in 14.1.1). A walk of a subdirectory otherwise only adds to the root's (its
    # operand is never ignored): what the root's walk lists there is listed, as the
    # pinned walk applies the root's rules as rg applies them to a walk of the root.
    assert _pinned(root, target) == expected | whole


def test_a_directory_name_that_is_not_utf8_is_spelled_by_its_bytes(tmp_path: Path) -> None:
    """An ignore file under `x\\xff` applies there and nowhere else (to rg its directory
    is `x?`, which matches neither `xyz` nor `y`); once `x\\xfe` sits beside it, no glob
    tells the two apart and the call is refused."""
    root = tmp_path / "root"
    odd = os.fsdecode(b"x\xff")
    for name in (odd, "xyz", "y"):
        (root / name).mkdir(parents=True)
        for file in ("a.txt", "b.txt"):
            (root / name / file).write_text("needle\n")
    (root / odd / ".ignore").write_text("a.txt\n")
    _nothing_above(root)
    assert _pinned(root, "") == _by_rg(root, "")
    assert _pinned(root, odd) == _by_rg(root, odd)
    (root / os.fsdecode(b"x\xfe")).mkdir()
    with pytest.raises(InputError, match="not UTF-8"):
        _pinned(root, "")


def test_a_directory_name_holding_a_newline_adds_no_rule(tmp_path: Path) -> None:
    """An ignore file under `a\\nb` applies there only: its rules rebased under that
    name are one line each (a newline in the prefix split `/a` off as a rule of its own,
    hiding the root's file `a` and keeping `a\\nb/x.txt` its `.ignore` leaves out)."""
    root = tmp_path / "root"
    (root / "a\nb").mkdir(parents=True)
    for name in ("a", "c.txt", "a\nb/x.txt", "a\nb/y.txt"):
        (root / name).write_text("needle\n")
    (root / "a\nb" / ".ignore").write_text("x.txt\n")
    _nothing_above(root)
    assert _pinned(root, "") == _by_rg(root, "") == {"a", "c.txt", "a\nb/y.txt"}
    assert _pinned(root, "a\nb") == _by_rg(root, "a\nb") == {"a\nb/y.txt"}
    (root / "a\rb").mkdir()  # `?` would name it too: refused, as for bytes not UTF-8
    with pytest.raises(InputError, match="rename it"):
        _pinned(root, "")


def test_a_last_line_without_newline_keeps_its_carriage_return(tmp_path: Path) -> None:
    """rg strips a CR only before a LF: a last line `b.txt\\ ` + CR, with no LF after
    it, does not end in `\\ ` and is trimmed to `b.txt\\` (a dangling escape rg drops),
    so `b.txt ` stays listed; read as `b.txt\\ ` it left the file out."""
    root = tmp_path / "root"
    root.mkdir()
    for name in ("a.txt", "b.txt", "b.txt "):
        (root / name).write_text("needle\n")
    (root / ".gitignore").write_bytes(b"a.txt\r\nb.txt\\ \r")
    _nothing_above(root)
    assert _pinned(root, "") == _by_rg(root, "") == {"b.txt", "b.txt "}


def test_ignore_files_too_large_together_for_rg_apply_each(tmp_path: Path) -> None:
    """rg builds each ignore file's globs apart; two 400 KB rules, each within its
    regex limits, were handed as one file whose globs rg could not build (`error
    building NFA`, unsaid under `--no-ignore-messages`): every rule of the call was
    dropped, `f1.txt` counted. Files are handed as they were written, grouped small."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    for name in ("f1.txt", "f2.txt", "sub/f1.txt", "sub/f2.txt"):
        (root / name).write_text("needle\n")
    heavy = "*" + "[ab]" * 100_000 + "\nf1.txt\n"
    (root / ".gitignore").write_text(heavy)
    (root / "sub" / ".ignore").write_text(heavy)
    _nothing_above(root)
    assert _pinned(root, "") == _by_rg(root, "") == {"f2.txt", "sub/f2.txt"}


def test_a_directory_swapped_for_a_link_out_while_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sub` swapped for a link out of the root once the root is listed (the swap made
    inside `os.scandir`, no sleep): its ignore file was read by name through the link,
    outside the roots (`/sub/**/b.txt` from `out/.gitignore`); what is opened is held to
    the roots by where it is, not by its name."""
    root, out = tmp_path / "root", tmp_path / "out"
    (root / "sub").mkdir(parents=True)
    out.mkdir()
    (out / ".gitignore").write_text("b.txt\n")
    listed = os.scandir

    def swapping(path: str) -> Iterator[os.DirEntry[str]]:
        with listed(path) as found:
            entries = list(found)
        if (root / "sub").is_dir() and not (root / "sub").is_symlink():
            (root / "sub").rename(tmp_path / "away")
            (root / "sub").symlink_to(out)
        return iter(entries)

    monkeypatch.setattr(os, "scandir", swapping)
    held = pins.Pins([str(root)])
    try:
        with pytest.raises(InputError, match="outside the roots"):
            held.walk(".")
    finally:
        held.close()
