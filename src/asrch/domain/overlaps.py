"""survey's candidate paths that overlap: the same path twice, or one inside another.

Each path is counted as given (the seed), so lines under an overlap are counted once
per path; the notices say where. Paths are compared by their real location (absolute,
symlinks resolved, as `Searcher.resolve` gives it): that is what rg walks.
"""

from collections.abc import Sequence

from asrch.domain.exclusions import excluded_below
from asrch.domain.notices import NestedPathNotice, Notice, SamePathNotice
from asrch.domain.ports import Entry


def _below(inner: str, outer: str) -> list[str] | None:
    """The components of `inner` below `outer` (both absolute, normalised), else None."""
    prefix = outer if outer.endswith("/") else outer + "/"
    if inner == outer or not inner.startswith(prefix):
        return None
    return inner[len(prefix) :].split("/")


def overlap_notices(
    paths: Sequence[str], real_paths: Sequence[str], entries: Sequence[Entry]
) -> list[Notice]:
    """One notice per path given 2 or more times, one per pair of nested paths.

    A nested pair is left out when the default exclusions keep the walk of the outer
    path out of the inner one: no line is counted twice there.
    """
    spellings: dict[str, list[str]] = {}
    entry_of: dict[str, Entry] = {}
    for path, real, entry in zip(paths, real_paths, entries, strict=True):
        spellings.setdefault(real, []).append(path)
        entry_of[real] = entry
    notices: list[Notice] = [
        SamePathNotice(paths=tuple(given)) for given in spellings.values() if len(given) > 1
    ]
    reals = list(spellings)
    for i, first in enumerate(reals):
        for second in reals[i + 1 :]:
            for inner, outer in ((first, second), (second, first)):
                parts = _below(inner, outer)
                if parts is None:
                    continue
                if not excluded_below(parts, is_dir=entry_of[inner] is Entry.DIRECTORY):
                    notices.append(
                        NestedPathNotice(path=spellings[inner][0], within=spellings[outer][0])
                    )
    return notices
