"""D38: a filter that does nothing is said (pure).

A `--glob` that matched none of the files a directory's walk yields, or a `--type` /
`--glob` that removed none of them, changes nothing or empties the answer without a
word; most often a glob with a `/`, which is matched from the working directory (as rg
matches it), was written from the searched path. Each such filter gets a notice naming
it, and for a glob with a `/`, the spelling that does what it was meant to from the
searched path, when that spelling would (checked against the same walk).
"""

from collections.abc import Callable, Sequence

from asrch.domain.filters import Filters, Glob, compile_glob, components
from asrch.domain.notices import IdleFilterNotice


def _alone(filters: Filters, glob: Glob) -> Filters:
    if glob.exclude:
        return Filters(globs=(glob.text,), excludes=(glob,), cwd=filters.cwd)
    return Filters(globs=(glob.text,), includes=(glob,), cwd=filters.cwd)


def _kept(filters: Filters, target: str, walked: Sequence[str]) -> list[bool]:
    keeps: Callable[[str], bool] = filters.keeper(target)
    return [keeps(path) for path in walked]


def _respelled(glob: Glob, target: str) -> str | None:
    """The glob written from the working directory for a glob written from `target`."""
    base = "/".join(components(target))
    if not glob.anchored or not base or target.startswith("/"):
        return None
    text = glob.text[1:] if glob.exclude else glob.text
    return ("!" if glob.exclude else "") + f"{base}/{text.lstrip('/')}"


def idle_filters(filters: Filters, target: str, walked: Sequence[str]) -> list[IdleFilterNotice]:
    """The notices for the filters that did nothing to the files a walk of the directory
    `target` yielded (`walked`, as rg printed them)."""
    if not filters.active or not walked:
        return []
    notices: list[IdleFilterNotice] = []
    for glob in (*filters.includes, *filters.excludes):
        kept = _kept(_alone(filters, glob), target, walked)
        matched_none = not glob.exclude and not any(kept)
        if not (matched_none or all(kept)):
            continue
        spelling = _respelled(glob, target)
        if spelling is not None:
            other = _kept(_alone(filters, compile_glob(spelling)), target, walked)
            if all(other) if glob.exclude else not any(other):
                spelling = None
        notices.append(
            IdleFilterNotice(
                option="glob",
                value=glob.text,
                path=target,
                matched_none=matched_none,
                # How it is anchored matters only when the searched path is not the
                # working directory itself.
                anchored=glob.anchored and bool(components(target)),
                spelling=spelling,
            )
        )
    if filters.types:
        only_types = Filters(types=filters.types, type_globs=filters.type_globs, cwd=filters.cwd)
        if all(_kept(only_types, target, walked)):
            notices.append(
                IdleFilterNotice(
                    option="type",
                    value=" ".join(filters.types),
                    path=target,
                    matched_none=False,
                    anchored=False,
                )
            )
    return notices
