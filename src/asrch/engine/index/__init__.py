"""The embedded index (D58): a candidate-file source for searches under an indexed root.

An SQLite FTS5 table with the trigram tokenizer (Python's own sqlite3), kept in the
user's cache directory, never in the tree. It only ever narrows which files rg reads:
every answer is still rg's (spec/index.en.md, docs/index.md). `store.py` is the file
and its schema, `build.py` makes or updates it from rg's own walk, `literals.py` says
which trigrams a query's matches must hold, `candidates.py` is the adapter behind the
`Candidates` port that the searcher asks before it counts (`opened.py`: an index kept
open); `fresh.py` and `watch.py` keep the MCP server's walks fresh between calls.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

KEPT: set[str] = set()
"""The real paths of the directories whose walks are kept fresh between searches in
this process (the MCP server's roots): `fresh.py`."""


def keep_fresh(roots: Iterable[str]) -> None:
    """Keep the walks of `roots` between searches (the MCP server's): a search under an
    index there reads inotify's events instead of walking again (nothing of the index is
    imported, nothing is watched until a search under an index asks)."""
    KEPT.update(os.path.realpath(root) for root in roots)
