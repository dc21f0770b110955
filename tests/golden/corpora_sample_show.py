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
    """`src/jobs.py`: a method of 73 lines (5-77) in a class, for `show --scope` (D46)."""
    (root / "src").mkdir()
    steps = "".join(f"        done += jobs[{k}]\n" for k in range(1, 71))
    (root / "src" / "jobs.py").write_text(
        '"""Jobs run in order."""\n\n\nclass Runner:\n    def run(self, jobs):\n'
        f"        done = 0\n{steps}        return done\n\n"
        "    def stop(self):\n        return None\n",
        encoding="utf-8",
    )
