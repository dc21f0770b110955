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

    As rg applies the globs (engine/argv.py): a directory name in EXCLUDED_DIRS (`name/`
    matches directories only), a file pattern against any entry's own name, directories
    included (`!*.log` also skips a directory `x.log`).
    """
    for index, name in enumerate(parts):
        directory = is_dir or index < len(parts) - 1
        if directory and name in EXCLUDED_DIRS:
            return True
        if any(fnmatchcase(name, pattern) for pattern in EXCLUDED_FILES):
            return True
    return False
