"""Which trigrams every line a query matches must hold (or None: it cannot be told).

The index only narrows: a file is skipped only if a trigram every match needs is not
in it. So a trigram is asked for only where it is proven necessary:

- fixed, word and identifier modes: the term is in every match, byte for byte;
- a regex: only its literal runs outside groups, classes and alternations, a character
  made optional (`?`, `*`, `{`) dropped; any `|`, `(?` flag group or escape asrch does
  not read is no proof (None: scan);
- `-i` folds case as rg does (Unicode simple case folding): `k` also matches U+212A and
  `s` U+017F, which the index's ASCII-and-Unicode folding is not proven to fold alike,
  so a trigram holding k, s or any non-ASCII letter is not asked for under `-i`.

The index folds case itself (`case_sensitive 0`): a case-sensitive term's trigrams are
looked up folded, which can only add candidates. A character rg cannot match in a line
(LF, CR, NUL) ends the proof. A term with no trigram left: None (scan).
"""

from asrch.domain.modes import Mode
from asrch.domain.query import Query

_META = frozenset("\\.+*?()|[]{}^$#&-~")
_OPTIONAL = frozenset("?*{")
_ESCAPED_LITERAL = frozenset("\\.+*?()|[]{}^$#&-~ ")
_UNSURE_UNDER_I = frozenset("kKsS")
MAX_GRAMS = 32
"""At most this many trigrams asked of the index (a 100,000-byte term has as many)."""


def _escaped(pattern: str, i: int) -> str | None:
    """The character `\\X` at `i` stands for, if a literal asrch reads."""
    if i + 1 >= len(pattern) or pattern[i + 1] not in _ESCAPED_LITERAL:
        return None
    return pattern[i + 1]


def _class_end(pattern: str, i: int) -> int | None:
    """Where the class `[...]` opened at `i` ends, if a plain one (no nested class, no
    escape: nothing asrch would misread)."""
    close = pattern.find("]", i + 2)
    if close < 0 or "[" in pattern[i + 1 : close] or "\\" in pattern[i + 1 : close]:
        return None
    return close + 1


def _runs_of_regex(pattern: str) -> list[str] | None:
    """The literal runs every match of `pattern` holds, or None where that is unsure."""
    if "|" in pattern or "(?" in pattern:
        return None
    runs: list[str] = []
    run: list[str] = []
    depth = 0
    i = 0

    def end() -> None:
        if depth == 0 and run:
            runs.append("".join(run))
        run.clear()

    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            char = _escaped(pattern, i)
            if char is None:
                return None
            i += 2
            if i < len(pattern) and pattern[i] in _OPTIONAL:
                end()
            elif depth == 0:
                run.append(char)
            continue
        if c == "[":
            end()
            close = _class_end(pattern, i)
            if close is None:
                return None
            i = close
            continue
        if c == "(":
            end()
            depth += 1
        elif c == ")":
            if depth == 0:
                return None
            depth -= 1
        elif c in _OPTIONAL:
            # What precedes it is never in a run (each reader looks ahead for it).
            end()
            if c == "{":
                close = pattern.find("}", i)
                if close < 0:
                    return None
                i = close
        elif c in _META or c == "+":
            end()
        elif depth == 0:
            if i + 1 < len(pattern) and pattern[i + 1] in _OPTIONAL:
                end()
                i += 1
                continue
            run.append(c)
        i += 1
    if depth:
        return None
    end()
    return runs


def _trigrams(run: str, *, ignore_case: bool) -> list[str]:
    grams = []
    for start in range(len(run) - 2):
        gram = run[start : start + 3]
        if any(c in "\n\r\0" or "\ud800" <= c <= "\udfff" for c in gram):
            continue
        if ignore_case and any(c in _UNSURE_UNDER_I or not c.isascii() for c in gram):
            continue
        grams.append(gram)
    return grams


def needed_trigrams(query: Query) -> list[str] | None:
    """The trigrams every match of `query` holds (each once, in order), or None."""
    if query.mode is Mode.REGEX:
        runs = _runs_of_regex(query.term)
        if runs is None:
            return None
    else:
        runs = [query.term]
    # Each once, in order: a dict, not a list's `in` (a 120,000-byte term has as many
    # trigrams; checked against a list, 8 s of CPU for one scout).
    unique = dict.fromkeys(g for run in runs for g in _trigrams(run, ignore_case=query.ignore_case))
    grams = list(unique)
    if len(grams) > MAX_GRAMS:
        # Any subset still holds for every match: a long term asks a spread of them.
        step = len(grams) / MAX_GRAMS
        grams = [grams[int(i * step)] for i in range(MAX_GRAMS)]
    return grams or None


def match_expression(grams: list[str]) -> str:
    """FTS5's query for files holding every one of `grams`."""
    return " AND ".join('"' + g.replace('"', '""') + '"' for g in grams)
