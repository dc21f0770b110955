"""A generated tree for the `kinds` examples (D35): the term's top file is a test."""

from pathlib import Path

SOURCE = '''\
"""A pool of connections."""


class Pool:
    def __init__(self, size):
        self.size = size
        self.pool = []

    def take(self):
        return self.pool.pop()

    def give(self, conn):
        self.pool.append(conn)
        return len(self.pool)
'''


def kinds(root: Path) -> None:
    """`pool`: 5 lines in src/pool.py, 12 in tests/test_pool.py, 3 in docs/pool.md."""
    for folder in ("src", "tests", "docs"):
        (root / folder).mkdir()
    (root / "src" / "pool.py").write_text(SOURCE)
    test = "".join(f"def test_pool_{i}():\n    assert pool({i})\n\n" for i in range(6))
    (root / "tests" / "test_pool.py").write_text(test)
    (root / "docs" / "pool.md").write_text("# pool\n\nA pool keeps connections.\nUse pool.take.\n")


def kinds_nested(root: Path) -> None:
    """The `kinds` tree inside a folder named `test` (issue 32, item 7): `test/proj`."""
    (root / "test").mkdir()
    (root / "test" / "proj").mkdir()
    kinds(root / "test" / "proj")


def kinds_lock(root: Path) -> None:
    """`pool`: 5 lines in src/pool.py, 25 in package-lock.json (issue 40: a lockfile is
    no source for the next step)."""
    (root / "src").mkdir()
    (root / "src" / "pool.py").write_text(SOURCE)
    packages = "".join(
        f'    "node_modules/pool-{i}": {{ "version": "1.0.{i}" }},\n' for i in range(25)
    )
    (root / "package-lock.json").write_text('{\n  "packages": {\n' + packages + "  }\n}\n")


def wide_lines(root: Path) -> None:
    """`logo.ai`: 5 lines of `PDF`, 3,000 bytes in all (too long to list, issue 40);
    `twentyone.txt`: 21 lines of `item` (too many)."""
    body = "".join(f"%PDF-1.{i} " + "x" * 590 + "\n" for i in range(5))
    (root / "logo.ai").write_text(body)
    (root / "twentyone.txt").write_text("".join(f"item {i}\n" for i in range(21)))


_BSD_HEADER = """\
// Copyright 2026 The Example Authors. All rights reserved.
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
// Redistributions in binary form must reproduce the above copyright notice.

"""

_FORMAT_CC = """\
#include "format.h"

// Writes the record as binary: the length, then the bytes.
void write_binary(Out& out, const Record& r) {
    out.put(r.size());
    out.put_binary(r.data(), r.size());
}
"""

_FRAME_RS = """\
pub fn decode(frame: &[u8]) -> Option<u32> {
    frame.first().map(|b| u32::from(*b)) // binary: one byte
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_binary_byte() {
        let binary = [7u8];
        assert_eq!(decode(&binary), Some(7));
    }

    #[test]
    fn empty_binary() {
        let binary: [u8; 0] = [];
        assert_eq!(decode(&binary), None);
    }
}
"""


def folded_scout(root: Path) -> None:
    """D53 in scout: `binary` in the BSD licence header of 7 files (2 lines each), 3 lines
    of code in src/format.cc, 1 in src/frame.rs and 5 in its `#[cfg(test)] mod tests`
    (issue 40: the licence header filled scout's top files on a C++ tree)."""
    for folder, names in (
        ("src", ("codec.cc", "io.cc", "net.cc")),
        ("include", ("codec.h", "io.h", "net.h")),
    ):
        (root / folder).mkdir(exist_ok=True)
        for name in names:
            (root / folder / name).write_text(_BSD_HEADER + f"int {name.split('.')[0]}_init();\n")
    (root / "src" / "format.cc").write_text(_BSD_HEADER + _FORMAT_CC)
    (root / "src" / "frame.rs").write_text(_FRAME_RS)
