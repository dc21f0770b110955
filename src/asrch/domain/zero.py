"""D43: where a zero answer points. Which one more search to make (pure), and what a
`--regex` query spelled in grep's dialect means to rg, or a `|` to the other modes.

The probes, in order, the first that applies being the only one made: the same query
under the working directory when a narrower path was searched, case-insensitively when
the query was not (1 search finds the term elsewhere in this case or another, D57);
case-insensitively when
the search was case-sensitive; as a fixed string under --word / --identifier. Under
--regex, grep's operators that rg reads as literal characters need no search at all.
"""

from asrch.domain.modes import Mode
from asrch.domain.notices import Probe
from asrch.domain.query import Query

GREP_LITERALS = frozenset("|+?(){}")
"""After a `\\`, grep's basic regex reads these as operators, rg as the character
(checked on rg 14.1: `\\|`, `\\+`, `\\?`, `\\(`, `\\)`, `\\{`, `\\}` match themselves).
`\\<` and `\\>` are not here: rg reads them as word boundaries, as GNU grep does."""


def grep_constructs(pattern: str) -> tuple[str, ...]:
    """Each `\\X` of `GREP_LITERALS` written with an odd run of backslashes (so the `\\`
    escapes X, not another `\\`), once, in order of first use."""
    found: list[str] = []
    backslashes = 0
    for char in pattern:
        if char == "\\":
            backslashes += 1
            continue
        if backslashes % 2 == 1 and char in GREP_LITERALS and f"\\{char}" not in found:
            found.append(f"\\{char}")
        backslashes = 0
    return tuple(found)


def literal_operators(query: Query) -> tuple[str, ...]:
    """What the query spells as an operator and its mode reads as the character: under
    --regex grep's constructs; in any other mode a `|`, rg's alternation (issue 40: a
    fixed `"(tabsize|sucmd)":` matched nothing and said only that)."""
    if query.mode is Mode.REGEX:
        return grep_constructs(query.term)
    return ("|",) if "|" in query.term else ()


def probe_for(query: Query, *, narrower: bool) -> Probe | None:
    """The one more search a zero answer of `query` may make, or None."""
    if narrower:
        return "path"
    if not query.ignore_case:
        return "case"
    if query.mode in (Mode.WORD, Mode.IDENTIFIER):
        return "fixed"
    return None


def probed(query: Query, probe: Probe) -> Query:
    """The query the probe searches for."""
    if probe in ("case", "path"):
        return query._replace(options=query.options._replace(ignore_case=True))
    if probe == "fixed":
        return query._replace(options=query.options._replace(mode=Mode.FIXED))
    return query


def inside(path: str, root: str) -> bool:
    """Whether the resolved `path` lies strictly inside the resolved `root`."""
    base = root.rstrip("/") + "/"
    return path != root and path.startswith(base)
