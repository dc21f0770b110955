"""`--type` and `--glob` (D30): which of the files a search yields are kept (pure).

The filters only narrow. They are never handed to rg: an include glob given to rg is an
override, and rg's overrides beat its ignore rules, hidden-file rule and (when later)
asrch's own exclusions; a `--type` given to rg re-includes hidden files of that type.
So rg walks with its usual rules and asrch's exclusions, and the filters are applied
here, to the paths it yields: a file can only be dropped, never added.

A glob is read as one line of a `.gitignore` is, and as `rg --glob` reads it (the
tests hold the two to each other on trees without ignore rules):
- `*` and `?` never match `/`; `[abc]`, `[a-z]`, `[!a]` / `[^a]` a class of one
  character; `{a,b}` either alternative (not nested); `\\` makes the next character
  literal; `**` as a whole component matches any number of components (`**/x`,
  `a/**`, `a/**/b`), elsewhere it is `*`.
- A class may match a `/` (rg's does: `?[!a]*` keeps `a/makefile`).
- A glob with no `/` (other than a trailing one) matches a name at any depth; a glob
  with a `/` is anchored: matched against the path from the working directory, as rg
  matches it and as `next:` writes it (`src/net/pool.py` for the row `net/pool.py` of
  a search of `src`), without `./` or repeated `/`; a leading `/` only anchors. So the
  same glob means the same file in a directory search and when the file is named.
- An absolute path is matched as rg matches it (its globs are rooted at its working
  directory, `Filters.cwd`): under the working directory, as the path from there
  (`/home/u/proj/src/a.py` from `/home/u/proj` is `src/a.py`); anywhere else, whole,
  leading `/` included, so that an anchored glob never matches it and the names of its
  ancestors (`tmp`, `build`) are never taken for the searched tree's. This is decided
  per file: a search of an absolute path above the working directory matches the files
  under the working directory from there, the others whole (issue 32, item 5).
- A trailing `/` matches directories only.
- An include (`GLOB`) must match the file itself; an exclude (`!GLOB`) drops a file
  that it matches or that lies under a directory it matches below the searched path.
- Matching is linear in the path and the glob (issue 32, item 2), as rg's is: a glob
  runs as a Python regex only where that provably is (`glob_match.as_regex`), else as
  an automaton (`glob_match.Matcher`); a glob is at most `GLOB_MAX` characters.
A file is kept when it is of one of the `--type`s (if any), matches one of the include
globs (if any), and matches none of the exclude globs; the order of the options does not
matter (with rg, a later glob wins; here an exclude always does).
"""

import re
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from asrch.domain.errors import InputError, UnknownTypeError
from asrch.domain.glob_match import (
    ANY_NAME,
    ANY_PATH,
    NOT_SLASH,
    UNKNOWN,
    Either,
    Matcher,
    Node,
    as_regex,
    char_class,
    literal,
)
from asrch.domain.limits import FILTERS_MAX, GLOB_MAX
from asrch.domain.text_safety import quote
from asrch.domain.words import arg


class _GlobError(ValueError):
    pass


def _class(pattern: str, start: int) -> tuple[str, int]:
    """The regex of the class at `pattern[start] == '['`, and the index after it."""
    i = start + 1
    negated = i < len(pattern) and pattern[i] in "!^"
    if negated:
        i += 1
    members: list[str] = []
    first = True
    while i < len(pattern):
        char = pattern[i]
        if char == "]" and not first:
            body = "".join(members)
            # As in rg's globs, a class may match `/` (`[!a]` does): only `*`, `?` stop.
            regex = f"[^{body}]" if negated else f"[{body}]"
            try:
                re.compile(regex)
            except re.error as exc:  # `[c-a]`: rg says "invalid range" too
                raise _GlobError(f"invalid character class: {exc.msg}") from None
            return regex, i + 1
        if char == "-" and not first and i + 1 < len(pattern) and pattern[i + 1] != "]":
            members.append("-")
        else:
            members.append(re.escape(char) if char != "-" else "\\-")
        first = False
        i += 1
    raise _GlobError("unclosed character class; missing ']'")


