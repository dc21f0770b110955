"""How many examples a property test draws (D50; tests/README.md, "Tiers").

A property test that runs rg or asrch per example, or draws hundreds of examples, draws
a few in an ordinary run (the default tier, which nox runs on every interpreter) and
more under the hypothesis profile `more` (`HYPOTHESIS_PROFILE=more`, registered in
tests/conftest.py), which nox's `tests` session loads for its one run of every test:

    @settings(max_examples=examples(20, more=60))
    @given(...)
    def test_x(...) -> None: ...

One test, one body: the count is the only thing the profile changes.
"""

from hypothesis import settings

MORE = "more"
"""The profile of the run that draws the full counts."""


def drawing_more() -> bool:
    """Whether this run loaded the profile `more` (asked when a test module is imported,
    after tests/conftest.py has loaded the run's profile)."""
    return settings.get_current_profile_name() == MORE


def examples(default: int, *, more: int) -> int:
    """`more` under the profile `more`, else `default`."""
    return more if drawing_more() else default
