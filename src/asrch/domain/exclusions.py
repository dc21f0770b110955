"""The seed's default exclusions; there is deliberately no option to lift them."""

from collections.abc import Sequence
from fnmatch import fnmatchcase

EXCLUDED_DIRS = (
    ".git",
    "target",
    "node_modules",
    "vendor",
    "dist",
    "build",
    "coverage",
    "generated",
    "scratch",
    "tmp",
)
EXCLUDED_FILES = ("*.log", "*.jsonl", "*.xml", "*.min.js", "*.map")


def excluded_below(parts: Sequence[str], *, is_dir: bool) -> bool:
    """Whether the exclusions keep a walk out of the entry at `parts` below its root.

    As rg applies them (engine/argv.py): a directory name in EXCLUDED_DIRS matches
    directories only, a file pattern a file's own name only (a directory `sitemap.xml/`
    is walked).
    """
    for index, name in enumerate(parts):
        directory = is_dir or index < len(parts) - 1
        if directory and name in EXCLUDED_DIRS:
            return True
        if not directory and any(fnmatchcase(name, pattern) for pattern in EXCLUDED_FILES):
            return True
    return False
