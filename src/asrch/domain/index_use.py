"""What an answer's JSON `index` field says (D58), from the candidate source a search
asked: one reading for the command line and the MCP server alike."""

from __future__ import annotations

from typing import Literal

from asrch.domain.ports import Candidates

IndexUse = Literal["used", "scanned", "ignored"]


def index_use(source: Candidates | None) -> tuple[IndexUse | None, str | None]:
    """`used`, `scanned` or `ignored` where an index covers a searched directory (None:
    none does), and why one was ignored."""
    if source is None or not source.present:
        return None, None
    if source.note is not None:
        return "ignored", source.note
    return ("used" if source.used else "scanned"), None
