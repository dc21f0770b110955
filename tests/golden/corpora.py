"""Generated trees for the scout examples that need volume (D24: not committed)."""

from pathlib import Path


def broad(root: Path) -> None:
    """1,200 matching lines in 3 files, and 120 files with one match each."""
    (root / "big").mkdir()
    for name, lines in (("a.txt", 500), ("b.txt", 400), ("c.txt", 300)):
        (root / "big" / name).write_text("".join(f"event {i}\n" for i in range(lines)))
    many = root / "many"
    many.mkdir()
    for i in range(120):
        (many / f"f{i:03d}.txt").write_text("signal here\n")


def capped(root: Path) -> None:
    """60,000 matching lines: 30,000 each in a.txt and b.txt, 10,000 in c/d.txt."""
    (root / "c").mkdir()
    for name, lines in (("a.txt", 30_000), ("b.txt", 30_000), ("c/d.txt", 10_000)):
        (root / name).write_text("needle\n" * lines)
