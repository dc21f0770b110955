"""False answers found by a hostile pass (issue 20), each held to what rg itself says.

- The user's git configuration (a global excludes file) never changes a count (D13).
- `skipped: N unreadable` counts each unreadable entry once, whatever the number of
  terms (survey).
- A directory named like an excluded *file* pattern (`sitemap.xml/`, `build.log/`) is
  walked: the seed's `*.log, *.jsonl, *.xml, *.min.js, *.map` are file patterns.
"""

import os
import random
import subprocess
from pathlib import Path

import pytest

from asrch.domain.exclusions import EXCLUDED_FILES
from asrch.engine.binary import resolve_rg
from tests.end_to_end.helpers import as_json, asrch, check_invariants, ranked
from tests.end_to_end.test_tree import _unprivileged
from tests.support.toon import field, notes, overall


def test_user_git_configuration_does_not_change_counts(tmp_path: Path) -> None:
    """A global git ignore file (`$XDG_CONFIG_HOME/git/ignore`, or `core.excludesFile` in
    `~/.gitconfig`) is the user's, not the project's: rg must not read it (D13)."""
    tree = tmp_path / "tree"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "a.py").write_text("needle\n" * 2)
    (tree / "notes.txt").write_text("needle\n")
    home = tmp_path / "home"
    (home / "xdg" / "git").mkdir(parents=True)
    (home / "xdg" / "git" / "ignore").write_text("*.py\n")
    (home / "excludes").write_text("*.txt\n")
    (home / ".gitconfig").write_text(f"[core]\n\texcludesFile = {home / 'excludes'}\n")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "xdg")}
    for variant in ({}, {"XDG_CONFIG_HOME": str(home / "none")}):
        run = asrch("scout", "needle", cwd=tree, env={**env, **variant})
        check_invariants(run, frozenset({0}))
        assert field(run.out, "matches") == "3", str(run)
        assert sorted(ranked(run, "top_files")) == [
            ["notes.txt", "1"],
            ["src/a.py", "2"],
        ]


def test_unreadable_entries_are_counted_once_whatever_the_terms(tmp_path: Path) -> None:
    user = _unprivileged()
    root = tmp_path / "shared"
    root.mkdir()
    root.chmod(0o755)
    tmp_path.chmod(0o755)
    try:
        (root / "ok.txt").write_text("alpha beta gamma\n")
        (root / "locked-dir").mkdir()
        (root / "locked-dir" / "inner.txt").write_text("alpha\n")
        (root / "locked-dir").chmod(0o000)
        terms = [f"--term={t}" for t in ("alpha", "beta", "gamma", "delta")]
        for paths in (["."], [".", "./"]):
            run = asrch("survey", *terms, "--", *paths, cwd=root, user=user)
            check_invariants(run, frozenset({0}))
            skipped = [n for n in notes(run.out) if "unreadable" in n]
            assert skipped and skipped[0].startswith("note: skipped: 1 unreadable"), str(run)
    finally:
        (root / "locked-dir").chmod(0o755)


@pytest.mark.parametrize("pattern", EXCLUDED_FILES)
def test_a_directory_named_like_an_excluded_file_pattern_is_walked(
    tmp_path: Path, pattern: str
) -> None:
    name = pattern.replace("*", "site")
    (tmp_path / name / "deep").mkdir(parents=True)
    (tmp_path / name / "deep" / "page.txt").write_text("needle\n")
    (tmp_path / name / "excluded-inside").mkdir()
    (tmp_path / name / "excluded-inside" / name).write_text("needle\n" * 5)
    (tmp_path / name.replace("site", "top")).write_text("needle\n" * 7)
    scout = asrch("scout", "needle", cwd=tmp_path)
    survey = asrch("survey", "--term=needle", "--term=other", cwd=tmp_path)
    check_invariants(scout, frozenset({0}))
    check_invariants(survey, frozenset({0}))
    assert ranked(scout, "top_files") == [[f"{name}/deep/page.txt", "1"]]
    assert f"  needle,1,1,{name}/deep/page.txt:1\n" in survey.out, str(survey)  # D56


def _rg_files(cwd: Path, glob: str, target: str) -> set[str]:
    """What `rg --files --glob` keeps under `target`, run from `cwd` (no ignore rules)."""
    from asrch.engine.binary import resolve_rg

    done = subprocess.run(
        [resolve_rg(), "--no-config", "--files", f"--glob={glob}", "--", target],
        cwd=cwd,
        capture_output=True,
        check=False,
        timeout=60,
    )
    return set(done.stdout.decode().splitlines())


@pytest.mark.parametrize(
    "glob", ["src/**", "!tmp/**", "!proj/**", "tmp/proj/src/**", "**/src/**", "*.py", "!src/a.py"]
)
@pytest.mark.parametrize("where", ["proj", "root", "outside", "src"])
def test_globs_on_an_absolute_path_keep_what_rg_keeps(
    tmp_path: Path, glob: str, where: str
) -> None:
    """`--glob` is matched against the path from the working directory, as rg matches it:
    an absolute path under the working directory is taken relative to it, one elsewhere
    stays absolute (an anchored glob never matches it), whatever its ancestors' names."""
    proj = tmp_path / "tmp" / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "a.py").write_text("needle\n")
    (proj / "src" / "b.py").write_text("needle\n" * 2)
    (tmp_path / "outside").mkdir()
    cwd = {"proj": proj, "root": tmp_path, "outside": tmp_path / "outside", "src": proj / "src"}
    target = str(proj / "src")
    kept = _rg_files(cwd[where], glob, target)
    run = asrch("scout", "needle", target, f"--glob={glob}", cwd=cwd[where])
    check_invariants(run, frozenset({0}))
    rows = ranked(run, "top_files")
    assert {os.path.join(target, row[0]) for row in rows} == kept, str(run)
    assert field(run.out, "files") == str(len(kept))


