"""The use cases, one module per command, so a command imports only what it runs.

Each takes validated arguments and a `Searcher` and returns a report; all I/O sits
behind the `Searcher`.
"""
