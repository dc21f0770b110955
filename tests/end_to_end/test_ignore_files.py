"""Ignore files rg must never open (issue 39, items 3 and 4): a FIFO or a device named
like one hung rg; an ignore file outside an MCP server's roots steered its answers.
Each run has a timeout (tests/support/cli.py): a hang fails the test."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.end_to_end.helpers import asrch, check_invariants
from tests.support.toon import field


def _tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("needle\n")
    (root / "sub" / "b.txt").write_text("needle\n")
    return root


@pytest.mark.parametrize(
    "name", [".ignore", ".gitignore", ".rgignore", "sub/.ignore", ".git/info/exclude"]
)
@pytest.mark.parametrize("command", ["scout", "survey"])
def test_a_fifo_named_like_an_ignore_file_is_refused_not_waited_on(
    tmp_path: Path, name: str, command: str
) -> None:
    root = _tree(tmp_path / "t")
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(root / name)
    args = ["scout", "needle"] if command == "scout" else ["survey", "--term=needle", "--term=x"]
    run = asrch(*args, cwd=root)
    check_invariants(run, frozenset({2}))
    assert run.err == (
        f"error: {name} is a FIFO, not a regular file: rg would read it as an ignore file "
        "and never finish; remove it or search a directory without it\n"
    )


def test_an_ignore_file_that_is_a_device_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t")
    (root / "sub" / ".gitignore").symlink_to("/dev/zero")
    run = asrch("scout", "needle", cwd=root)
    check_invariants(run, frozenset({2}))
    assert "sub/.gitignore is a character device" in run.err


def test_a_fifo_above_the_target_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t")
    os.mkfifo(root / ".ignore")
    run = asrch("scout", "needle", "sub", cwd=root)
    check_invariants(run, frozenset({2}))
    assert f"{root}/.ignore is a FIFO" in run.err


def test_a_fifo_where_rg_never_walks_is_left_alone(tmp_path: Path) -> None:
    """The default exclusions and hidden directories are not walked: their ignore files
    are not rg's to open."""
    root = _tree(tmp_path / "t")
    for directory in ("node_modules", ".hidden"):
        (root / directory).mkdir()
        os.mkfifo(root / directory / ".ignore")
    run = asrch("scout", "needle", cwd=root)
    check_invariants(run, frozenset({0}))
    assert field(run.out, "matches") == "2"


def _scout(root: Path, path: str = ".") -> str:
    pytest.importorskip("mcp")
    from asrch.server.app import build_server
    from tests.server.helpers import call_tool, text_of

    server = build_server([str(root)])
    return text_of(call_tool(server, "scout", {"query": "needle", "path": path}))


def test_a_roots_own_ignore_files_apply_below_it(tmp_path: Path) -> None:
    """`root/.ignore` lists `sub/kept.txt`: a search of `sub` leaves it out, whatever the
    directories above the root hold (an attempt with `--no-ignore-parent` lost the
    root's own rules once the root's parent held a `.gitignore`)."""
    root = tmp_path / "p" / "root"
    (root / "sub").mkdir(parents=True)
    (root / ".ignore").write_text("sub/kept.txt\n")
    for name in ("c.txt", "kept.txt"):
        (root / "sub" / name).write_text("needle\n")
    assert "matches: 1\n" in _scout(root, "sub")
    (tmp_path / "p" / ".gitignore").write_text("")
    assert "matches: 1\n" in _scout(root, "sub")


def test_an_ignore_file_linked_out_of_the_roots_is_refused(tmp_path: Path) -> None:
    """`root/.gitignore` a symlink to `../out/list` listing `b.txt`: the server read it
    and counted 2 of 3 (71ae67e)."""
    root = tmp_path / "p" / "root"
    root.mkdir(parents=True)
    for name in "abc":
        (root / f"{name}.txt").write_text("needle\n")
    (tmp_path / "p" / "out").mkdir()
    (tmp_path / "p" / "out" / "list").write_text("b.txt\n")
    (root / ".gitignore").symlink_to("../out/list")
    assert _scout(root) == (
        "error: .gitignore is an ignore file whose target lies outside the roots; "
        "the server reads nothing there\n"
    )


