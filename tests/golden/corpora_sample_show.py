"""Generated corpora for the large `sample` / `show` examples in spec/sample_show*.md.

Each `NAME(root)` writes a deterministic tree under `root`; an example preceded by
`<!-- corpus: NAME -->` runs with cwd=root instead of a copy of fixtures/corpus/.
"""

import pathlib


def retention_6000(root: pathlib.Path) -> None:
    """6,000 matches of `spaced`, one every 3 lines: 6,000 single-line clusters."""
    with (root / "spaced.txt").open("w", encoding="utf-8", newline="\n") as f:
        for i in range(1, 18_001):
            f.write(f"spaced {i // 3 + 1}\n" if i % 3 == 1 else f"filler {i}\n")


def cap_60000(root: pathlib.Path) -> None:
    """60,000 matching lines of `dense` in one file: past the 50,000 scan cap."""
    with (root / "dense.txt").open("w", encoding="utf-8", newline="\n") as f:
        for i in range(1, 60_001):
            f.write(f"dense {i}\n")


def long_scope(root: pathlib.Path) -> None:
    """`src/jobs.py`: a method of 73 lines (5-77) in a class, for `show --scope` (D46);
    `src/report.py`, a function of 60 lines (`_REPORT_PY`)."""
    (root / "src").mkdir()
    steps = "".join(f"        done += jobs[{k}]\n" for k in range(1, 71))
    (root / "src" / "jobs.py").write_text(
        '"""Jobs run in order."""\n\n\nclass Runner:\n    def run(self, jobs):\n'
        f"        done = 0\n{steps}        return done\n\n"
        "    def stop(self):\n        return None\n",
        encoding="utf-8",
    )
    (root / "src" / "report.py").write_text(_REPORT_PY, encoding="utf-8")


_REPORT_PY = (
    "def render(rows, width=80):\n"
    + "".join(f"    line{k} = rows[{k}].ljust(width)\n" for k in range(1, 35))
    + "    columns = {\n"
    + "".join(f'        "c{k}": {k * 4},\n' for k in range(1, 6))
    + "    }\n"
    + "".join(f"    out{k} = columns.get(line{k})\n" for k in range(1, 18))
    + "    return out1\n"
)
"""`src/report.py`: a function of 60 lines whose 7-line `columns` table (36-42) spans
line 40, for `show --line 1 --scope` on a long definition's first line (issue 40)."""


SETTINGS_RS = """\
// Copyright 2026 The Example Authors.
// Licensed under the Apache License, Version 2.0 (the "License"); a Shell
// may not be used except in compliance with the License.

pub const DEFAULT_SHELL: &str = "sh";

pub struct Settings {
    pub shell: String,
}

impl Settings {
    pub fn shell(&self) -> &str {
        if self.shell.is_empty() {
            DEFAULT_SHELL
        } else {
            &self.shell
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_shell() {
        let s = Settings { shell: String::new() };
        assert_eq!(s.shell(), DEFAULT_SHELL);
    }

    #[test]
    fn given_shell() {
        let s = Settings { shell: "bash".into() };
        assert_ne!(s.shell(), DEFAULT_SHELL);
    }
}
"""

_POOL_PY = '''\
# Copyright 2026 The Example Authors.
# No pool may hold more connections than its LIMIT, under the
# terms of the licence in LICENSE.

"""A pool of connections."""

LIMIT = 4


def take(pool):
    return pool[:LIMIT]


class TestTake:
    def test_limit(self):
        assert len(take(list(range(9)))) == LIMIT
'''


def folded_tests(root: pathlib.Path) -> None:
    """D53: `src/settings.rs` (a licence header, code, a `#[cfg(test)] mod tests`) and
    `src/pool.py` (a `class Test...` in a file that is not a test file)."""
    (root / "src").mkdir()
    (root / "src" / "settings.rs").write_text(SETTINGS_RS, encoding="utf-8")
    (root / "src" / "pool.py").write_text(_POOL_PY, encoding="utf-8")
