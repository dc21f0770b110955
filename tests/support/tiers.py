"""Property tests in both tiers (D50; tests/README.md, "Tiers").

A property test that runs rg or asrch per example draws fewer examples in the default
tier, which runs on every interpreter, and has a twin marked `slow`, named `..._more`,
that draws the count the test had before the tiers were split; `nox` runs the twin once,
on the interpreter at hand. The twin calls the same body:

    @pytest.mark.slow
    @settings(SAME_SETTINGS, max_examples=60)
    @given(**SAME_STRATEGIES)
    def test_x_more(fixture, a, b) -> None:
        body(test_x)(fixture, a, b)
"""

from collections.abc import Callable


def body(test: Callable[..., None]) -> Callable[..., None]:
    """The function under a property test's `@given` (hypothesis' `inner_test`), to be
    called from its slow twin with the values the twin drew."""
    inner: Callable[..., None] = test.hypothesis.inner_test  # type: ignore[attr-defined]
    return inner
