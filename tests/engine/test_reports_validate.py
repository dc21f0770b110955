"""Reports are built with `model_construct` (no runtime validation, for start-up); here
every kind of report the commands build from real searches must survive pydantic's full
validation unchanged, so a wrongly typed field cannot hide behind the shortcut."""

import shutil
from pathlib import Path

import pytest
from pydantic import BaseModel

from asrch.commands.sample import run_sample
from asrch.commands.scout import run_scout
from asrch.commands.show import run_show
from asrch.commands.survey import run_survey
from asrch.domain.modes import Mode
from asrch.engine.searcher import RipgrepSearcher

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("validate") / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def _reports(root: Path) -> list[BaseModel]:
    s = RipgrepSearcher()
    src, clusters = str(root / "src"), str(root / "samples" / "clusters.txt")
    twentyone = str(root / "samples" / "twentyone.txt")
    return [
        run_scout(s, "connect", str(root), Mode.FIXED),
        run_scout(s, "e", str(root), Mode.FIXED),
        run_scout(s, "no such term anywhere", src, Mode.FIXED),
        run_survey(s, ["connect", "retry", "zzz-none"], [src, str(root / "docs")], Mode.WORD),
        run_sample(s, "hit", clusters, Mode.FIXED, clusters=2, page=1),
        run_sample(s, "hit", clusters, Mode.FIXED, clusters=5, page=9),
        run_show(s, "hit", clusters, Mode.FIXED, line=None, context=2),
        run_show(s, "hit", twentyone, Mode.FIXED, line=None, context=2),
        run_show(s, "hit", clusters, Mode.FIXED, line=3, context=1),
    ]


def test_every_report_validates_to_itself(corpus: Path) -> None:
    for report in _reports(corpus):
        again = type(report).model_validate(report.model_dump())
        assert again == report, type(report).__name__
