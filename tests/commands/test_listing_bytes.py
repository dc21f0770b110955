"""D44: a scout lists its lines when the text the listing prints fits 2,000 bytes, as the
text renderer prints it (render/scout.listing_bytes): measured, never re-derived."""

import pytest

from asrch.commands.scout import run_scout
from asrch.domain.limits import SCOUT_LIST_BYTES
from asrch.domain.query import SearchOptions
from asrch.render.scout import listing_lines, render_scout
from asrch.spelling import COMMAND_LINE
from tests.support.fake_scopes import NO_SCOPES
from tests.support.fake_searcher import FakeSearcher


def _tree(last: int) -> dict[str, str]:
    """`src/a.txt` with 3 matching lines, the last `last` bytes long: the listing is the
    path line (10 bytes) and the 3 numbered lines, `N:` and an LF each."""
    return {"src/a.txt": f"{'needle'.ljust(700, 'x')}\n" * 2 + "needle".ljust(last, "y") + "\n"}


@pytest.mark.parametrize(("last", "listed"), [(581, True), (582, False)])
def test_a_listing_of_2000_printed_bytes_is_listed_and_one_more_byte_is_not(
    last: int, listed: bool
) -> None:
    report = run_scout(
        FakeSearcher(files=_tree(last)), "needle", "src", SearchOptions(), scopes=NO_SCOPES
    )
    assert report.matches == 3
    assert bool(report.listed) is listed
    if listed:
        text = render_scout(report, COMMAND_LINE)
        listing = "".join(f"{line}\n" for line in listing_lines(report.listed))
        assert listing in text
        assert len(listing.encode()) == SCOUT_LIST_BYTES
