"""The domain builds its reports as plain NamedTuples, checked by mypy but never at run
time (the text path stays cheap). Here every kind of report the commands build from real
searches is held to its declared field types, recursively, so a wrongly typed field (a
list where a tuple is declared, an int where a bool is) cannot hide behind the shortcut."""

import shutil
import types
import typing
from enum import Enum
from pathlib import Path

import pytest

from asrch.commands.sample import run_sample
from asrch.commands.scout import run_scout
from asrch.commands.show import run_show
from asrch.commands.survey import run_survey
from asrch.domain.modes import Mode
from asrch.domain.query import SearchOptions
from asrch.engine.searcher import RipgrepSearcher
from tests.golden.corpora_sample_show import cap_60000, retention_6000

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


def check_type(value: object, expected: object, where: str) -> None:
    """Fail unless `value` is exactly of the annotated type `expected`."""
    origin = typing.get_origin(expected)
    if expected is typing.Any:
        return
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(expected):
            try:
                check_type(value, option, where)
                return
            except AssertionError as exc:
                errors.append(str(exc))
        raise AssertionError(f"{where}: {value!r} matches none of {expected}: {errors}")
    if origin is typing.Literal:
        assert value in typing.get_args(expected), f"{where}: {value!r} is not one of {expected}"
        return
    if expected is type(None):
        assert value is None, f"{where}: {value!r} is not None"
        return
    if origin is tuple:
        assert type(value) is tuple, f"{where}: {type(value).__name__} where a tuple is declared"
        args = typing.get_args(expected)
        if len(args) == 2 and args[1] is Ellipsis:
            for i, item in enumerate(value):
                check_type(item, args[0], f"{where}[{i}]")
        else:
            assert len(value) == len(args), f"{where}: {len(value)} items, {len(args)} declared"
            for i, (item, arg) in enumerate(zip(value, args, strict=True)):
                check_type(item, arg, f"{where}[{i}]")
        return
    assert isinstance(expected, type), f"{where}: unsupported annotation {expected!r}"
    if expected in (int, str, bytes, bool):
        assert type(value) is expected, f"{where}: {type(value).__name__}, declared {expected}"
        return
    assert isinstance(value, expected), f"{where}: {type(value).__name__}, declared {expected}"
    if issubclass(expected, Enum):
        return
    hints = typing.get_type_hints(expected)
    if issubclass(expected, tuple) and hasattr(expected, "_fields"):
        for name in expected._fields:
            check_type(getattr(value, name), hints[name], f"{where}.{name}")


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
        run_scout(s, "connect", str(root), SearchOptions(mode=Mode.FIXED)),
        run_scout(s, "e", str(root), SearchOptions(mode=Mode.FIXED)),
        run_scout(s, "no such term anywhere", src, SearchOptions(mode=Mode.FIXED)),
        run_scout(s, "dense", str(base), SearchOptions(mode=Mode.FIXED)),  # capped
        run_survey(
            s,
            ["connect", "retry", "zzz-none"],
            [src, str(root / "docs")],
            SearchOptions(mode=Mode.WORD),
        ),
        run_survey(
            s, ["dense", "spaced"], [str(base)], SearchOptions(mode=Mode.FIXED)
        ),  # capped, dominance
        run_sample(s, "hit", clusters, SearchOptions(mode=Mode.FIXED), clusters=2, page=1),
        run_sample(s, "hit", clusters, SearchOptions(mode=Mode.FIXED), clusters=5, page=9),
        run_sample(
            s, "spaced", spaced, SearchOptions(mode=Mode.FIXED), clusters=3, page=1
        ),  # retention
        run_sample(s, "dense", dense, SearchOptions(mode=Mode.FIXED), clusters=1, page=1),  # capped
        run_show(s, "hit", clusters, SearchOptions(mode=Mode.FIXED), line=None, context=2),
        run_show(
            s, "item", twentyone, SearchOptions(mode=Mode.FIXED), line=None, context=2
        ),  # refused
        run_show(
            s, "dense", dense, SearchOptions(mode=Mode.FIXED), line=None, context=2
        ),  # refused at the cap
        run_show(s, "hit", clusters, SearchOptions(mode=Mode.FIXED), line=3, context=1),
    ]


def test_every_report_holds_its_declared_types(root: Path) -> None:
    reports = _reports(root)
    for report in reports:
        check_type(report, type(report), type(report).__name__)
    refused = [r for r in reports if getattr(r, "refused", False)]
    assert len(refused) == 2, "both refusals are exercised"
    assert any(getattr(r, "capped", False) for r in reports)


def test_the_checker_catches_a_list_where_a_tuple_is_declared(root: Path) -> None:
    report = run_scout(
        RipgrepSearcher(), "connect", str(root / "corpus"), SearchOptions(mode=Mode.FIXED)
    )
    broken = report._replace(top_files=list(report.top_files))  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="where a tuple is declared"):
        check_type(broken, type(broken), "ScoutReport")