def test_an_ignore_link_out_of_the_roots_is_refused_wherever_it_points(tmp_path: Path) -> None:
    """Refused before its target exists too: no file outside the roots decides whether
    a call is answered."""
    root = tmp_path / "p" / "root"
    root.mkdir(parents=True)
    (root / "a.txt").write_text("needle\n")
    (root / "sub").mkdir()
    (root / "sub" / ".ignore").symlink_to("../../out/missing")
    assert "sub/.ignore is an ignore file whose target lies outside the roots" in _scout(root)


def test_a_fifo_above_the_root_is_never_opened_by_a_call(tmp_path: Path) -> None:
    """Under a call neither rg nor asrch opens an ignore file above the root: a FIFO
    there (which would hang rg) changes nothing."""
    root = tmp_path / "p" / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("needle\n")
    (root / "sub" / "b.txt").write_text("needle\n")
    before = (_scout(root), _scout(root, "sub"))
    for name in (".ignore", ".gitignore"):
        os.mkfifo(tmp_path / "p" / name)
    assert (_scout(root), _scout(root, "sub")) == before
    assert "matches: 2\n" in before[0]


def test_a_call_reads_hidden_directories_only_where_a_rule_may_re_include_them(
    tmp_path: Path,
) -> None:
    """`!.github/` re-includes `.github` (its `.ignore` applies), not `.venv`: a FIFO there
    is no file rg would open, so the call is answered."""
    root = tmp_path / "root"
    for directory in (".github", ".venv"):
        (root / directory).mkdir(parents=True)
        (root / directory / "a.txt").write_text("needle\n")
    (root / "b.txt").write_text("needle\n")
    (root / ".gitignore").write_text("!.github/\n")
    (root / ".github" / ".ignore").write_text("a.txt\n")
    os.mkfifo(root / ".venv" / ".ignore")
    assert "matches: 1\n" in _scout(root)
    (root / ".github" / ".ignore").unlink()
    assert "matches: 2\n" in _scout(root)


def test_the_command_line_reads_ignore_files_above_its_path_as_rg_does(tmp_path: Path) -> None:
    """The command line keeps rg's rules (docs/reliability.md): in a subdirectory of a
    project, the project's ignore files apply, as they do to `rg` run there."""
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / ".gitignore").write_text("b.txt\n")
    for name in ("a.txt", "b.txt"):
        (project / "src" / name).write_text("needle\n")
    run = asrch("scout", "needle", cwd=project / "src")
    check_invariants(run, frozenset({0}))
    assert field(run.out, "matches") == "1"


@pytest.mark.parametrize("command", ["scout", "survey"])
@pytest.mark.parametrize(
    "rule", ["{a,{b,c}}.txt", "a\\"], ids=["nested-alternation", "dangling-escape"]
)
def test_a_rule_rg_cannot_parse_above_the_path_is_dropped_as_rg_drops_it(
    tmp_path: Path, command: str, rule: str
) -> None:
    """rg drops a rule it cannot parse, and `--no-ignore-messages` silences it in the
    tree, not in the directories above it: there rg prints `PATH: line N: error parsing
    glob …` and exits 2 after a full answer, which was taken for a refused search
    (exit 4, no answer) in every subdirectory of a project with one such line."""
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / ".rgignore").write_text(f"b.txt\n{rule}\n")
    for name in ("a.txt", "b.txt"):
        (project / "src" / name).write_text("needle\n")
    args = ["scout", "needle"] if command == "scout" else ["survey", "--term=needle", "--term=x"]
    run = asrch(*args, cwd=project / "src")
    check_invariants(run, frozenset({0}))
    assert run.err == ""
    (project / ".rgignore").write_text("b.txt\n")
    assert run.out == asrch(*args, cwd=project / "src").out


