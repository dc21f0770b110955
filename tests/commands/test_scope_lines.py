"""D31 in the use cases and the renderers, with a fake `Scopes`: which lines are asked
about, and how the answers are printed (before the snippet, in line order, once per
answer, cut to 120 bytes). Which definitions a real parse finds is tests/engine/."""

from asrch.commands.sample import run_sample
from asrch.commands.show import run_show
from asrch.domain.lines import Definition, Scope
from asrch.domain.query import SearchOptions
from asrch.domain.units import Around, Fold, Unit
from asrch.render.sample import render_sample
from asrch.render.show import render_show
from asrch.spelling import COMMAND_LINE
from tests.support.fake_scopes import FakeScopes
from tests.support.fake_searcher import FakeSearcher

FIXED = SearchOptions()
SOURCE = "".join(
    [
        "class Pool:\n",  # 1
        "    def take(self):\n",  # 2
        "        hit = 1\n",  # 3
        "        x = 2\n",  # 4
        "        y = 3\n",  # 5
        "        z = 4\n",  # 6
        "        w = 5\n",  # 7
        "        return hit\n",  # 8
    ]
)
POOL = Scope(1, b"class Pool:")
TAKE = Scope(2, b"    def take(self):")


def _body(text: str) -> list[str]:
    return [ln for ln in text.split("\n") if ln[:1].isdigit() or ln.startswith("--")]


def test_show_prints_each_header_once_before_the_snippet_that_needs_it() -> None:
    scopes = FakeScopes({3: (POOL, TAKE), 8: (POOL, TAKE)})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, "hit", "pool.py", FIXED, line=None, context=0, scopes=scopes)
    assert scopes.asked == [("pool.py", [3, 8])]
    assert _body(render_show(report, COMMAND_LINE)) == [
        "1=class Pool:",
        "2=    def take(self):",
        "3:        hit = 1",
        "--",
        "8:        return hit",
    ]


def test_a_header_printed_as_a_line_of_the_snippet_is_not_repeated() -> None:
    scopes = FakeScopes({3: (POOL, TAKE)})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, "hit = 1", "pool.py", FIXED, line=None, context=1, scopes=scopes)
    assert _body(render_show(report, COMMAND_LINE)) == [
        "1=class Pool:",
        "2-    def take(self):",
        "3:        hit = 1",
        "4-        x = 2",
    ]


def test_show_line_asks_for_that_line_only_match_or_not() -> None:
    scopes = FakeScopes({5: (POOL, TAKE)})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, "hit", "pool.py", FIXED, line=5, context=1, scopes=scopes)
    assert scopes.asked == [("pool.py", [5])]
    assert _body(render_show(report, COMMAND_LINE))[:2] == [
        "1=class Pool:",
        "2=    def take(self):",
    ]


def test_a_refused_show_asks_nothing() -> None:
    scopes = FakeScopes({})
    engine = FakeSearcher(files={"many.py": "hit\n" * 21})
    report = run_show(engine, "hit", "many.py", FIXED, line=None, context=0, scopes=scopes)
    assert report.refused
    assert scopes.asked == []


def test_sample_asks_for_the_first_and_last_match_of_each_shown_cluster() -> None:
    scopes = FakeScopes({3: (POOL, TAKE), 8: (POOL, TAKE)})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_sample(engine, "hit", "pool.py", FIXED, clusters=3, page=1, scopes=scopes)
    assert scopes.asked == [("pool.py", [3, 8])]
    text = render_sample(report, COMMAND_LINE)
    # Printed once for the answer, though both clusters sit in the same definitions.
    assert text.count("1=class Pool:") == 1
    assert "2-    def take(self):" in text.split("\n")


def test_a_long_header_is_cut_to_120_bytes_from_its_start() -> None:
    """D55: a scope line is short; the match line under it keeps D8's 800 bytes."""
    long_header = Scope(1, b"def f(" + b"a, " * 400 + b"):", name=(4, 5))
    scopes = FakeScopes({3: (long_header,)})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, "hit = 1", "pool.py", FIXED, line=None, context=0, scopes=scopes)
    (first, *_) = _body(render_show(report, COMMAND_LINE))
    assert first.startswith("1=def f(a, a, ")
    assert len(first.encode()) <= 120
    assert first.endswith(f"…[+{1208 - (120 - 2 - len('…[+1208 bytes]'.encode()))} bytes]")


def test_a_name_past_the_head_is_kept_whole() -> None:
    """D55: the header starts at its name, marked with the bytes left out before it."""
    text = b"public static " + b"Map<K, V> " * 12 + b"groupRetries(" + b"int a, " * 30 + b") {"
    at = text.index(b"groupRetries")
    header = Scope(1, text, name=(at, at + len(b"groupRetries")))
    scopes = FakeScopes({3: (header,)})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, "hit = 1", "pool.py", FIXED, line=None, context=0, scopes=scopes)
    (first, *_) = _body(render_show(report, COMMAND_LINE))
    assert first.startswith(f"1=[+{at} bytes]…groupRetries(int a, ")
    assert len(first.encode()) <= 120
    assert first.endswith(" bytes]")


