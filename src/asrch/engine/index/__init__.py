"""The embedded index (D58): a candidate-file source for searches under an indexed root.

An SQLite FTS5 table with the trigram tokenizer (Python's own sqlite3), kept in the
user's cache directory, never in the tree. It only ever narrows which files rg reads:
every answer is still rg's (spec/index.en.md, docs/index.md). `store.py` is the file
and its schema, `build.py` makes or updates it from rg's own walk, `literals.py` says
which trigrams a query's matches must hold, `candidates.py` is the adapter behind the
`Candidates` port that the searcher asks before it counts (`opened.py`: an index kept
open); `fresh.py` keeps the MCP server's walks fresh between calls (`engine/watch.py`).
"""
