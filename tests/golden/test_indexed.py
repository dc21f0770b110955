"""D58: the spec's examples again, each in a tree indexed first (`asrch index`, its
cache the test's own): the documented text, byte for byte, from the index's candidates.

The examples of the index's own spec are left out (an index made first changes what
`--status` says), and so are those on generated trees, which are made seconds before
they run: every file in them is "racy" (D58's 2 s window) and the index would not be
used. An ordinary run takes every 3rd example, the profile `more` all of them
(tests/support/tiers.py)."""

import difflib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from asrch.engine.index import candidates as index_candidates
from tests.golden.examples import Example
from tests.golden.runner import Trees
from tests.golden.test_spec import JAPANESE_EXAMPLES, _ids, _shown
from tests.support.cli import run_asrch
from tests.support.tiers import drawing_more

EXAMPLES = [
    ex for ex in JAPANESE_EXAMPLES if ex.corpus is None and not ex.command.startswith("asrch index")
]
CHOSEN = EXAMPLES if drawing_more() else EXAMPLES[::3]
_INDEX_FIELD = re.compile(r',"index":"(?:used|scanned)"}$')


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Trees]:
    yield Trees(tmp_path_factory.mktemp("golden-indexed"))


def _check(example: Example, trees: Trees, cache: Path) -> None:
    import shlex

    tree = trees.for_example(example)
    env = {"XDG_CACHE_HOME": str(cache)}
    built = run_asrch(["index"], cwd=tree, env=env)
    assert built.status == 0, built.err
    result = run_asrch(shlex.split(example.command)[1:], cwd=tree, env=env)
    # The one difference D58 allows: JSON says whether the index was used.
    shown = [_INDEX_FIELD.sub("}", line) for line in _shown(result, example)]
    if shown != list(example.expected):
        diff = "\n".join(difflib.unified_diff(list(example.expected), shown, lineterm=""))
        pytest.fail(f"indexed: $ {example.command}\n{diff}", pytrace=False)
    other = result.out if example.on_stderr else result.err
    assert other == "", other
    assert result.status == example.exit_status


@pytest.fixture(autouse=True)
def _candidates_however_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus has 21 files: most terms would scan (more than 25 % of them match)."""
    monkeypatch.setattr(index_candidates, "MOST", 1.0)
    monkeypatch.setattr(index_candidates, "UNION_MOST", 1.0)


@pytest.mark.parametrize("example", CHOSEN, ids=_ids(CHOSEN))
def test_example_with_an_index(example: Example, trees: Trees, tmp_path: Path) -> None:
    _check(example, trees, tmp_path)