def test_show_scope_prints_the_definition_and_its_scopes_above_it() -> None:
    """D51: the unit's lines in place of the --context window (a definition of at most 40
    lines, whole); the scope lines of line N that lie above it; no term, no line marked."""
    around = Around((Unit("statement", 5, 5), Unit("definition", 2, 8), Unit("definition", 1, 8)))
    scopes = FakeScopes({5: (POOL, TAKE)}, units={5: around})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, None, "pool.py", FIXED, line=5, context=1, scope=True, scopes=scopes)
    assert scopes.asked == [("pool.py", [-5]), ("pool.py", [5])]
    text = render_show(report, COMMAND_LINE)
    assert "  unit: definition\n" in text
    assert _body(text) == [
        "1=class Pool:",
        *(f"{n}-{line}" for n, line in enumerate(SOURCE.splitlines(), 1) if n >= 2),
    ]
    assert report.definition == Definition(2, 8) and report.matches == 0


def test_show_scope_folds_a_docstring_and_keeps_the_scopes_above_the_unit() -> None:
    """D51: a fold of more than 3 lines is 1 line; line N's scope lines stay above the
    unit, though N is printed after the fold."""
    around = Around((Unit("definition", 2, 8),), (Fold("comment", 3, 6),))
    scopes = FakeScopes({7: (POOL, TAKE)}, units={7: around})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, None, "pool.py", FIXED, line=7, context=1, scope=True, scopes=scopes)
    assert _body(render_show(report, COMMAND_LINE)) == [
        "1=class Pool:",
        "2-    def take(self):",
        "-- 4 lines of comment (3-6) --",
        "7-        w = 5",
        "8-        return hit",
    ]


def test_show_scope_without_a_definition_is_the_window_and_a_note() -> None:
    scopes = FakeScopes({}, units="uncertain")
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(engine, "hit", "pool.py", FIXED, line=5, context=1, scope=True, scopes=scopes)
    text = render_show(report, COMMAND_LINE)
    assert _body(text) == ["4-        x = 2", "5-        y = 3", "6-        z = 4"]
    assert text.endswith("note: no definition known: the parse cannot place line 5\n")


def test_show_query_scope_widens_each_match_and_refuses_past_3() -> None:
    """D51: each match's unit, overlapping ones merged and listed once; 4 matches refused."""
    around = Around((Unit("statement", 3, 3), Unit("definition", 2, 8)))
    scopes = FakeScopes({3: (POOL,), 8: (POOL,)}, units={3: around, 8: around})
    engine = FakeSearcher(files={"pool.py": SOURCE})
    report = run_show(
        engine, "hit", "pool.py", FIXED, line=None, context=0, scope=True, scopes=scopes
    )
    text = render_show(report, COMMAND_LINE)
    assert "units[kind,lines]:\n  definition,2-8\n" in text
    assert _body(text)[:2] == ["1=class Pool:", "2-    def take(self):"]
    assert _body(text)[-1] == "8:        return hit"
    many = FakeSearcher(files={"pool.py": SOURCE.replace("x = 2", "hit = 2").replace("y", "hit")})
    refused = run_show(
        many, "hit", "pool.py", FIXED, line=None, context=0, scope=True, scopes=scopes
    )
    assert refused.refused and refused.snippets == ()
    assert "more than the 3 show --scope widens" in render_show(refused, COMMAND_LINE)


# --- D48: a match that leaves the chain printed last says so ------------------------------


def _show(
    found: dict[int, tuple[Scope, ...] | None],
    term: str = "hit",
    heads: frozenset[int] = frozenset(),
) -> list[str]:
    scopes = FakeScopes(found, heads=heads)
    engine = FakeSearcher(files={"pool.py": SOURCE})
    return _body(
        render_show(
            run_show(engine, term, "pool.py", FIXED, line=None, context=0, scopes=scopes),
            COMMAND_LINE,
        )
    )


def test_a_match_at_the_top_level_after_a_scope_gets_its_mark() -> None:
    assert _show({3: (POOL, TAKE), 8: ()}) == [
        "1=class Pool:",
        "2=    def take(self):",
        "3:        hit = 1",
        "--",
        "8=(top level)",
        "8:        return hit",
    ]


TOP = "class Pool:\n    def take(self):\n        hit = 1\n\ndef hit_all():\n"


def _top(found: dict[int, tuple[Scope, ...] | None], heads: frozenset[int]) -> list[str]:
    engine = FakeSearcher(files={"pool.py": TOP})
    scopes = FakeScopes(found, heads=heads)
    report = run_show(engine, "hit", "pool.py", FIXED, line=None, context=0, scopes=scopes)
    return _body(render_show(report, COMMAND_LINE))


