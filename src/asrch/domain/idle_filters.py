"""D38: a filter that does nothing is said (pure).

A `--type` or include `--glob` that matched none of the files a directory's walk yields,
or a `--type` / `--glob` that removed none of them, changes nothing or empties the answer
without a word; most often a glob with a `/`, which is matched from the working directory (as rg
matches it), was written from the searched path. Each such filter gets a notice naming
it, and for a glob with a `/`, the spelling that does what it was meant to from the
searched path, when that spelling would (checked against the same walk). On a zero
answer they make 1 note with the zero note (D43): the filter that kept no file is the
cause, and nothing else is said.
"""

from collections.abc import Callable, Sequence

from asrch.domain.filters import Filters, Glob, compile_glob, components
from asrch.domain.notices import (
    GrepSyntaxNotice,
    IdleFilterNotice,
    NearNotice,
    NoMatchNotice,
    Notice,
)


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
        kept = _kept(only_types, target, walked)
        # As a glob's: a type that matched no file empties the answer (D38, D43).
        if all(kept) or not any(kept):
            notices.append(
                IdleFilterNotice(
                    option="type",
                    value=" ".join(filters.types),
                    path=target,
                    matched_none=not any(kept),
                    anchored=False,
                )
            )
    return notices


def zero_cause(idle: Sequence[IdleFilterNotice], filters: Filters) -> IdleFilterNotice | None:
    """D43 with D38: why the filters kept none of the walked files, when they kept none,
    as a zero answer's one note: the include globs, when none of them matched a file (the
    files must match one), else the types, when they matched none. None when they kept
    files, or each alone matched some (the note of the zero answer stands)."""
    globs = [n for n in idle if n.option == "glob" and n.matched_none]
    if filters.includes and len(globs) == len(filters.includes):
        first = globs[0]
        return first._replace(
            also=tuple(n.value for n in globs[1:]),
            anchored=any(n.anchored for n in globs),
            # One glob's spelling says what to write; with several, which one is unclear.
            spelling=first.spelling if len(globs) == 1 else None,
            zero=True,
        )
    types = [n for n in idle if n.option == "type" and n.matched_none]
    return types[0]._replace(zero=True) if types else None


def one_zero_note(notices: Sequence[Notice], cause: IdleFilterNotice | None) -> tuple[Notice, ...]:
    """A zero answer's notices with 1 note (D43): `cause` in place of the zero note, with
    the count a wider search found (never a pointer elsewhere: the filters are why); else
    the zero note alone, without the D38 notes: a filter that did nothing did not make
    the answer zero."""
    zero = (NoMatchNotice, NearNotice, GrepSyntaxNotice)
    if cause is None:
        return tuple(n for n in notices if not isinstance(n, IdleFilterNotice))
    near = next((n for n in notices if isinstance(n, NearNotice) and n.probe == "path"), None)
    kept = [n for n in notices if not isinstance(n, (*zero, IdleFilterNotice))]
    return (cause._replace(near=near), *kept)
