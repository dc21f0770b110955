"""The protocol's next step (D28): the command an agent pastes after this answer (pure).

A step is a command and its arguments by the command table's names (`NextStep`), run
from the working directory of the call that suggested it: the paths are joined with the
searched path (rows stay relative to it, D26), and the mode, the case and the filters of
the call are carried over. `NO_STEP`: no next step. Each surface spells it (D49).

The rules (spec/next_step*.md):
- survey: `scout` the most selective (term, path) pair whose count is exact (fewest
  matching lines, then fewest files, then by_path's order); when every pair that matched
  is a lower bound, the most selective term in its dominant path (D36);
- scout: `sample` the top file of `source`, else `test`, else `docs` (D35); a scout that
  lists its lines, none (D44);
- sample: `show` at the line of the first match of the page's first cluster; past the last
  page, the last page;
- show: a refused show, `sample` the file; otherwise none (it printed every match, or
  the window asked for).
"""

from collections.abc import Sequence
from enum import Enum

from asrch.domain.limits import SAMPLE_CLUSTERS_DEFAULT
from asrch.domain.query import Query, SearchOptions
from asrch.domain.text_safety import pastes
from asrch.domain.words import NextStep, Value

NO_STEP = NextStep("", ())


def carried(query: Query) -> list[tuple[str, Value]]:
    """The options of the current call that the next one must repeat: every search
    option not at its default, in `SearchOptions`' order, by its argument's name (a
    field is named as its argument), so a new option is carried without a line here."""
    defaults = SearchOptions._field_defaults
    return [
        (name, value.value if isinstance(value, Enum) else value)
        for name, value in query.options._asdict().items()
        if value != defaults[name]
    ]


def joined(target: str, relative: str) -> str:
    """A row's path (relative to `target`) as a path from the working directory."""
    base = target.rstrip("/") or "/"
    if base == ".":
        return relative
    return base + relative if base == "/" else f"{base}/{relative}"


def step(command: str, arguments: Sequence[tuple[str, Value]]) -> NextStep:
    """The step, or no step when it cannot be pasted as one line: a word holding a
    control character or a byte that is not UTF-8 (how long a line may be is each
    surface's business)."""
    words = [v for _, value in arguments for v in _words(value)]
    if not all(pastes(w) for w in words):
        return NO_STEP
    return NextStep(command, tuple(arguments))


def _words(value: Value) -> tuple[str, ...]:
    if isinstance(value, tuple):
        return value
    return (value,) if isinstance(value, str) else ()


def survey_step(
    queries: Sequence[Query],
    rows: Sequence[tuple[int, int, str | None]],
    pairs: Sequence[tuple[int, int, int, bool, str]] = (),
) -> NextStep:
    """`rows[t]`: term t's (matches, files, dominant path). `pairs`: each (term, path) of
    the answer as (term index, matches, files, capped, path as typed), in by_path's order:
    the most selective exact one wins (D36); only when none is exact, the rows' rule."""
    exact = [
        (matches, files, order, term, path)
        for order, (term, matches, files, capped, path) in enumerate(pairs)
        if matches and not capped
    ]
    if exact:
        _, _, _, term, path = min(exact)
        return step(
            "scout", [("query", queries[term].term), ("path", path), *carried(queries[term])]
        )
    candidates = [
        (matches, files, index)
        for index, (matches, files, dominant) in enumerate(rows)
        if matches and dominant is not None
    ]
    if not candidates:
        return NO_STEP
    _, _, index = min(candidates)
    query = queries[index]
    dominant = rows[index][2]
    assert dominant is not None
    return step("scout", [("query", query.term), ("path", dominant), *carried(query)])


def scout_step(query: Query, target: str, top_file: str | None, *, directory: bool) -> NextStep:
    """`top_file`: the file D35 picks (relative to `target`). A scout that listed its
    lines gets no step at all (D44): the caller does not ask."""
    if top_file is None:
        return NO_STEP
    file = joined(target, top_file) if directory else target
    return step("sample", [*_file(query, file), *carried(query)])


def sample_step(
    query: Query,
    file: str,
    *,
    clusters: int,
    pages: int,
    per_page: int,
    first_match: int | None,
) -> NextStep:
    """`first_match`: the first match of the page's first cluster (None: an empty page,
    past the last). The page's clusters are what the agent has just read, so the step is
    the closest look at them, not the next page: on the context benchmark
    (docs/context.md) paging first sent the scripted agent through every page of its
    top file (31 of 51 answers sources first, 29 with 20 calls); showing first, 35 and
    37."""
    if clusters == 0:
        return NO_STEP
    if first_match is None:
        sizing = [] if per_page == SAMPLE_CLUSTERS_DEFAULT else [("clusters", per_page)]
        return step("sample", [*_file(query, file), *carried(query), *sizing, ("page", pages)])
    return step("show", [*_file(query, file), *carried(query), ("line", first_match)])


def show_step(query: Query, file: str, *, refused: bool, scope_line: int | None = None) -> NextStep:
    """A refused show: `sample` the file; a refused `--scope` (D51) whose matches are
    known: `--line --scope` at the first of them."""
    if not refused:
        return NO_STEP
    if scope_line is not None:
        at = [("line", scope_line), ("scope", True)]
        return step("show", [*_file(query, file), *carried(query), *at])
    return step("sample", [*_file(query, file), *carried(query)])


def _file(query: Query, file: str) -> list[tuple[str, Value]]:
    return [("query", query.term), ("file", file)]
