"""`scout`: one term's distribution over one path."""

import posixpath
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from asrch.domain.counting import FileCount, Ranked, Tally, relative_to, top_directories, top_files
from asrch.domain.definitions import DefinitionCount
from asrch.domain.limits import SCOUT_LIST_MAX, TOP_N
from asrch.domain.lines import SourceLine
from asrch.domain.next_step import NO_STEP, joined, scout_step
from asrch.domain.notices import (
    FoldedNotice,
    Notice,
    UnlistedNotice,
    UnscopedNotice,
    search_notices,
)
from asrch.domain.query import Query
from asrch.domain.scout_folds import FoldedLines, ranked_directories, ranked_files, ranks
from asrch.domain.words import NextStep

Kind = Literal["source", "test", "docs", "generated"]
KINDS: tuple[Kind, ...] = ("source", "test", "docs", "generated")
"""D35's kinds, in the order a next step prefers them (and `kinds` prints them)."""
TEST_FOLDERS = frozenset({"test", "tests", "testing", "__tests__", "spec"})
DOCS_FOLDERS = frozenset({"doc", "docs"})
DOCS_SUFFIXES = (".md", ".rst", ".txt", ".adoc")
GENERATED_NAMES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "pnpm-lock.yaml",
        "yarn.lock",
        "bun.lockb",
        "Cargo.lock",
        "poetry.lock",
        "Pipfile.lock",
        "uv.lock",
        "composer.lock",
        "Gemfile.lock",
        "go.sum",
        "flake.lock",
        "pubspec.lock",
        "Podfile.lock",
        "mix.lock",
    }
)
"""Lockfiles a package manager writes: what they match names a dependency, not code the
agent reads (issue 40: scout's next step went to `package-lock.json`)."""
GENERATED_SUFFIXES = (".lock", "-lock.json", "-lock.yaml", ".lockb")


def kind_of(path: str) -> Kind:
    """D35, by a path alone: a lockfile by its name (`generated`), else a test by its
    folder or name, else docs by folder or extension, else source. Scout asks it of the
    path below the searched path (`kind_below`)."""
    folders, _, name = path.rpartition("/")
    return _kind_by_name(name, _folders_say(folders))


def _folders_say(folders: str) -> tuple[bool, bool]:
    """Whether a folder of the `/`-joined `folders` says test, and whether one says docs."""
    if not folders:
        return False, False
    parts = folders.split("/")
    return any(f in TEST_FOLDERS for f in parts), any(f in DOCS_FOLDERS for f in parts)


def _kind_by_name(name: str, folders: tuple[bool, bool]) -> Kind:
    """`kind_of` of a file named `name`, its folders' verdicts given (`_folders_say`)."""
    in_tests, in_docs = folders
    if name in GENERATED_NAMES or name.endswith(GENERATED_SUFFIXES):
        return "generated"
    if (
        in_tests
        or name.startswith("test_")
        or "_test." in name
        or ".test." in name
        or ".spec." in name
    ):
        return "test"
    if in_docs or name.lower().endswith(DOCS_SUFFIXES):
        return "docs"
    return "source"


def kind_below(path: str, target: str) -> Kind:
    """D35 of a matching file by its path below the searched path (issue 32): the same
    tree gets the same kinds however the path is spelled and whatever folders lie above
    it (`.` from inside `test/proj`, or `test/proj` from outside). A file named as the
    path is told by its name."""
    return kind_of(_below(path, target))


def _below(path: str, target: str) -> str:
    below = relative_to(path, target)
    if below == path:
        below = posixpath.basename(path) if path == target else path.removeprefix("./")
    return below


def kinds_below(files: Iterable[FileCount], target: str) -> list[Kind]:
    """`kind_below` of each file, in order: what a scout past the cap asks of thousands
    of files, so each folder rg printed is judged once. A file's folders below the
    target depend on the folder rg printed alone when that folder is at least as long
    as the target (the target then never reaches into the file's name) and the file is
    not the target itself; any other file is judged on its own."""
    by_folder: dict[str, tuple[bool, bool]] = {}
    kinds: list[Kind] = []
    for f in files:
        printed, _, name = f.path.rpartition("/")
        shared = bool(name) and f.path != target and len(printed) >= len(target)
        said = by_folder.get(printed) if shared else None
        if said is None:
            said = _folders_say(_below(f.path, target).rpartition("/")[0])
            if shared:
                by_folder[printed] = said
        kinds.append(_kind_by_name(name, said))
    return kinds


class KindCount(NamedTuple):
    """One row of `kinds[kind,matches,files]`."""

    kind: Kind
    matches: int
    files: int


class ListedFile(NamedTuple):
    """A file of a listed scout (D32): its path joined with the searched path (as `next:`
    joins it), and its matching lines with their scopes."""

    path: str
    lines: tuple[SourceLine, ...]


