"""Where the index of a directory lives: cheap to ask on every search (no sqlite3, no
hashing unless a name is too long), since a search first asks whether one exists."""

from __future__ import annotations

import os
from collections.abc import Mapping

_NAME_MAX = 200


def cache_dir(environ: Mapping[str, str]) -> str:
    """`$XDG_CACHE_HOME/asrch`, else `~/.cache/asrch` (an XDG path must be absolute, as
    the XDG spec says; a relative one is ignored)."""
    base = environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = environ.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".cache")
    return os.path.join(base, "asrch")


def _escaped(root: str) -> str:
    """The real path `root` as one file name: `%` and `/` escaped (readable in a
    listing); a hash when that is too long."""
    name = root.replace("%", "%25").replace("/", "%2F")
    if len(os.fsencode(name)) > _NAME_MAX:
        import hashlib  # noqa: PLC0415 (only for a long root)

        name = "sha256-" + hashlib.sha256(os.fsencode(root)).hexdigest()
    return name


def index_name(root: str) -> str:
    """The file name of the index of the directory whose real path is `root`."""
    return f"{_escaped(root)}.index"


def look_record_path(root: str, environ: Mapping[str, str]) -> str:
    """Where the record of the last look at the ignore files of the tree whose real
    path is `root` lives (`engine.ignore_record`): a directory of their own, apart
    from the indexes (`covering` looks for those by name)."""
    return os.path.join(cache_dir(environ), "looks", f"{_escaped(root)}.look")


def index_path(root: str, environ: Mapping[str, str]) -> str:
    return os.path.join(cache_dir(environ), index_name(root))


def covering(real: str, environ: Mapping[str, str]) -> tuple[str, str] | None:
    """The nearest indexed directory at or above the real path `real`, and its index
    file; None when there is none (one `stat` of the cache directory when it is absent)."""
    directory = cache_dir(environ)
    if not os.path.isdir(directory):
        return None
    here = real
    while True:
        path = os.path.join(directory, index_name(here))
        if os.path.exists(path):
            return here, path
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
