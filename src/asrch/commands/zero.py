"""D43: a zero answer's one note, from at most one more bounded search.

The search is one count (no line read, no scope parsed) stopped at the same scan cap as
the first; a probe that fails (a path gone since, a permission error) drops only the
hint, never the answer.
"""

from asrch.domain.counting import Tally, top_files
from asrch.domain.errors import EngineError, InputError
from asrch.domain.limits import SCAN_CAP
from asrch.domain.next_step import joined
from asrch.domain.notices import (
    GrepSyntaxNotice,
    NearNotice,
    NoMatchNotice,
    Notice,
    Probe,
    no_match,
)
from asrch.domain.ports import Searcher
from asrch.domain.query import Query
from asrch.domain.zero import inside, literal_operators, probe_for, probed

HERE = "."
"""The working directory: the command line's, or the first root of an MCP server."""


def probe_of(searcher: Searcher, query: Query, path: str) -> Probe | None:
    """The probe a zero answer of `query` under `path` would make (decided before the
    first search: with none, that search counts the binary files itself, D45)."""
    try:
        narrower = inside(searcher.resolve(path), searcher.resolve(HERE))
    except OSError:
        narrower = False
    return probe_for(query, narrower=narrower)


def zero_notices(
    searcher: Searcher,
    query: Query,
    path: str,
    first: Tally,
    notices: tuple[Notice, ...],
    *,
    directory: bool,
    probe: Probe | None,
) -> tuple[Notice, ...]:
    """`notices` with their zero note (a `NoMatchNotice`) made D43's one note."""
    if first.files or not any(isinstance(n, NoMatchNotice) for n in notices):
        return notices
    note = _zero_note(searcher, query, path, first, directory=directory, probe=probe)
    return tuple(note if isinstance(n, NoMatchNotice) else n for n in notices)


def _zero_note(
    searcher: Searcher,
    query: Query,
    path: str,
    first: Tally,
    *,
    directory: bool,
    probe: Probe | None,
) -> Notice:
    plain = no_match(query, directory=directory, binary=first.binary)
    # D57: under the working directory, either case: 1 search for both facts.
    folded = probe == "path" and not query.ignore_case
    found: Tally | None = None
    if probe is not None:
        where = HERE if probe == "path" else path
        try:
            found = searcher.count(probed(query, probe), where, cap=SCAN_CAP, census=directory)
        except (EngineError, InputError, OSError):
            found = None  # the hint is dropped, the answer stands
        if found is not None and found.files:
            top = top_files(found.files, where, 1)[0].path
            return NearNotice(
                probe=probe,
                matches=found.matches,
                files=len(found.files),
                capped=found.capped,
                top_file=joined(where, top) if directory or probe == "path" else None,
                mode=query.mode,
                folded=folded,
            )
    constructs = literal_operators(query)
    if constructs:
        return GrepSyntaxNotice(constructs=constructs)
    if found is not None and directory:
        # The probe searched as the first did, or wider: its binary census stands in.
        return plain._replace(binary=found.binary, wider=probe == "path", folded=folded)
    if found is not None and probe == "path":
        return plain._replace(wider=True, folded=folded)
    return plain
