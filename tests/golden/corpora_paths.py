"""Generated trees for the examples about paths, ignore files and binary files.

Made at test time, not committed: a symlink loop, a file named `-` and a NUL byte do
not belong in fixtures/corpus/.
"""

from pathlib import Path


def unpacked(root: Path) -> None:
    """An unpacked archive: a `.gitignore` and no git repository."""
    (root / ".gitignore").write_text("*.bak\n")
    (root / "notes.txt").write_text("needle\n")
    (root / "old.bak").write_text("needle\nneedle\n")


def binary_walk(root: Path) -> None:
    """The only matches are in files holding NUL: at the start, and after the match."""
    (root / "notes.txt").write_text("nothing here\n")
    (root / "early.dat").write_bytes(b"\0needle\n")
    # The NUL past the first megabyte: rg has counted the match before it sees it.
    (root / "late.dat").write_bytes(b"needle\n" + b"x" * (1 << 20) + b"\n\0\n")


def unusable_paths(root: Path) -> None:
    """A symlink loop and a regular file, to name as paths that cannot be read."""
    (root / "loop").symlink_to("loop")
    (root / "notes.txt").write_text("needle\n")


def odd_files(root: Path) -> None:
    """A NUL byte before a match, and a file named `-`."""
    (root / "nul.txt").write_bytes(b"top\na\0needle\nzzz\nqqq\n")
    (root / "-").write_text("needle\n")
