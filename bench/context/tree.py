"""The searched tree: the running interpreter's stdlib sources, copied outside any repo.

Copied (hard links where the filesystem allows) without `site-packages/` (third-party
installs, different on every machine) and `__pycache__/` (compiled caches made by use),
so the tree is the stdlib as it ships for this Python version. It lives in a temporary
directory outside any git repository, so no ignore file of an enclosing project changes
what either policy searches.
"""

import os
import shutil
import sysconfig
from pathlib import Path

LEFT_OUT = ("site-packages", "__pycache__")


def stdlib_source() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def build(target: Path, source: Path | None = None) -> Path:
    """Copy `source` (default: this interpreter's stdlib) to `target`; return `target`."""
    origin = stdlib_source() if source is None else source

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {name for name in names if name in LEFT_OUT}

    shutil.copytree(origin, target, symlinks=True, ignore=ignore, copy_function=_link_or_copy)
    return target
