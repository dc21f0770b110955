"""`survey`: several terms compared across several candidate paths."""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from asrch.domain.counting import Tally, row_path, top_files
from asrch.domain.errors import InputError
from asrch.domain.filters import NO_FILTERS, Filters
from asrch.domain.limits import DOMINANCE_SHARE, MAX_PATHS, MAX_TERMS, SURVEY_PLACES_MAX
from asrch.domain.modes import Mode
from asrch.domain.next_step import NO_STEP, survey_step
from asrch.domain.notices import (
    BinaryNotice,
    CapNotice,
    DominanceNotice,
    Notice,
    SkippedNotice,
    broad_notice,
    cap_notice,
    is_broad,
    no_match,
    term_hints,
)
from asrch.domain.overlaps import overlap_notices
from asrch.domain.ports import Entry
from asrch.domain.query import Query
from asrch.domain.words import NextStep, each, given


class TermTotal(NamedTuple):
    """One `overall` row: a term summed over every candidate path (twice if given twice)."""

    term: str
    matches: int
    files: int
    capped: bool
    dominant_path: str | None
    """The candidate path, as typed, with most matching lines; ties to the earliest."""


class Place(NamedTuple):
    """One matching line of a rare term (D56): its file relative to the candidate path
    (as `top_file` writes it) and its number."""

    path: str
    line: int


class PathRow(NamedTuple):
    """One `by_path` row: a term that matched in one candidate path."""

    term: str
    matches: int
    files: int
    capped: bool
    top_file: str
    places: tuple[Place, ...] = ()
    """Each matching line, when the count is exact and at most `SURVEY_PLACES_MAX`
    (D56), in path order then line order; else none."""


class PathSection(NamedTuple):
    path: str
    rows: tuple[PathRow, ...]
    """Terms in command-line order; terms with no match here are omitted."""


class SurveyReport(NamedTuple):
    terms: tuple[str, ...]
    paths: tuple[str, ...]
    mode: Mode
    overall: tuple[TermTotal, ...]
    by_path: tuple[PathSection, ...]
    notices: tuple[Notice, ...]
    ignore_case: bool = False
    filters: Filters = NO_FILTERS
    next_step: NextStep = NO_STEP


def check_survey_size(terms: Sequence[str], paths: Sequence[str]) -> None:
    """Both bounds are checked together, so both violations are said at once."""
    if not terms:
        raise InputError(
            f"survey needs at least one {each('term')} (1-{MAX_TERMS}), "
            f"e.g. {given('term', 'connect')}"
        )
    problems = []
    if len(terms) > MAX_TERMS:
        problems.append(f"{len(terms)} terms given, at most {MAX_TERMS} allowed")
    if len(paths) > MAX_PATHS:
        problems.append(f"{len(paths)} paths given, at most {MAX_PATHS} allowed")
    if problems:
        raise InputError("; ".join(problems) + "; narrow the comparison")


def placeable(tally: Tally) -> bool:
    """Whether a pair's lines are few enough to be written as places (D56)."""
    return not tally.capped and 0 < tally.matches <= SURVEY_PLACES_MAX


def rare_files(tallies: Sequence[Sequence[Tally]]) -> list[list[str]]:
    """Per term, the files (as the count named them) of its placeable pairs: the files
    whose matching lines one more search per term reads."""
    return [
        list(dict.fromkeys(f.path for tally in row if placeable(tally) for f in tally.files))
        for row in tallies
    ]


def _places(tally: Tally, path: str, lines: Mapping[str, Sequence[int]]) -> tuple[Place, ...]:
    """The pair's places, or none when it is not placeable or the lines read are not
    the lines counted (a file changed between the 2 searches): never a wrong place."""
    if not placeable(tally):
        return ()
    places = []
    for f in tally.files:
        found = sorted(lines.get(f.path, ()))
        if len(found) != f.matches:
            return ()
        places += [Place(row_path(f.path, path), n) for n in found]
    return tuple(places)


def _dominant(paths: Sequence[str], tallies: Sequence[Tally]) -> str | None:
    best: str | None = None
    most = 0
    for path, tally in zip(paths, tallies, strict=True):
        if tally.matches > most:
            best, most = path, tally.matches
    return best


def _distinct(paths: Sequence[str]) -> list[int]:
    """The index of each path's first appearance: a path given twice (in any spelling:
    `paths` are real locations) is one tree."""
    first: dict[str, int] = {}
    for index, path in enumerate(paths):
        first.setdefault(path, index)
    return list(first.values())


def _one_cap_note(capped: Sequence[CapNotice], paths: Sequence[str]) -> CapNotice:
    """One note for every capped pair (issue 32): alone, its own, naming where counting
    stopped; else one naming each (term, path), in by_path's order."""
    if len(capped) == 1:
        return capped[0]
    order = {path: i for i, path in enumerate(paths)}
    pairs = sorted(((n.term or "", n.path or "") for n in capped), key=lambda p: order[p[1]])
    return CapNotice(pairs=tuple(pairs))


