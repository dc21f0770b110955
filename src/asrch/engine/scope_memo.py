"""Scope lines kept between calls (issue 41, item 5): a server's scout lists the same
files' lines again and again, and their parse cost most of a warm call.

What is kept is each answer (a line's scopes, and whether it heads one) by file, beside
the bytes it was read from. An answer is used again only for a file that reads the same
bytes now (compared whole: a rewrite that keeps the size, the inode and the time stamp
still misses), so no answer outlives the file it was read from. Bounded: at most
`MEMO_BYTES` of files' bytes and answers held, the least recently asked dropped first.
Pure Python, no parse: the server makes one at its start, without importing tree-sitter.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from asrch.domain.lines import Scope

MEMO_BYTES = 16 << 20
"""What a memo holds at most: the files' bytes, and `_ANSWER_BYTES` an answer."""
_ANSWER_BYTES = 256
"""An answer's size as counted against `MEMO_BYTES` (a few scope lines of ≤ 120 bytes)."""

Answers = dict[tuple[int, int], "tuple[tuple[Scope, ...], bool] | None"]
"""By (line number, byte where the walk went to on it): the line's scopes and whether it
heads one of them, or None: the parse cannot place it (D48). A line whose walk was cut
short by the file's bound is not answered (it may be placed next time)."""


class ScopeMemo:
    """The answers of the files read so far, safe to share between calls on threads."""

    def __init__(self, limit: int = MEMO_BYTES) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._files: OrderedDict[str, tuple[bytes, Answers]] = OrderedDict()
        self._size = 0

    @property
    def size(self) -> int:
        """What the memo holds now, as counted against its limit."""
        return self._size

    def answers(self, file: str, data: bytes) -> Answers:
        """The answers kept for `file` when it read `data` (a copy), else none."""
        with self._lock:
            kept = self._files.get(file)
            if kept is None or kept[0] != data:
                return {}
            self._files.move_to_end(file)
            return dict(kept[1])

    def keep(self, file: str, data: bytes, found: Answers) -> None:
        """Add the answers `found` for `file` as it read `data` (replacing those of
        other bytes), then drop the least recently asked files past the limit."""
        if not found:
            return
        with self._lock:
            kept = self._files.pop(file, None)
            if kept is not None:
                self._size -= _cost(*kept)
                if kept[0] == data:
                    found = {**kept[1], **found}
            entry = (data, found)
            if _cost(*entry) > self._limit:
                return
            self._files[file] = entry
            self._size += _cost(*entry)
            while self._size > self._limit:
                _, dropped = self._files.popitem(last=False)
                self._size -= _cost(*dropped)


def _cost(data: bytes, answers: Answers) -> int:
    return len(data) + _ANSWER_BYTES * len(answers)