def _stars(pattern: str, start: int) -> tuple[tuple[Node, ...], int]:
    """The nodes of the `*` or `**` at `start`, and the index after it (and its `/`)."""
    if not pattern.startswith("**", start):
        return (ANY_NAME,), start + 1
    after = start + 2
    whole = (start == 0 or pattern[start - 1] == "/") and (
        after == len(pattern) or pattern[after] == "/"
    )
    if not whole:
        return (ANY_NAME,), after
    if after == len(pattern):
        return (ANY_PATH,), after
    # `**/`: no component, or any whose last character is a `/`.
    return (_ANY_DIRECTORIES,), after + 1


_ANY_DIRECTORIES = Either(((), (ANY_PATH, literal("/"))))


def parse(pattern: str) -> tuple[Node, ...]:
    """The nodes of one glob, matched whole, `!` and edge `/`s already removed."""
    out: list[Node] = []
    choices: list[tuple[Node, ...]] | None = None
    """The alternatives closed so far while inside `{...}`."""
    outer: list[Node] = []
    i = 0
    size = len(pattern)
    while i < size:
        char = pattern[i]
        if char == "*":
            nodes, i = _stars(pattern, i)
            out.extend(nodes)
        elif char == "?":
            out.append(NOT_SLASH)
            i += 1
        elif char == "[":
            regex, i = _class(pattern, i)
            out.append(char_class(regex))
        elif char == "{":
            if choices is not None:
                raise _GlobError("nested alternate groups are not allowed")
            choices, outer, out = [], out, []
            i += 1
        elif char == "}" and choices is not None:
            choices.append(tuple(out))
            outer.append(Either(tuple(choices)))
            choices, out = None, outer
            i += 1
        elif char == "," and choices is not None:
            choices.append(tuple(out))
            out = []
            i += 1
        elif char == "\\":
            if i + 1 == size:
                raise _GlobError("dangling '\\'")
            out.append(literal(pattern[i + 1]))
            i += 2
        else:
            out.append(literal(char))
            i += 1
    if choices is not None:
        raise _GlobError("unclosed alternate group; missing '}'")
    return tuple(out)


class Glob(NamedTuple):
    """One compiled glob; `text` is the option's value as typed (`!` included)."""

    text: str
    exclude: bool
    anchored: bool
    directories_only: bool
    nodes: tuple[Node, ...]
    """What it matches, whole (`glob_match`), the unanchored prefix included."""
    regex: "re.Pattern[str] | None"
    """The same as a regex, where one runs in linear time (`as_regex`), else None."""
    automaton: Callable[[str], bool] | None
    """Whether a path matches, by the automaton that runs it (`glob_match.Matcher`)
    when it has no such regex."""

    def matches(self, parts: Sequence[str], *, is_dir: bool) -> bool:
        """Whether the entry `parts` (components below the searched path) matches."""
        if self.directories_only and not is_dir:
            return False
        path = "/".join(parts)
        if self.automaton is None:
            return self.regex is not None and self.regex.fullmatch(path) is not None
        return self.automaton(path)


