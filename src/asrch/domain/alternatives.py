"""The refusal of a `--regex` query's `|`, made to name the survey call that answers it
(pure; issue 40).

The seed keeps its rule: scout, sample and show refuse an unescaped `|` under `--regex`,
and asrch does not parse regexes to split an OR. One shape needs no parsing: a plain
alternation, `a|b|c` at the top or one group `P(a|b|c)S` (or `(?:…)`), whose prefix,
suffix and alternatives hold no regex operator once a simple escape (`\\(`, `\\.`) is
read as its character. Its alternatives are fixed strings, so survey counts them in one
call (D56 places a rare one as `path:LINE`): the refusal names that call as its next
step (D54), the path and the search options carried, the mode made fixed. Any other
regex keeps the general words; the race's agents retried variants of it instead.
"""

from asrch.domain.errors import InputError
from asrch.domain.limits import MAX_TERMS, SURVEY_PLACES_MAX
from asrch.domain.modes import Mode
from asrch.domain.next_step import carried, step
from asrch.domain.query import LITERAL_PIPE, Query, SearchOptions, refused_pipe
from asrch.domain.words import NextStep, Value, each

OPERATORS = frozenset(".^$*+?()[]{}|\\")
"""The characters a regex reads as operators when written bare."""

_BOUNDARIES = frozenset("<>")
"""ASCII punctuation whose escape is no literal: rg reads `\\<` `\\>` as word edges."""

Token = tuple[str, bool]
"""A character and whether it is an operator (bare in `OPERATORS`), not a literal."""


def _tokens(pattern: str) -> list[Token] | None:
    """The pattern's characters, each escape read as its character; None when some escape
    is no plain character (`\\d`, `\\b`, `\\x41`, `\\<`) or the pattern ends in `\\`."""
    tokens: list[Token] = []
    escaped = False
    for char in pattern:
        if escaped:
            if not (char.isascii() and _punctuation(char)) or char in _BOUNDARIES:
                return None
            tokens.append((char, False))
            escaped = False
        elif char == "\\":
            escaped = True
        else:
            tokens.append((char, char in OPERATORS))
    return None if escaped else tokens


def _punctuation(char: str) -> bool:
    return char.isprintable() and not char.isalnum() and not char.isspace()


def _literal(tokens: list[Token]) -> str | None:
    """The tokens' text when none is an operator."""
    return None if any(operator for _, operator in tokens) else "".join(c for c, _ in tokens)


def _split(tokens: list[Token]) -> list[str] | None:
    """The alternatives between bare `|`s, each a non-empty literal, else None (an empty
    alternative makes the rest optional: no list of fixed strings)."""
    parts: list[list[Token]] = [[]]
    for token in tokens:
        if token == ("|", True):
            parts.append([])
        else:
            parts[-1].append(token)
    texts = [_literal(part) for part in parts]
    if len(texts) < 2 or any(not text for text in texts):
        return None
    return [text for text in texts if text]


def plain_alternatives(pattern: str) -> tuple[str, ...] | None:
    """The fixed strings a plain alternation matches, in order, once each: `a|b` gives
    (`a`, `b`); `get_(x|y)\\(` gives (`get_x(`, `get_y(`); None for any other regex."""
    tokens = _tokens(pattern)
    if tokens is None:
        return None
    opens = [i for i, token in enumerate(tokens) if token == ("(", True)]
    closes = [i for i, token in enumerate(tokens) if token == (")", True)]
    if not opens and not closes:
        terms = _split(tokens)
    elif len(opens) == 1 and len(closes) == 1 and opens[0] < closes[0]:
        start, end = opens[0], closes[0]
        prefix, suffix = _literal(tokens[:start]), _literal(tokens[end + 1 :])
        inner = tokens[start + 1 : end]
        if inner[:2] == [("?", True), (":", False)]:  # a non-capturing group
            inner = inner[2:]
        split = _split(inner)
        if prefix is None or suffix is None or split is None:
            return None
        terms = [prefix + text + suffix for text in split]
    else:
        return None
    return None if terms is None else tuple(dict.fromkeys(terms))


def pipe_refusal(query: Query, path: str) -> InputError | None:
    """The refusal of `query`'s unescaped `|` (searched under `path`) when its regex is a
    plain alternation: the survey call that answers it, or how many terms are too many
    for one; None for any other regex (the general words stand)."""
    terms = plain_alternatives(query.term)
    if terms is None or len(terms) < 2:  # `a|a` is one string: no list to survey
        return None
    named = refused_pipe(query.term, "query")
    if len(terms) > MAX_TERMS:
        return InputError(
            f"{named}; its {len(terms)} alternatives are fixed strings, more than the "
            f"{MAX_TERMS} terms a survey compares: split them over survey calls; {LITERAL_PIPE}"
        )
    survey = survey_step(query.options, terms, path)
    if not survey:  # a term that cannot be pasted (a control character)
        return None
    return InputError(
        f"{named}; its {len(terms)} alternatives are fixed strings: survey counts them in "
        f"one call, one {each('term')} each (path:LINE for a term with at most "
        f"{SURVEY_PLACES_MAX} lines in a path); {LITERAL_PIPE}",
        step=survey,
    )


def survey_step(options: SearchOptions, terms: tuple[str, ...], path: str) -> NextStep:
    """survey of `terms` under `path` with the call's options, the mode made fixed."""
    fixed = Query("", options._replace(mode=Mode.FIXED))
    arguments: list[tuple[str, Value]] = [*carried(fixed), ("term", terms)]
    if path != ".":
        arguments.append(("paths", (path,)))
    return step("survey", arguments)