def build_survey_report(
    queries: Sequence[Query],
    paths: Sequence[str],
    tallies: Sequence[Sequence[Tally]],
    *,
    entries: Sequence[Entry],
    real_paths: Sequence[str],
    lines: Sequence[Mapping[str, Sequence[int]]] = (),
) -> SurveyReport:
    """`tallies[t][p]` is the search of term t in path p; `entries[p]` is what path p is,
    `real_paths[p]` where it is (absolute, symlinks resolved); `lines[t]` the matching
    line numbers of term t in each of its `rare_files` (D56)."""
    overall = tuple(_total(query, paths, row) for query, row in zip(queries, tallies, strict=True))
    notices = [
        *_term_notices(queries, paths, tallies, overall, entries),
        *_dominance_notices(overall),
        *overlap_notices(paths, real_paths, entries),
        *_tree_notices(queries, tallies, entries, real_paths),
    ]
    sections = tuple(
        _section(index, path, queries, tallies, lines) for index, path in enumerate(paths)
    )
    return SurveyReport(
        terms=tuple(q.term for q in queries),
        paths=tuple(paths),
        mode=queries[0].mode if queries else Mode.FIXED,
        overall=overall,
        by_path=sections,
        notices=tuple(notices),
        ignore_case=queries[0].ignore_case if queries else False,
        filters=queries[0].filters if queries else NO_FILTERS,
        next_step=_next_step(queries, paths, tallies, overall),
    )


def _total(query: Query, paths: Sequence[str], row: Sequence[Tally]) -> TermTotal:
    """A term's `overall` row: its counts summed over every candidate path."""
    return TermTotal(
        term=query.term,
        matches=sum(t.matches for t in row),
        files=sum(len(t.files) for t in row),
        capped=any(t.capped for t in row),
        dominant_path=_dominant(paths, row),
    )


def _term_notices(
    queries: Sequence[Query],
    paths: Sequence[str],
    tallies: Sequence[Sequence[Tally]],
    overall: Sequence[TermTotal],
    entries: Sequence[Entry],
) -> list[Notice]:
    """Per term in order: its broad notice and its term hints; the one cap note of every
    capped pair stands where the first capped term's notices end their broad notice."""
    notices: list[Notice] = []
    capped: list[tuple[int, CapNotice]] = []
    """Each capped pair's note, with where in `notices` the first one goes."""
    matched = any(t.matches for row in tallies for t in row)
    # A term's notice is over every path: its totals, and no narrower path when each
    # path is a named file.
    one_file = all(entry is Entry.FILE for entry in entries)
    for query, row, total in zip(queries, tallies, overall, strict=True):
        if any(is_broad(t.matches, len(t.files)) for t in row):
            notices.append(
                broad_notice(
                    query,
                    total.matches,
                    total.files,
                    capped=total.capped,
                    one_file=one_file,
                    named=True,
                )
            )
        for path, entry, tally in zip(paths, entries, row, strict=True):
            if tally.capped:
                directory = entry is Entry.DIRECTORY
                notice = cap_notice(tally, path, directory=directory, term=query.term, path=path)
                capped.append((len(notices), notice))
        # D43: no hint about a term matching inside longer words when nothing matched.
        notices += term_hints(query, matched=matched)
    if capped:
        notices.insert(capped[0][0], _one_cap_note([n for _, n in capped], paths))
    return notices


def _dominance_notices(overall: Sequence[TermTotal]) -> list[Notice]:
    """A term that holds `DOMINANCE_SHARE` of every matching line, among 2 or more."""
    grand = sum(t.matches for t in overall)
    if len(overall) < 2 or not grand:
        return []
    return [
        DominanceNotice(term=t.term, percent=t.matches * 100 // grand)
        for t in overall
        if t.matches >= DOMINANCE_SHARE * grand
    ]


def _tree_notices(
    queries: Sequence[Query],
    tallies: Sequence[Sequence[Tally]],
    entries: Sequence[Entry],
    real_paths: Sequence[str],
) -> list[Notice]:
    """What the trees hold whatever the term: the unreadable and the binary files, then,
    when nothing matched, the one zero note (D43/D45, with the binary files in it). Each
    tree counted once (each search of a path met them all)."""
    notices: list[Notice] = []
    distinct = _distinct(real_paths)
    skipped = sum(max((row[i].skipped for row in tallies), default=0) for i in distinct)
    if skipped:
        notices.append(SkippedNotice(files=skipped))
    binary = sum(max((row[i].binary for row in tallies), default=0) for i in distinct)
    if binary:
        # A lower bound when, under some path, every term's scan stopped at the cap.
        walked = all(any(not row[i].capped for row in tallies) for i in distinct)
        notices.append(BinaryNotice(files=binary, capped=not walked))
    if not any(t.matches for row in tallies for t in row):
        first = queries[0] if queries else None
        notices.append(no_match(first, directory=Entry.DIRECTORY in entries, binary=binary))
    return notices


def _section(
    index: int,
    path: str,
    queries: Sequence[Query],
    tallies: Sequence[Sequence[Tally]],
    lines: Sequence[Mapping[str, Sequence[int]]],
) -> PathSection:
    """Path `index`'s `by_path` section: each term that matched there, in order."""
    rows = []
    for term, (query, row) in enumerate(zip(queries, tallies, strict=True)):
        tally = row[index]
        if tally.files:
            rows.append(
                PathRow(
                    term=query.term,
                    matches=tally.matches,
                    files=len(tally.files),
                    capped=tally.capped,
                    top_file=top_files(tally.files, path, 1)[0].path,
                    places=_places(tally, path, lines[term] if lines else {}),
                )
            )
    return PathSection(path=path, rows=tuple(rows))


def _next_step(
    queries: Sequence[Query],
    paths: Sequence[str],
    tallies: Sequence[Sequence[Tally]],
    overall: Sequence[TermTotal],
) -> NextStep:
    """D28: from the totals and every (term, path) pair that matched, by path then term."""
    pairs = [
        (term, tally.matches, len(tally.files), tally.capped, path)
        for index, path in enumerate(paths)
        for term, row in enumerate(tallies)
        if (tally := row[index]).files
    ]
    return survey_step(queries, [(t.matches, t.files, t.dominant_path) for t in overall], pairs)
