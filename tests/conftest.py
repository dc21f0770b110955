"""Settings for the whole suite, and D50's check that each tier asked for ran a test."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from asrch.engine import process
from tests.support.tiers import MORE

# No test here times anything (speed is measured in bench/, against rg): hypothesis'
# per-example deadline would only make examples fail when the machine is busy.
# Under CI (`.ci/run`, a fresh clone with no example database) the draws are derandomized:
# the same commit draws the same examples, so a run's colour is the code's, not the
# seed's. Outside CI they stay random, which is how the draws find new cases.
settings.register_profile("asrch", deadline=None, derandomize=bool(os.environ.get("CI")))
# `more`: the same settings; the property tests that draw few examples in an ordinary run
# draw their full counts under it (tests/support/tiers.py). nox's `tests` session, the
# one run of every test (D50), sets HYPOTHESIS_PROFILE=more.
settings.register_profile(MORE, settings.get_profile("asrch"))
_PROFILES = ("asrch", MORE)
_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "asrch"
settings.load_profile(_PROFILE if _PROFILE in _PROFILES else "asrch")  # else refused below


@pytest.fixture(autouse=True, scope="session")
def _a_cache_of_the_suites_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every run's cache directory (`$XDG_CACHE_HOME/asrch`, where `asrch index` writes,
    D58) is the suite's own, empty at the start: no index of the user's is read, none is
    left in the user's cache. A test that indexes makes a cache of its own under it."""
    patch = pytest.MonkeyPatch()
    cache = tmp_path_factory.mktemp("xdg-cache")
    # Made here, not by the first `asrch index` of whichever test runs first: every search
    # of the suite looks for an index above its directory (and finds none), the same way
    # whatever the order the tests run in.
    (cache / "asrch").mkdir()
    patch.setenv("XDG_CACHE_HOME", str(cache))
    yield
    patch.undo()


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tier first, in its collected order, then the default tier in its order.

    A run of both tiers on 2 cores (nox's `tests`) otherwise reached its longest tests
    (a real pip install, 40-50 s under load) near the end, and one worker ran them alone
    while the other had nothing left: started first, they overlap the short tests. The
    order is the same in every xdist worker (it depends only on the markers)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# --- D50: a tier that ran no test fails the run ------------------------------------------

TIERS = ("default", "slow")
"""`slow` is the tests marked `@pytest.mark.slow`, `default` every other one."""

_ran: dict[str, int] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tiers",
        default="",
        metavar="TIER,...",
        help=(
            "fail the run unless each of these tiers (default, slow) ran at least one test "
            "that was not skipped (D50; the nox sessions pass it)"
        ),
    )


def _required(config: pytest.Config) -> list[str]:
    named = [t.strip() for t in str(config.getoption("--tiers")).split(",") if t.strip()]
    unknown = sorted(set(named) - set(TIERS))
    if unknown:
        raise pytest.UsageError(
            f"--tiers: unknown tier {', '.join(unknown)}; allowed: {', '.join(TIERS)}"
        )
    return named


def pytest_configure(config: pytest.Config) -> None:
    _required(config)  # a misspelt tier stops the run before it starts
    if _PROFILE not in _PROFILES:  # and so does a misspelt profile
        raise pytest.UsageError(
            f"HYPOTHESIS_PROFILE={_PROFILE}: unknown profile; allowed: {', '.join(_PROFILES)}"
        )
    _ran.clear()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Counted where the reports arrive: in the one process, or in xdist's controller
    (the workers' reports are replayed there with their markers as keywords)."""
    ran = report.when == "call" and not report.skipped
    if ran:
        tier = "slow" if "slow" in report.keywords else "default"
        _ran[tier] = _ran.get(tier, 0) + 1


def _empty_tiers(config: pytest.Config) -> list[str]:
    return [tier for tier in _required(config) if not _ran.get(tier)]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller judges
        return
    if _empty_tiers(session.config) and exitstatus in (
        pytest.ExitCode.OK,
        pytest.ExitCode.NO_TESTS_COLLECTED,
    ):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    config = terminalreporter.config
    if hasattr(config, "workerinput") or not _required(config):
        return
    counts = ", ".join(f"{tier} {_ran.get(tier, 0)}" for tier in TIERS)
    empty = _empty_tiers(config)
    if empty:
        terminalreporter.write_line(
            f"D50: no test of the {' and '.join(empty)} tier ran (tests run per tier: {counts})",
            red=True,
            bold=True,
        )
    else:
        terminalreporter.write_line(f"tests run per tier: {counts}")
