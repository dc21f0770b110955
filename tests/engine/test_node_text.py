"""No node's text is read through the parse's callback (`scopes.parse.node_bytes`).

`parse` hands tree-sitter a callback (its bounds need the progress callback, which a
parse of bytes ignores); py-tree-sitter then reads `Node.text` by calling that callback
again, 64 KiB a node, and has crashed doing it (py-tree-sitter #435: a segfault in
`node_get_text`, once in this suite, in the test regions' reader). Every reader of a
node's bytes slices the bytes parsed instead. The parser is watched here: a call to the
callback once the parse has returned is a `Node.text`."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_asrch
from tests.support.files import write_files

# One file per reader of a node's bytes: Python and Rust test regions (D53), a C `extern`
# and an ERROR holding braces (`--def`, scope lines), a bash heredoc, a Rust macro's items.
TREE = {
    "t.py": b"import x\n\nclass TestA:\n    def test_a(self):\n        needle = 1\n",
    "lib.rs": (
        b"fn needle() {}\n\nmacro_rules! m { () => {} }\nm! { fn needle_in() {} }\n\n"
        b"#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { needle(); }\n}\n"
    ),
    "c.c": (
        b"extern int needle;\nint needle_x;\n"
        b'int f(void) { return FOO("{") needle_x; }\n'
        b"struct repository *repo UNUSED) { needle_x = 1; }\n"
    ),
    "s.sh": b"cat <<EOF\nneedle\nEOF \nneedle_after() { echo needle; }\n",
}


@pytest.fixture
def late_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    import tree_sitter

    real = tree_sitter.Parser
    late: list[int] = []

    class Watched:
        """`tree_sitter.Parser` whose callback says when it is called after the parse."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._parser = real(*args, **kwargs)

        def __setattr__(self, name: str, value: Any) -> None:
            if name == "_parser":
                object.__setattr__(self, name, value)
            else:
                setattr(self._parser, name, value)

        def parse(self, source: Callable[[int, Any], bytes], **kwargs: Any) -> Any:
            done = False

            def read(offset: int, point: Any) -> bytes:
                if done:
                    late.append(offset)
                return source(offset, point)

            tree = self._parser.parse(read, **kwargs)
            done = True
            return tree

    monkeypatch.setattr(tree_sitter, "Parser", Watched)
    return late


@pytest.mark.parametrize(
    "argv",
    [
        ["scout", "needle", "."],
        ["scout", "--def", "needle", "."],
        ["show", "needle", "t.py"],
        ["show", "needle", "lib.rs"],
        ["show", "needle", "c.c", "--line", "3", "--scope"],
        ["show", "needle", "s.sh", "--line", "4", "--scope"],
        ["sample", "needle", "lib.rs"],
    ],
)
def test_no_node_text_read_through_the_callback(
    tmp_path: Path, late_reads: list[int], argv: list[str]
) -> None:
    write_files(tmp_path, TREE)
    done = run_asrch(argv, cwd=tmp_path, cold=False)
    assert done.status == 0, done.stderr
    assert late_reads == []
