"""A parsed file's bytes read again after rg read it: only a regular file (a FIFO swapped
in since rg read the file would block `open` forever, so it is opened without blocking),
and only one the scope reader would parse (at most `SCOPE_MAX_BYTES`)."""

from __future__ import annotations

import os
import stat
from typing import Literal

from asrch.domain.limits import SCOPE_MAX_BYTES


def first_bytes(
    path: str, most: int, largest: int = SCOPE_MAX_BYTES
) -> bytes | Literal["too_large", "unreadable"]:
    """The file's first `most` + 1 bytes (all of it when shorter: more than `most` says
    the file goes on), or why none: not a regular file or not readable, or larger than
    `largest` bytes."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError:
        return "unreadable"
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            return "unreadable"
        if status.st_size > largest:
            return "too_large"
        parts: list[bytes] = []
        size = 0
        while size <= most:
            part = os.read(fd, most + 1 - size)
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts)
    except OSError:
        return "unreadable"
    finally:
        os.close(fd)