def compile_glob(text: str) -> Glob:
    """One `--glob` value, or an input error naming it and what is wrong."""
    if len(text) > GLOB_MAX:
        # Its head only: the value may be a megabyte, the error is one short line.
        raise InputError(
            f"{arg('glob')} {quote(text[:20])}... is {len(text)} characters long; "
            f"a glob may have at most {GLOB_MAX}"
        )
    exclude = text.startswith("!")
    pattern = text[1:] if exclude else text
    directories_only = pattern.endswith("/")
    if directories_only:
        pattern = pattern[:-1]
    anchored = "/" in pattern
    if pattern.startswith("/"):
        pattern = pattern[1:]
    if re.fullmatch(r"(?:\*\*/)+", pattern):
        pattern = "**"  # rg's globs read `**/` alone (`!**//`) as every path
    if pattern == "":
        raise InputError(
            f"{arg('glob')} {quote(text)} is empty; give a glob such as '*.py' or '!tests/**'"
        )
    if directories_only and not exclude:
        raise InputError(
            f"{arg('glob')} {quote(text)} matches directories only, so it keeps no file; "
            f"write {quote(text + '**')} for the files under it"
        )
    try:
        # Unanchored, a glob matches after any number of leading directories, as rg's
        # `**/GLOB` does: mostly a name at any depth (`[!a]` can still span a `/`).
        body = parse(pattern)
    except _GlobError as exc:
        raise InputError(f"{arg('glob')} {quote(text)} is not a valid glob: {exc}") from None
    nodes = body if anchored else (_ANY_DIRECTORIES, *body)
    linear = as_regex(body, anchored=anchored)
    if linear is None:
        automaton = Matcher((nodes,)).fullmatch
        return Glob(text, exclude, anchored, directories_only, nodes, None, automaton)
    regex = re.compile(linear, re.DOTALL)
    return Glob(text, exclude, anchored, directories_only, nodes, regex, None)


