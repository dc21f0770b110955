"""docs/json.md's table of notice kinds is every kind the domain declares, in its order
(issue 32: the page listed 9 of 14)."""

import re
from pathlib import Path

from asrch.domain.notices import kinds

DOC = Path(__file__).resolve().parents[2] / "docs" / "json.md"


def test_docs_json_lists_every_notice_kind() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("| kind | the note says |") :].split("\n\n")[0]
    listed = re.findall(r"^  \| `([a-z_]+)` \|", table, re.M)
    assert tuple(listed) == kinds()
