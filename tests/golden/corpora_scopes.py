"""The corpus of spec/scopes*.md: small files with nested definitions in 8 languages.

The files live in fixtures/scopes/ (real source, read by the adapter's tests too), not in
fixtures/corpus/, whose counts every other example documents.
"""

import pathlib
import shutil

FIXTURE = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "scopes"


def scopes(root: pathlib.Path) -> None:
    """fixtures/scopes/ copied as it is: `src/pool.py`, `src/table.c`, `src/queue.rs`, …"""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True)
