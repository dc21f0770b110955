"""The spec's examples are the tests (D24): both languages, one behaviour.

The documented text is the whole expectation: the stream it shows, the other one empty,
the exit status. No second copy of it (a snapshot) is kept."""

import difflib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.golden.examples import Example, parse_examples
from tests.golden.prose import numeral_differences
from tests.golden.runner import Trees, outside_git, run_example, slug, spec_pairs
from tests.support.cli import Result

PAIRS = spec_pairs()
JAPANESE_EXAMPLES: list[Example] = [ex for ja, _ in PAIRS for ex in parse_examples(ja)]


def _ids(examples: list[Example]) -> list[str]:
    seen: dict[str, int] = {}
    ids = []
    for ex in examples:
        base = slug(ex)
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return ids


@pytest.fixture(scope="session")
def trees(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Trees]:
    base = tmp_path_factory.mktemp("golden")
    assert outside_git(base), f"{base} is inside a git repository; examples must run outside one"
    yield Trees(base)


def test_spec_has_examples() -> None:
    assert PAIRS, "spec/ has no X.md / X.en.md pairs"
    command_specs = [ja for ja, _ in PAIRS if not ja.name.startswith("goals")]
    for ja in command_specs:
        assert parse_examples(ja), f"{ja.name} has no console examples"


@pytest.mark.parametrize(("japanese", "english"), PAIRS, ids=[p[1].name for p in PAIRS])
def test_languages_carry_the_same_examples(japanese: Path, english: Path) -> None:
    ja, en = parse_examples(japanese), parse_examples(english)
    for a, b in zip(ja, en, strict=False):
        assert a.signature == b.signature, f"{a.location} and {b.location} differ:\n" + "\n".join(
            difflib.unified_diff(
                [f"$ {a.command}", *a.expected],
                [f"$ {b.command}", *b.expected],
                a.location,
                b.location,
                lineterm="",
            )
        )
    assert len(ja) == len(en), f"{japanese.name} has {len(ja)} examples, {english.name} {len(en)}"


def _shown(result: Result, example: Example) -> list[str]:
    text = result.err if example.on_stderr else result.out
    return text[:-1].split("\n") if text.endswith("\n") else (text.split("\n") if text else [])


@pytest.mark.parametrize("example", JAPANESE_EXAMPLES, ids=_ids(JAPANESE_EXAMPLES))
def test_example(example: Example, trees: Trees) -> None:
    result = run_example(example, trees)
    shown = _shown(result, example)
    other = result.out if example.on_stderr else result.err
    if shown != list(example.expected):
        diff = "\n".join(
            difflib.unified_diff(
                list(example.expected),
                shown,
                f"spec/{example.file.name}:{example.line}",
                "actual",
                lineterm="",
            )
        )
        pytest.fail(f"$ {example.command}\n{diff}", pytrace=False)
    assert other == "", (
        f"spec/{example.file.name}:{example.line}: unexpected "
        f"{'stdout' if example.on_stderr else 'stderr'}:\n{other}"
    )
    assert result.status == example.exit_status, (
        f"spec/{example.file.name}:{example.line}: exit {result.status}, "
        f"documented {example.exit_status}"
    )


@pytest.mark.parametrize(("japanese", "english"), PAIRS, ids=[p[1].name for p in PAIRS])
def test_languages_write_the_same_numbers(japanese: Path, english: Path) -> None:
    problems = numeral_differences(japanese, english)
    assert not problems, "\n".join(problems)
