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


def scopes_large(root: pathlib.Path) -> None:
    """`src/big.c`, 6,000 small C functions then `lookup` (over 256 KiB: scout's listing
    reads no scope lines from it, issue 39), and `src/small.c`; `checksum` in both."""
    (root / "src").mkdir()
    functions = "".join(
        f"int step_{i:04d}(int x)\n{{\n  return x + {i};\n}}\n\n" for i in range(6000)
    )
    lookup = "int lookup(int i)\n{\n  return step_0001(i) + checksum;\n}\n"
    (root / "src" / "big.c").write_text(functions + lookup)
    small = "int checksum;\n\nint verify(void)\n{\n  return checksum == 0;\n}\n"
    (root / "src" / "small.c").write_text(small)
