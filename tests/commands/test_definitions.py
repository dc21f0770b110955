"""D52 in the use cases, with a fake `Definitions` (FakeScopes.names): which files are
parsed, what is counted and kept, what is said. Which lines a real parse names is
tests/engine/test_definitions.py's."""

import pytest

from asrch.commands import scout
from asrch.commands.scout import run_scout
from asrch.commands.show import run_show
from asrch.domain.definitions import NameLines, Unjudged
from asrch.domain.errors import InputError
from asrch.domain.notices import DefinitionsNotice, NoMatchNotice
from asrch.domain.query import SearchOptions
from asrch.render.notices import notice_text
from tests.support.fake_scopes import FakeScopes
from tests.support.fake_searcher import FakeSearcher

FIXED = SearchOptions()
FILES = {
    "src/pool.py": "def retry():\n    retry()\nRETRY = retry\n",
    "src/queue.py": "retry(1)\n",
    "src/notes.txt": "retry later\n",
}


def _scopes() -> FakeScopes:
    return FakeScopes(
        {},
        names={
            "src/pool.py": NameLines(frozenset({1, 3})),
            "src/queue.py": NameLines(frozenset()),
        },
    )


def test_scout_counts_only_the_definition_lines_and_says_what_it_could_not_judge() -> None:
    scopes = _scopes()
    engine = FakeSearcher(files=FILES)
    report = run_scout(engine, "retry", "src", FIXED, definitions=True, scopes=scopes)
    assert (report.matches, report.files) == (2, 1)
    assert [line.number for f in report.listed for line in f.lines] == [1, 3]
    # Every file that matched was asked, once, with all its matching lines.
    asked = [(file, lines) for file, lines in scopes.asked if lines[:1] == [0]]
    assert asked == [
        ("src/notes.txt", [0, 1]),
        ("src/pool.py", [0, 1, 2, 3]),
        ("src/queue.py", [0, 1]),
    ]
    note = DefinitionsNotice(5, 2, (Unjudged("no_grammar", 1, 1),))
    assert note in report.notices
    assert report.definitions is not None
    assert report.definitions.matches == 5


def test_scout_without_def_asks_no_parse_of_definitions() -> None:
    scopes = _scopes()
    report = run_scout(FakeSearcher(files=FILES), "retry", "src", FIXED, scopes=scopes)
    assert report.matches == 5
    assert report.definitions is None
    assert all(lines[:1] != [0] for _, lines in scopes.asked)


def test_a_zero_answer_whose_search_matched_says_none_is_a_definition() -> None:
    scopes = FakeScopes({}, names={"src/queue.py": NameLines(frozenset())})
    engine = FakeSearcher(files={"src/queue.py": "retry(1)\nretry(2)\n"})
    report = run_scout(engine, "retry", "src", FIXED, definitions=True, scopes=scopes)
    assert report.matches == 0
    assert report.notices == (DefinitionsNotice(2, 0),)
    assert not any(isinstance(n, NoMatchNotice) for n in report.notices)
    assert (
        notice_text(report.notices[0]) == "2 matching lines, none where a definition's name stands"
    )


def test_a_search_that_matched_nothing_gets_the_plain_zero_note() -> None:
    engine = FakeSearcher(files={"src/queue.py": "x\n"})
    report = run_scout(engine, "retry", "src", FIXED, definitions=True, scopes=_scopes())
    assert report.matches == 0
    assert not any(isinstance(n, DefinitionsNotice) for n in report.notices)


def test_show_keeps_definition_lines_as_matches_and_the_others_as_context() -> None:
    scopes = _scopes()
    engine = FakeSearcher(files=FILES)
    report = run_show(
        engine, "retry", "src/pool.py", FIXED, line=None, context=1, definitions=True, scopes=scopes
    )
    assert report.matches == 2
    lines = [(ln.number, ln.is_match) for s in report.snippets for ln in s.lines]
    assert lines == [(1, True), (2, False), (3, True)]
    assert report.notices == ()


def test_show_over_20_definition_lines_is_refused_with_their_count() -> None:
    text = "".join(f"retry{n} = 1\nretry()\n" for n in range(25))
    names = NameLines(frozenset(range(1, 50, 2)))
    scopes = FakeScopes({}, names={"a.py": names})
    engine = FakeSearcher(files={"a.py": text})
    report = run_show(
        engine, "retry", "a.py", FIXED, line=None, context=0, definitions=True, scopes=scopes
    )
    assert (report.refused, report.matches) == (True, 25)


def test_show_def_with_line_is_refused() -> None:
    engine = FakeSearcher(files=FILES)
    try:
        run_show(
            engine, "retry", "src/pool.py", FIXED, line=1, context=0, definitions=True,
            scopes=_scopes(),
        )  # fmt: skip
    except InputError as error:
        assert "keeps matches" in str(error)
    else:
        raise AssertionError("not refused")


def test_uncertain_lines_are_counted_apart_never_kept() -> None:
    scopes = FakeScopes({}, names={"a.py": NameLines(frozenset({1}), frozenset({2}))})
    engine = FakeSearcher(files={"a.py": "retry = 1\nretry(\n"})
    report = run_scout(engine, "retry", "a.py", FIXED, definitions=True, scopes=scopes)
    assert report.matches == 1
    assert DefinitionsNotice(2, 1, (Unjudged("uncertain", 1, 1),)) in report.notices


def test_files_past_the_limit_are_not_read_and_are_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scout, "DEF_FILES_MAX", 1)
    scopes = _scopes()
    engine = FakeSearcher(files=FILES)
    report = run_scout(engine, "retry", "src", FIXED, definitions=True, scopes=scopes)
    # Path order: src/notes.txt first (read: no grammar), then the 2 others unread.
    assert [file for file, lines in scopes.asked if lines[:1] == [0]] == ["src/notes.txt"]
    note = DefinitionsNotice(5, 0, (Unjudged("no_grammar", 1, 1), Unjudged("file_limit", 2, 4)))
    assert report.notices == (note,)
    assert notice_text(note) == (
        "5 matching lines in 3 files not counted: not parsed (no grammar 1, past the first "
        "500 files 2)"
    )


def test_show_of_a_file_not_parsed_is_answered_from_the_count_without_reading_it_all() -> None:
    engine = FakeSearcher(files={"big.log": "retry\n" * 30})
    report = run_show(
        engine, "retry", "big.log", FIXED, line=None, context=0, definitions=True,
        scopes=_scopes(),
    )  # fmt: skip
    assert (report.matches, report.refused) == (0, False)
    assert report.notices == (DefinitionsNotice(30, 0, (Unjudged("no_grammar", 1, 30),)),)
    assert engine.called("scan") == [("scan", "retry", "big.log", 0, 20, 50_000)]
