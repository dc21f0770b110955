"""False answers found by a hostile pass (issue 20), each held to what rg itself says.

- The user's git configuration (a global excludes file) never changes a count (D13).
- `skipped: N unreadable` counts each unreadable entry once, whatever the number of
  terms (survey).
- A directory named like an excluded *file* pattern (`sitemap.xml/`, `build.log/`) is
  walked: the seed's `*.log, *.jsonl, *.xml, *.min.js, *.map` are file patterns.
"""

import os
from pathlib import Path

import pytest

from asrch.domain.exclusions import EXCLUDED_FILES
from tests.reliability.helpers import asrch, check_invariants, field, notes, table
from tests.reliability.test_tree import _unprivileged


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
        assert sorted(table(run.out, "top_files[path,matches]:")) == [
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
    assert table(scout.out, "top_files[path,matches]:") == [[f"{name}/deep/page.txt", "1"]]
    assert "  needle,1,1,.\n" in survey.out, str(survey)
