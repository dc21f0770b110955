"""D53 in scout: the note says how many lines lie where, and what the tables rank by."""

from asrch.domain.notices import FoldedNotice
from asrch.render.notices import notice_text


def test_the_folded_note_in_each_case() -> None:
    assert notice_text(FoldedNotice(24, False, 14, 6)) == (
        "20 of 24 lines lie in header comments (14) and in-file tests (6); "
        "top files and directories rank by the other 4"
    )
    assert notice_text(FoldedNotice(1418, False, 977, 0)) == (
        "977 of 1418 lines lie in header comments; top files and directories rank by the other 441"
    )
    assert notice_text(FoldedNotice(50000, True, 0, 20000, unread=12)) == (
        "20000 of the 50000 lines counted lie in in-file tests; top files and directories "
        "rank by the other 30000 (headers not read in 12 files with fewer lines)"
    )