class Filters(NamedTuple):
    """The `--type` names and `--glob` values of one call, as typed, and their globs."""

    types: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    type_globs: tuple[Glob, ...] = ()
    includes: tuple[Glob, ...] = ()
    excludes: tuple[Glob, ...] = ()
    cwd: str = ""
    """rg's working directory (absolute, symlinks resolved), where its globs are rooted;
    empty: unknown, absolute paths are then matched whole."""

    @property
    def active(self) -> bool:
        """Some `--type` or `--glob` was given (a NamedTuple itself is always true)."""
        return bool(self.types or self.globs)

    def keeper(self, target: str) -> "Callable[[str], bool]":
        """`keeps` for the paths a walk of `target` prints (`target`, a `/` unless it
        ends in one, the names below it), fast enough for every file of a tree: each
        kind of glob is one linear regex and one automaton at most, the path is
        normalized once, and each directory's verdict (and automaton state) is kept for
        the files that share it."""
        rooted = self.parts(target)
        if self._above_cwd(target):
            return self._per_file(target, len(rooted))
        base = "/".join(rooted)
        cut = len(target)
        types, includes = _either(self.type_globs), _either(self.includes)
        files_out = _either(self.excludes, files=True)
        dirs_out = _either(self.excludes)
        verdicts: dict[str, bool] = {}
        reached: dict[tuple[int, str], int] = {}
        """Each automaton's state after a directory (`dir/`), shared by its files."""

        def automaton(matcher: Matcher | None, full: str) -> bool:
            if matcher is None:
                return False
            slash = full.rfind("/") + 1
            key = (id(matcher), full[:slash])
            state = reached.get(key)
            if state is None:
                state = reached[key] = matcher.run(matcher.start, full[:slash])
            if state != UNKNOWN:
                state = matcher.run(state, full[slash:])
            return matcher.fullmatch(full) if state == UNKNOWN else matcher.accepts(state)

        def split(either: _Either | None) -> tuple[bool, Callable[[str], object], Matcher | None]:
            """Whether `either` is given, its regex's fullmatch, its automaton."""
            if either is None:
                return False, _never, None
            regex = either.regex.fullmatch if either.regex is not None else _never
            return True, regex, either.matcher

        by_type, type_regex, type_automaton = split(types)
        by_include, include_regex, include_automaton = split(includes)
        by_exclude, exclude_regex, exclude_automaton = split(files_out)

        def excluded_dir(directory: str) -> bool:
            """Whether `directory` (below the target) or one above it (still below the
            target) is excluded. Up to the nearest directory with a verdict, then down
            again: a loop, not a recursion (a tree 1,500 directories deep is one)."""
            unknown: list[str] = []
            known = verdicts.get(directory)
            while known is None:
                unknown.append(directory)
                directory = directory.rpartition("/")[0]
                known = verdicts.get(directory) if len(directory) > len(base) else False
            for below in reversed(unknown):
                known = known or bool(dirs_out and dirs_out.test(below))
                verdicts[below] = known
            return known

        def keeps(path: str) -> bool:
            if not path.startswith(target):
                return self.keeps(path, below=len(self.parts(target)))
            rest = path[cut:].lstrip("/")
            # `/` outside the working directory is one empty component: `/a`, not `a`.
            full = f"{base}/{rest}" if rooted else rest
            if by_type and not (type_regex(full) or automaton(type_automaton, full)):
                return False
            if by_include and not (include_regex(full) or automaton(include_automaton, full)):
                return False
            if by_exclude and (exclude_regex(full) or automaton(exclude_automaton, full)):
                return False
            slash = full.rfind("/")
            return not (dirs_out and slash > len(base) and excluded_dir(full[:slash]))

        return keeps

    def _above_cwd(self, target: str) -> bool:
        """Whether the paths a walk of the absolute `target` prints may start with the
        working directory: rg then matches those from there and the others whole, so
        the path's form is decided per file (issue 32, item 5)."""
        above = target.rstrip("/")
        return (
            target.startswith("/")
            and self.cwd.startswith("/")
            and self.cwd.startswith(above)
            and len(self.cwd) > len(above)
        )

    def _per_file(self, target: str, below: int) -> "Callable[[str], bool]":
        """`keeps` for a walk of `target` above the working directory: a file under the
        working directory is matched from there (none of its components is the searched
        path's own), any other whole, below the searched path's `below` components."""
        # rg reaches the working directory through the directories between it and the
        # searched path, each matched whole: an exclude matching one (`!b` over `b/x`)
        # prunes the working directory's files with it. The working directory itself
        # rg matches as the empty path (its own prefix stripped): `!*/`, `!**/` prune it,
        # `!b`, `!/b` do not (rg 14.1; `!{b,}/` alone, whose empty choice rg does not
        # take there, is pruned here and not by rg).
        above = ["", *components(self.cwd)]
        pruned = any(
            glob.matches(above[:depth], is_dir=True)
            for depth in range(below + 1, len(above))
            for glob in self.excludes
        ) or any(glob.matches([], is_dir=True) for glob in self.excludes)

        def keeps(path: str) -> bool:
            if path.startswith(self.cwd):
                return not pruned and self.keeps(path, below=0)
            return self.keeps(path, below=below)

        return keeps

    def parts(self, path: str) -> list[str]:
        """The components of `path` as the globs see them (module docstring): relative to
        `cwd` if it lies under it, else whole; an absolute path elsewhere starts with an
        empty component, which no anchored glob matches."""
        parts = components(path)
        if not path.startswith("/"):
            return parts
        # As rg's globs strip their root: the working directory as a prefix of the
        # path's bytes (`//abs` is not under `/abs`), then one `/`.
        if self.cwd.startswith("/") and path.startswith(self.cwd):
            return components(path[len(self.cwd) :].removeprefix("/"))
        return ["", *parts]

    def keeps(self, path: str, *, below: int = 0) -> bool:
        """Whether the file at `path` (as typed from the working directory) is searched.

        `below`: how many leading components are the searched path itself. An exclude
        checks only the directories under it (as rg prunes only what it walks), so a
        file found under `tests` by a search of `tests` is the same file named alone.
        """
        parts = self.parts(path) or [path]
        if self.type_globs and not any(g.matches(parts, is_dir=False) for g in self.type_globs):
            return False
        if self.includes and not any(g.matches(parts, is_dir=False) for g in self.includes):
            return False
        for depth in range(min(below, len(parts) - 1) + 1, len(parts) + 1):
            is_dir = depth < len(parts)
            if any(g.matches(parts[:depth], is_dir=is_dir) for g in self.excludes):
                return False
        return True

    def excluding(self, path: str) -> str | None:
        """The options that drop the file named as the path, worded; None if it is kept.

        Only the file itself is matched (its directories are the searched path)."""
        below = len(self.parts(path)) - 1
        if self.keeps(path, below=below):
            return None
        only = Filters(type_globs=self.type_globs)
        reasons = []
        if self.type_globs and not only.keeps(path, below=below):
            reasons.append(" ".join(f"{arg('type')} {quote(t)}" for t in self.types))
        globs = Filters(includes=self.includes, excludes=self.excludes)
        if not globs.keeps(path, below=below):
            reasons.append(" ".join(f"{arg('glob')} {quote(g)}" for g in self.globs))
        return " and ".join(reasons)