def _overall(out: str) -> dict[str, int]:
    return {row[0]: int(row[1]) for row in overall(out)}


@pytest.mark.parametrize(
    "name", [b"late\xff.dat", b"late.dat", b"WARNING: x.dat", b"sub\xfe/late.dat"]
)
def test_survey_counts_no_binary_file_and_no_warning_of_rgs(tmp_path: Path, name: bytes) -> None:
    """A file with matches before a NUL past rg's first buffer is binary whatever its
    name: survey counts none of its lines, nor rg's `WARNING: stopped searching binary
    file` line, and says what scout says (issue 20, item 2)."""
    root = os.fsencode(tmp_path / "d")
    os.makedirs(os.path.dirname(root + b"/" + name), exist_ok=True)
    with open(root + b"/" + name, "wb") as out:
        out.write(b"needle early\n" + b"x" * 300_000 + b"\n\0\n")
    (tmp_path / "d" / "ok.txt").write_text("needle and binary\n")
    terms = ["needle", "WARNING", "binary", "stopped", "offset"]
    survey = asrch("survey", *(f"--term={t}" for t in terms), "d", cwd=tmp_path)
    check_invariants(survey, frozenset({0}))
    for term in terms:
        scout = asrch("scout", term, "d", cwd=tmp_path)
        assert _overall(survey.out)[term] == int(field(scout.out, "matches")), str(survey)
    # D45: the count is JSON's, the text says it only on a zero answer.
    assert [n for n in as_json(survey)["notices"] if n["kind"] == "binary"], str(survey)


_RNG = random.Random(20)
_LONG = "".join(_RNG.choice("abcdefghij") for _ in range(200_000))
# rg takes minutes on a long periodic pattern over periodic text (`n` * 200,000): the
# terms are long and irregular, so that only their length is tested.
_DOTTED = "".join(_RNG.choice("abcdefgh.") for _ in range(100_000))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "term", "text", "want"),
    [
        (["--identifier"], _DOTTED, _DOTTED, 2),
        ([], _LONG, _LONG, 3),
        (["--word"], _LONG[:140_000], _LONG[:140_000], 2),
        (["--regex"], "j{2}" + _LONG[:140_000], "jj" + _LONG[:140_000], 3),
    ],
    ids=["identifier-dots", "fixed", "word", "regex"],
)
def test_a_term_too_long_for_an_argument_is_searched(
    tmp_path: Path, mode: list[str], term: str, text: str, want: int
) -> None:
    """A term longer than one argument may be (128 KiB on Linux) is handed to rg in a
    pattern file, with the same meaning (issue 20, item 13): never blamed on rg."""
    (tmp_path / "hit.txt").write_text(f"a {text} b\nnothing\n{text}\n")
    (tmp_path / "near.txt").write_text(f"a {text[:-1]} b\nx{text}\n")
    scout = asrch("scout", *mode, "--", term, ".", cwd=tmp_path)
    check_invariants(scout, frozenset({0}))
    assert field(scout.out, "matches") == str(want), str(scout)[:600]
    show = asrch("show", *mode, "--line", "3", "--", term, "hit.txt", cwd=tmp_path)
    check_invariants(show, frozenset({0}))


@pytest.mark.parametrize(
    ("then", "matches", "listed"),
    [
        ("needle 1\nneedle 2\nneedle 3\nneedle 4\nneedle 5\n", "5", 5),  # the listing counts
        ("needle 1\n", "1", 1),  # one line went: the listing counts
        ("needle\n" * 30, "2", 0),  # past what may be listed: the count, no lines
    ],
    ids=["grew", "shrank", "grew-past-the-list"],
)
def test_a_file_changed_between_count_and_listing_never_contradicts(
    tmp_path: Path, then: str, matches: str, listed: int
) -> None:
    """scout counts, then lists the lines of a small answer in a second search: a file
    rewritten in between printed `matches: 2` over 5 lines (issue 39, item 9). The
    rewrite is made by an ASRCH_RG wrapper just before the listing's rg starts. (A
    small tree's count and lines come from one search, issue 41 item 5: a filter keeps
    the directory's search to the two.)"""
    tree = tmp_path / "tree"
    tree.mkdir()
    target = tree / "f.txt"
    target.write_text("needle 1\nneedle 2\n")
    rewritten = tmp_path / "rewritten.txt"
    rewritten.write_text(then)
    wrapper = tmp_path / "rg"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" --json "*) cp {rewritten} {target};; esac\n'
        f'exec {resolve_rg()} "$@"\n'
    )
    wrapper.chmod(0o755)
    for path in ([".", "--glob=*.txt"], ["f.txt"]):
        target.write_text("needle 1\nneedle 2\n")
        env = {**os.environ, "ASRCH_RG": str(wrapper)}
        run = asrch("scout", "needle", *path, cwd=tree, env=env)
        check_invariants(run, frozenset({0}))
        assert field(run.out, "matches") == matches, run.out
        lines = [line for line in run.out.splitlines() if line[:1].isdigit()]
        assert len(lines) == listed, run.out
