"""The README's console examples are real answers: each runs against a copy of
fixtures/corpus/ and prints exactly what the README shows (issue 21)."""

from pathlib import Path

import pytest

from tests.golden.examples import Example, parse_examples
from tests.golden.runner import Trees, run_example

README = Path(__file__).resolve().parents[2] / "README.md"
EXAMPLES = parse_examples(README)


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.location)
def test_a_readme_example_prints_what_it_shows(example: Example, tmp_path: Path) -> None:
    ran = run_example(example, Trees(tmp_path))
    printed = ran.err if example.on_stderr else ran.out
    assert printed.removesuffix("\n").split("\n") == list(example.expected), example.location
    assert ran.status == example.exit_status
