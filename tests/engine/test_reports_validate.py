"""The domain builds its reports as plain NamedTuples, checked by mypy but never at run
time (the text path stays cheap). Here every kind of report the commands build from real
searches is validated against its declared field types, recursively, by pydantic in
strict mode (`TypeAdapter(...).validate_python(strict=True)`), so a wrongly typed field
(a list where a tuple is declared, an int where a bool is) cannot hide behind the
shortcut."""

import shutil
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from asrch.commands.sample import run_sample
from asrch.commands.scout import run_scout
from asrch.commands.show import run_show
from asrch.commands.survey import run_survey
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from tests.golden.corpora_sample_show import cap_60000, retention_6000

SCOPES = ScopeReader()

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


def check_type(report: object) -> None:
    """Fail (pydantic's ValidationError) unless every field of `report` is of its
    declared type, strictly: no coercion of a list to a tuple or of a bool to an int."""
    TypeAdapter(type(report)).validate_python(report, strict=True)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("validate")
    shutil.copytree(CORPUS, base / "corpus")
    retention_6000(base)
    cap_60000(base)
    return base


def _reports(base: Path) -> list[object]:
    s = RipgrepSearcher()
    root = base / "corpus"
    src, clusters = str(root / "src"), str(root / "samples" / "clusters.txt")
    twentyone = str(root / "samples" / "twentyone.txt")
    spaced, dense = str(base / "spaced.txt"), str(base / "dense.txt")
    return [
        run_scout(s, "connect", str(root), SearchOptions(mode=Mode.FIXED), scopes=SCOPES),
        run_scout(s, "e", str(root), SearchOptions(mode=Mode.FIXED), scopes=SCOPES),
        run_scout(s, "no such term anywhere", src, SearchOptions(mode=Mode.FIXED), scopes=SCOPES),
        run_scout(s, "dense", str(base), SearchOptions(mode=Mode.FIXED), scopes=SCOPES),  # capped
        run_survey(
            s,
            ["connect", "retry", "zzz-none"],
            [src, str(root / "docs")],
            SearchOptions(mode=Mode.WORD),
        ),
        run_survey(
            s, ["dense", "spaced"], [str(base)], SearchOptions(mode=Mode.FIXED)
        ),  # capped, dominance
        run_sample(
            s, "hit", clusters, SearchOptions(mode=Mode.FIXED), clusters=2, page=1, scopes=SCOPES
        ),
        run_sample(
            s, "hit", clusters, SearchOptions(mode=Mode.FIXED), clusters=5, page=9, scopes=SCOPES
        ),
        run_sample(
            s, "spaced", spaced, SearchOptions(mode=Mode.FIXED), clusters=3, page=1, scopes=SCOPES
        ),  # retention
        run_sample(
            s, "dense", dense, SearchOptions(mode=Mode.FIXED), clusters=1, page=1, scopes=SCOPES
        ),  # capped
        run_show(
            s, "hit", clusters, SearchOptions(mode=Mode.FIXED), line=None, context=2, scopes=SCOPES
        ),
        run_show(
            s,
            "item",
            twentyone,
            SearchOptions(mode=Mode.FIXED),
            line=None,
            context=2,
            scopes=SCOPES,
        ),  # refused
        run_show(
            s, "dense", dense, SearchOptions(mode=Mode.FIXED), line=None, context=2, scopes=SCOPES
        ),  # refused at the cap
        run_show(
            s, "hit", clusters, SearchOptions(mode=Mode.FIXED), line=3, context=1, scopes=SCOPES
        ),
    ]


def test_every_report_holds_its_declared_types(root: Path) -> None:
    reports = _reports(root)
    for report in reports:
        check_type(report)
    refused = [r for r in reports if getattr(r, "refused", False)]
    assert len(refused) == 2, "both refusals are exercised"
    assert any(getattr(r, "capped", False) for r in reports)


def test_the_check_catches_a_list_for_a_tuple_and_a_bool_for_an_int(root: Path) -> None:
    report = run_scout(
        RipgrepSearcher(),
        "connect",
        str(root / "corpus"),
        SearchOptions(mode=Mode.FIXED),
        scopes=SCOPES,
    )
    check_type(report)
    for broken in (
        report._replace(top_files=list(report.top_files)),  # type: ignore[arg-type]
        report._replace(matches=True),
        report._replace(capped=1),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValidationError):
            check_type(broken)
