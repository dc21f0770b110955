"""Settings for the whole suite."""

from collections.abc import Iterator

import pytest
from hypothesis import settings

from asrch.engine import process

# No test here times anything (speed is measured in bench/, against rg): hypothesis'
# per-example deadline would only make examples fail when the machine is busy.
settings.register_profile("asrch", deadline=None)
settings.load_profile("asrch")


@pytest.fixture(autouse=True, scope="session")
def _rg_not_tied_to_the_test_worker() -> Iterator[None]:
    """The rg children that in-process runs start from a test worker are not tied to the
    worker's death (PR_SET_PDEATHSIG).

    The tie is a run-time hook, so it makes subprocess fork() the whole interpreter
    instead of vfork(): in a worker of 180-300 MB with live threads that cost 24-41 ms
    per rg start against 3.5 ms without it, 150 s of a 330 s default tier (4,800
    starts). Nothing in this process is killed, so the tie is not what these runs test;
    it is held where it matters, in a real asrch process killed by SIGKILL
    (tests/end_to_end/test_signals.py, `..._killed_takes_its_rg_with_it`, command line
    and server; both fail without the tie), and every fresh `python -m asrch` the suite
    starts keeps it."""
    patch = pytest.MonkeyPatch()
    patch.setattr(process, "_die_with_parent", lambda: None)
    yield
    patch.undo()
