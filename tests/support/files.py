"""A tree of files made from a mapping, for the tests that build their own."""

import os
from collections.abc import Mapping
from pathlib import Path


def write_files(root: Path, files: Mapping[str, str | bytes] | Mapping[bytes, bytes]) -> Path:
    """Each name (a relative path, as str or as bytes: any file name) written under
    `root` with its contents (str as UTF-8), its folders made; `root` back."""
    for name, data in files.items():
        path = os.path.join(os.fsencode(root), os.fsencode(name))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(data.encode() if isinstance(data, str) else data)
    return root