_OUTSIDE = st.fixed_dictionaries(
    {},
    optional={
        name: st.lists(st.sampled_from(["*.txt", "b.txt", "!a.txt", "*", "sub/", "/c.txt"]))
        for name in (".gitignore", ".ignore", ".rgignore", ".git/info/exclude")
    },
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(outside=_OUTSIDE, above=st.booleans(), path=st.sampled_from([".", "sub"]))
def test_mcp_answers_never_change_with_files_outside_the_root(
    tmp_path_factory: pytest.TempPathFactory,
    outside: dict[str, list[str]],
    above: bool,
    path: str,
) -> None:
    """The ignore files of the directories above the root (its parent, or 2 levels up),
    whatever they say, change no count, of the root or of a directory in it (rg 14.1
    read them, and with `--no-ignore-parent` lost the root's own rules below it)."""
    base = tmp_path_factory.mktemp("outside")
    root = base / "p" / "root"
    (root / "sub").mkdir(parents=True)
    for name in ("a.txt", "b.txt", "c.txt", "sub/d.txt"):
        (root / name).write_text("needle\n")
    (root / ".gitignore").write_text("c.txt\n")
    before = _scout(root, path)
    holder = base if above else base / "p"
    for name, lines in outside.items():
        (holder / name).parent.mkdir(parents=True, exist_ok=True)
        (holder / name).write_text("".join(line + "\n" for line in lines))
    assert _scout(root, path) == before


def _large_tree(root: Path) -> Path:
    """A tree whose look is recorded (`engine.ignore_record.LEAST_DIRECTORIES`)."""
    from asrch.engine.ignore_record import LEAST_DIRECTORIES

    for index in range(LEAST_DIRECTORIES + 10):
        directory = root / f"d{index % 10}" / f"e{index}"
        directory.mkdir(parents=True)
        (directory / "a.txt").write_text("needle\n")
    return root


@pytest.mark.parametrize("kind", ["fifo", "fifo behind a link"])
def test_a_fifo_made_after_a_recorded_look_is_refused(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look at ignore files is taken from its record where the tree has not changed
    (issue 41, item 5): a FIFO named `.gitignore` made since, in a directory of the tree
    or as the target of a `.gitignore` that is a link to a file outside it (no directory
    of the tree changes), is refused all the same, never waited on (rg under the run's
    timeout). The tree is taken as an hour old: no directory racily clean, every one
    as recorded taken from the record."""
    from asrch.engine import ignore_record
    from asrch.engine.index.location import look_record_path

    monkeypatch.setattr(ignore_record, "MARGIN_NS", -3600 * 10**9)

    root = _large_tree(tmp_path / "t")
    target = tmp_path / "outside"
    target.write_text("*.log\n")
    if kind == "fifo behind a link":
        (root / "d3" / "e3" / ".gitignore").symlink_to(target)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = asrch("scout", "needle", cwd=root, env=env, cold=False)
    check_invariants(first, frozenset({0}))
    assert field(first.out, "matches") == "110"
    assert os.path.isfile(look_record_path(str(root.resolve()), env))
    if kind == "fifo":
        os.mkfifo(root / "d3" / "e3" / ".gitignore")
    else:
        target.unlink()
        os.mkfifo(target)
    run = asrch("scout", "needle", cwd=root, env=env, cold=False, timeout=20)
    check_invariants(run, frozenset({2}))
    assert run.err == (
        "error: d3/e3/.gitignore is a FIFO, not a regular file: rg would read it as an "
        "ignore file and never finish; remove it or search a directory without it\n"
    )


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("args", [["index"], ["index", "--status"]])
def test_asrch_index_refuses_an_ignore_file_rg_would_hang_on(
    tmp_path: Path, special: str, args: list[str]
) -> None:
    """`asrch index` walks with rg as a search does: a FIFO `.gitignore` hung it (and
    `--status`) for ever, a link to /dev/zero made rg read without end; now refused as
    a search refuses it, before rg starts."""
    root = _tree(tmp_path / "t")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert asrch("index", cwd=root, env=env).status == 0
    if special == "fifo":
        os.mkfifo(root / "sub" / ".gitignore")
    else:
        (root / "sub" / ".gitignore").symlink_to(special)
    run = asrch(*args, cwd=root, env=env, timeout=20, cold=True)
    check_invariants(run, frozenset({2}))
    kind = "a FIFO" if special == "fifo" else "a character device"
    assert run.err == (
        f"error: sub/.gitignore is {kind}, not a regular file: rg would read it as an ignore "
        "file and never finish; remove it or search a directory without it\n"
    )
    assert run.out == ""