class ScoutReport(NamedTuple):
    query: Query
    path: str
    matches: int
    files: int
    capped: bool
    top_directories: tuple[Ranked, ...]
    top_files: tuple[Ranked, ...]
    notices: tuple[Notice, ...]
    next_step: NextStep = NO_STEP
    kinds: tuple[KindCount, ...] = ()
    """Every kind that matched, in `KINDS` order; the text prints them from 2 kinds on."""
    listed: tuple[ListedFile, ...] = ()
    definitions: DefinitionCount | None = None
    """`--def` (D52): every matching line looked at, and those not judged; None without."""


def lists(tally: Tally) -> bool:
    """D32/D44: an exact count of 1 to `SCOUT_LIST_MAX` matching lines may be listed
    (the use case measures their text once they are read)."""
    return not tally.capped and 0 < tally.matches <= SCOUT_LIST_MAX


def kind_counts(
    files: tuple[FileCount, ...], target: str, kinds: Sequence[Kind] | None = None
) -> tuple[KindCount, ...]:
    """`kinds`: each file's `kind_below`, in order, where the caller has them."""
    matches = dict.fromkeys(KINDS, 0)
    counted = dict.fromkeys(KINDS, 0)
    for f, kind in zip(files, kinds_below(files, target) if kinds is None else kinds, strict=True):
        matches[kind] += f.matches
        counted[kind] += 1
    return tuple(KindCount(k, matches[k], counted[k]) for k in KINDS if counted[k])


def next_file(
    files: tuple[FileCount, ...],
    target: str,
    folded: FoldedLines | None = None,
    kinds: Sequence[Kind] | None = None,
) -> FileCount | None:
    """D35: the top file of `source`, then `test`, `docs`, `generated` (most matching lines,
    ties by relative path as in `top_files`), over every matching file; with `folded`
    (D53), by the lines outside header comments and tests first. `kinds`: each file's
    `kind_below`, in order, where the caller has them."""
    if not files:
        return None
    per_file = folded.per_file if folded is not None else {}
    if kinds is None:
        kinds = kinds_below(files, target)
    # The least (kind, lines) first, then the relative path, made only for the files
    # tied on those: a scout past the cap has thousands of files, most trees few ties.
    keys = [
        (_KIND_RANK[kind], -(f.matches - per_file.get(f.path, 0)), -f.matches)
        for f, kind in zip(files, kinds, strict=True)
    ]
    best = min(keys)
    tied = [f for f, key in zip(files, keys, strict=True) if key == best]
    return min(tied, key=lambda f: relative_to(f.path, target))


_KIND_RANK = {kind: rank for rank, kind in enumerate(KINDS)}


def listed_path(file: str, target: str, *, directory: bool) -> str:
    """A listed file's path as `next:` names it: joined with the searched path."""
    return joined(target, relative_to(file, target)) if directory else target


def build_scout_report(
    query: Query,
    path: str,
    tally: Tally,
    *,
    directory: bool,
    listed: tuple[ListedFile, ...] = (),
    folded: FoldedLines | None = None,
    unscoped: int = 0,
) -> ScoutReport:
    """`directory`: the path is a directory (walked), not a named file. `listed`: the
    matching lines of a small answer (`lists`, `fits`), grouped by file, read by the use
    case. A listed answer has no next step: the agent has every matching line (D44).
    `folded` (D53): the lines in header comments and in-file tests, by which the tables
    rank when they are at least a quarter of the lines. `unscoped` (issue 39): listed
    files whose scope lines were not read, being too large."""
    if listed or not ranks(folded, tally.matches):
        folded = None
    kinds = kinds_below(tally.files, path)
    chosen = next_file(tally.files, path, folded, kinds)
    notices: list[Notice] = search_notices(query, tally, path, directory=directory)
    if not directory and not listed and tally.matches and not tally.capped:
        notices.append(UnlistedNotice(matches=tally.matches))
    if listed and unscoped:
        notices.append(UnscopedNotice(files=unscoped))
    top_dirs = top_directories(tally.files, path, TOP_N)
    top = top_files(tally.files, path, TOP_N)
    if folded is not None:
        top_dirs = ranked_directories(tally.files, folded, path, TOP_N)
        top = ranked_files(tally.files, folded, path, TOP_N)
        notices.append(
            FoldedNotice(tally.matches, tally.capped, folded.header, folded.tests, folded.unread)
        )
    return ScoutReport(
        query=query,
        path=path,
        matches=tally.matches,
        files=len(tally.files),
        capped=tally.capped,
        top_directories=top_dirs,
        top_files=top,
        notices=tuple(notices),
        next_step=NO_STEP
        if listed
        else scout_step(
            query,
            path,
            relative_to(chosen.path, path) if chosen is not None else None,
            directory=directory,
        ),
        kinds=kind_counts(tally.files, path, kinds),
        listed=listed,
    )
