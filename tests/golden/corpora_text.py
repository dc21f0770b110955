"""A generated tree of hostile text (issue 32, item 6): characters that print nothing, or
reorder what prints around them, in a file's lines and in a file's name. Made at test
time: such characters do not belong in fixtures/corpus/ (an editor or a review shows
them as nothing)."""

from pathlib import Path

# Line 4 reads, in a terminal that obeys the bidi controls, as if `// admin` were a
# comment (the Trojan Source trick); line 5 hides "AB" in tag characters; line 6 holds
# a zero width space and a byte-order mark inside the line.
HIDDEN = (
    "class Gate:  # \u2067owner\u2069\n"
    "    def check(self, role):\n"
    '        """Only users."""\n'
    '        if role != "user\u202e \u2066// admin\u2069\u2066":\n'
    '            return "tag\U000e0041\U000e0042"\n'
    '        return "zero\u200bwidth\ufeff"\n'
)


def hostile_text(root: Path) -> None:
    """`return` in hidden.py; `needle` in a file whose name holds U+202E."""
    (root / "hidden.py").write_text(HIDDEN, encoding="utf-8")
    (root / "invoice\u202etxt.py").write_text("needle = 1\n", encoding="utf-8")


BOM_PY = 'class A:\n    """Doc."""\n\n    foo = 1\n'


def encodings(root: Path) -> None:
    """Files that start with a byte-order mark (issue 32, item 4): rg decodes them."""
    (root / "u16.py").write_bytes(b"\xff\xfe" + "a = 1\n上 = 2\nfoo = 3\n".encode("utf-16-le"))
    (root / "bom.py").write_bytes(b"\xef\xbb\xbf" + BOM_PY.encode())
