"""engine/texts.py: which lines of texts asrch holds a query matches, by one rg over them
all, held to rg's own answer on the files the texts were read from, in every mode."""

from pathlib import Path

import pytest

from asrch.domain.modes import Mode
from asrch.domain.query import Query, SearchOptions
from asrch.engine.searcher import RipgrepSearcher

SEARCHER = RipgrepSearcher()
FILES = {
    "a.c": "// Copyright A\n// binary forms\n// BINARY\n\nint binary_size;\n",
    "b.py": "# binary\n# no match\n# binary, binary\nx = 'binary'\n",
    "c.rs": "/* not\n binaryfoo */\n\nfn binary() {}\n",
    "empty.go": "",
    "d.txt": "binary",  # no line end
}
QUERIES = [
    Query("binary"),
    Query("binary", SearchOptions(ignore_case=True)),
    Query("binary", SearchOptions(mode=Mode.WORD)),
    Query("binary", SearchOptions(mode=Mode.IDENTIFIER)),
    Query(r"bin\w+y", SearchOptions(mode=Mode.REGEX)),
]


@pytest.mark.parametrize(
    "query", QUERIES, ids=lambda q: f"{q.options.mode}-{q.options.ignore_case}"
)
def test_the_lines_of_texts_match_as_in_their_files(tmp_path: Path, query: Query) -> None:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    files = [str(tmp_path / name) for name in FILES]
    # Each text: its file's first 3 lines, as a header is read.
    texts = {f: b"".join(Path(f).read_bytes().splitlines(keepends=True)[:3]) for f in files}
    found = SEARCHER.lines_matching(query, texts)
    whole = SEARCHER.matching_lines(query, files, keep=100)
    expected = {f: [ln.number for ln in whole[f] if ln.number <= 3] for f in files}
    assert found == expected
    assert any(found.values())


def test_no_text_is_no_search() -> None:
    assert SEARCHER.lines_matching(Query("x"), {}) == {}