def _either(globs: Sequence[Glob], *, files: bool = False) -> "_Either | None":
    """One test of a path that any of `globs` matches (`files`: leave out those that
    match directories only), or None for none: a regex of those that have a linear
    one (alternatives tried in turn: still linear), an automaton of the rest."""
    chosen = [g for g in globs if not (files and g.directories_only)]
    if not chosen:
        return None
    regexes = [g.regex.pattern for g in chosen if g.regex is not None]
    rest = [g.nodes for g in chosen if g.regex is None]
    regex = re.compile("|".join(f"(?:{r})" for r in regexes), re.DOTALL) if regexes else None
    return _Either(regex, Matcher(rest) if rest else None)


def _never(path: str) -> None:
    return None


class _Either(NamedTuple):
    regex: "re.Pattern[str] | None"
    matcher: Matcher | None

    def test(self, path: str) -> bool:
        if self.regex is not None and self.regex.fullmatch(path):
            return True
        return self.matcher is not None and self.matcher.fullmatch(path)


NO_FILTERS = Filters()
ALL_TYPES = "all"


def make_filters(
    types: Sequence[str],
    globs: Sequence[str],
    known_types: Mapping[str, Sequence[str]],
    *,
    cwd: str = "",
) -> Filters:
    """The filters of `--type` names (looked up in rg's `known_types`) and `--glob`s;
    `cwd`: rg's working directory, where its globs are rooted."""
    if not (types or globs):
        return NO_FILTERS
    for name, given in (("type", types), ("glob", globs)):
        if len(given) > FILTERS_MAX:
            raise InputError(
                f"{arg(name)} given {len(given)} times; at most {FILTERS_MAX} are allowed"
            )
    type_globs: list[Glob] = []
    for name in types:
        # rg's `--type all`: a file of any type it knows.
        patterns = (
            [p for globs_of in known_types.values() for p in globs_of]
            if name == ALL_TYPES
            else known_types.get(name)
        )
        if patterns is None:
            raise _unknown_type(name, known_types)
        type_globs += [compile_glob(p) for p in patterns]
    compiled = [compile_glob(g) for g in globs]
    return Filters(
        types=tuple(types),
        globs=tuple(globs),
        type_globs=tuple(type_globs),
        includes=tuple(g for g in compiled if not g.exclude),
        excludes=tuple(g for g in compiled if g.exclude),
        cwd=cwd,
    )


def _unknown_type(name: str, known: Mapping[str, Sequence[str]]) -> UnknownTypeError:
    # Only an error needs difflib; every start-up would pay for its import.
    from difflib import get_close_matches  # noqa: PLC0415

    close = get_close_matches(name, sorted(known), n=5, cutoff=0.6)
    return UnknownTypeError(name, tuple(close), len(known))


def components(path: str) -> list[str]:
    """The names of a path as the filters see them: no `.`, no empty ones (`./a//b`
    is `a/b`; `/abs/x` is `abs/x`, so `--glob '/abs/**'` anchors it)."""
    return [part for part in path.split("/") if part and part != "."]