def test_a_top_level_line_that_begins_with_its_own_header_gets_no_mark() -> None:
    # Line 5 begins at column 0 with its own definition's header: it says itself that the
    # reader left `take` (spec/scopes section 4).
    found: dict[int, tuple[Scope, ...] | None] = {3: (POOL, TAKE), 5: ()}
    assert _top(found, frozenset({5}))[3:] == ["--", "5:def hit_all():"]
    # After an unplaced line too.
    assert _top({3: None, 5: ()}, frozenset({5}))[2:] == ["--", "5:def hit_all():"]
    # Not its own header: the mark.
    assert _top(found, frozenset())[3:] == ["--", "5=(top level)", "5:def hit_all():"]
    # Its own header, but indented: the mark (it could read as inside `take`).
    assert _show({3: (POOL, TAKE), 8: ()}, heads=frozenset({8}))[-2:] == [
        "8=(top level)",
        "8:        return hit",
    ]


SIBLINGS = "".join(
    [
        "class Pool:\n",  # 1
        "    def take(self):\n",  # 2
        "        hit = 1\n",  # 3
        "        return 2\n",  # 4
        "    def give(self, hit):\n",  # 5
        "        return hit\n",  # 6
        "    if cond:\n",  # 7
        "        def hit_more(self):\n",  # 8
    ]
)
GIVE = Scope(5, b"    def give(self, hit):")


def _siblings(heads: frozenset[int]) -> list[str]:
    found: dict[int, tuple[Scope, ...] | None] = {
        3: (POOL, TAKE),
        5: (POOL,),
        6: (POOL, GIVE),
        8: (POOL,),
    }
    engine = FakeSearcher(files={"pool.py": SIBLINGS})
    scopes = FakeScopes(found, heads=heads)
    report = run_show(engine, "hit", "pool.py", FIXED, line=None, context=0, scopes=scopes)
    return _body(render_show(report, COMMAND_LINE))


def test_the_next_method_indented_as_the_one_it_leaves_needs_no_header_again() -> None:
    assert _siblings(frozenset({5, 8})) == [
        "1=class Pool:",
        "2=    def take(self):",
        "3:        hit = 1",
        "--",
        "5:    def give(self, hit):",  # indented as `take`, which it leaves: its sibling
        "6:        return hit",
        "--",
        # Its own header, but indented deeper than `give`: it could read as inside it.
        "1=class Pool:",
        "8:        def hit_more(self):",
    ]
    # Not a header of its own (the parse says so): `Pool` again, as before.
    assert _siblings(frozenset({8}))[3:5] == ["--", "1=class Pool:"]


def test_a_match_the_parse_cannot_place_gets_its_mark_once() -> None:
    lines = _show({3: None, 8: None})
    assert lines == ["3=(unknown)", "3:        hit = 1", "--", "8:        return hit"]
    assert all(len(line.encode()) <= 20 for line in lines if "=(" in line)


def test_back_in_an_outer_definition_its_header_comes_again() -> None:
    assert _show({3: (POOL, TAKE), 8: (POOL,)})[-3:] == [
        "--",
        "1=class Pool:",
        "8:        return hit",
    ]


def test_a_later_match_of_a_snippet_that_leaves_the_chain_gets_its_mark_in_place() -> None:
    # Lines 3-7 all hold " = ": one snippet; line 5 is placed at the top level.
    found: dict[int, tuple[Scope, ...] | None] = {n: (POOL, TAKE) for n in (3, 4, 6, 7)}
    found[5] = ()
    assert _show(found, " = ") == [
        "1=class Pool:",
        "2=    def take(self):",
        "3:        hit = 1",
        "4:        x = 2",
        "5=(top level)",
        "5:        y = 3",
        "6:        z = 4",
        "7:        w = 5",
    ]


def test_a_file_without_a_grammar_gets_no_mark() -> None:
    assert _show({}) == ["3:        hit = 1", "--", "8:        return hit"]


def test_a_line_that_opens_its_definition_puts_it_in_the_readers_mind() -> None:
    # `def main():` at line 1, then `main()` under a top-level `if`: indented after the
    # header, it would read as inside `main` (spec/scopes section 4).
    source = "def main():\n    pass\nif x:\n    main()\n"
    engine = FakeSearcher(files={"m.py": source})
    for heads, expected in (
        (frozenset({1}), ["1:def main():", "--", "4=(top level)", "4:    main()"]),
        (frozenset(), ["1:def main():", "--", "4:    main()"]),  # a line, not a header
    ):
        scopes = FakeScopes({1: (), 4: ()}, heads=heads)
        report = run_show(engine, "main()", "m.py", FIXED, line=None, context=0, scopes=scopes)
        assert _body(render_show(report, COMMAND_LINE)) == expected
