"""Glob matching in time linear in the path (issue 32, item 2): an automaton, not a
backtracking regex.

A glob compiled to a Python regex (`[^/]*a[^/]*a…b`) backtracks: 12 `*a` groups against
a name of 40 `a`s took minutes. rg's globset compiles to Rust's regex, which never
backtracks. Here a glob is parsed into a small tree (`Node`s), turned into an NFA
(Thompson's construction), and run as a DFA built lazily, one state per set of NFA
states met: each character of a path is one table lookup once its state is known, and
a new state costs one step over at most every NFA state, so matching a path of n
characters against a glob of m parts costs O(n·m) at worst, whatever the glob. Past
`_MAX_STATES` cached states a run goes on over sets without caching them (still
O(n·m)), so a hostile glob cannot grow memory without bound either.

What each node matches is `filters`' business (it parses the glob); this module only
runs them. A character class is tested by its own one-character regex (no repetition,
so no backtracking), which keeps rg's reading of ranges and negation exactly as the
regex translation had it.
"""

import re
import threading
from collections.abc import Callable, Sequence
from typing import NamedTuple


class One(NamedTuple):
    """Exactly one character that `test` accepts (`regex`: the same, as a regex)."""

    test: Callable[[str], bool]
    regex: str


class Star(NamedTuple):
    """Any number of characters that `test` accepts (`regex`: one of them)."""

    test: Callable[[str], bool]
    regex: str


class Either(NamedTuple):
    """Any one of `choices`, each a sequence of nodes."""

    choices: tuple[tuple["Node", ...], ...]


Node = One | Star | Either


def literal(char: str) -> One:
    return One(char.__eq__, re.escape(char))


def _not_slash(char: str) -> bool:
    return char != "/"


def _anything(char: str) -> bool:
    return True


NOT_SLASH = One(_not_slash, "[^/]")
ANY_NAME = Star(_not_slash, "[^/]")
ANY_PATH = Star(_anything, ".")


def char_class(regex: str) -> One:
    """A class given as a one-character regex (`[a-c]`, `[^a]`)."""
    compiled = re.compile(regex, re.DOTALL)

    def test(char: str) -> bool:
        return compiled.fullmatch(char) is not None

    return One(test, regex)


def as_regex(body: Sequence[Node], *, anchored: bool) -> str | None:
    """A regex (matched whole, DOTALL) of the glob `body` (matched from the start if
    `anchored`, else after any leading directories), when Python's backtracking engine
    provably runs it in time linear in the path; None otherwise (the glob then runs as
    a `Matcher`).

    Linear when the body has at most one choice point (a `Star`, or an `Either` of
    parts with none): a fullmatch from position 0 then tries each extent or choice once,
    O(n·m). Unanchored, the regex starts with `(?:.*/)?`, a second choice point with
    one option per `/` of the path; so the body's one choice point must be a `Star`
    that stops at `/` (or an `Either`), and only a literal `/` may match one: each
    option then puts the star in another component, and each component is scanned
    once, O(n·m) again.
    """
    choice_points = 0
    parts: list[str] = []

    def one(node: One) -> bool:
        parts.append(node.regex)
        return anchored or node.regex == "/" or not node.test("/")

    for node in body:
        if isinstance(node, One):
            if not one(node):
                return None
            continue
        choice_points += 1
        if choice_points > 1:
            return None
        if isinstance(node, Star):
            if not anchored and node.test("/"):
                return None
            parts.append(f"{node.regex}*")
            continue
        parts.append("(?:")
        for index, choice in enumerate(node.choices):
            if index:
                parts.append("|")
            for inner in choice:
                if not isinstance(inner, One) or not one(inner):
                    return None
        parts.append(")")
    return ("" if anchored else "(?:.*/)?") + "".join(parts)


_MAX_STATES = 4096
"""DFA states cached per matcher; past them a run steps over sets uncached."""

UNKNOWN = -2
"""`run`'s answer once the cache is full."""


class Matcher:
    """Whether a whole string matches one of the node sequences it was built from."""

    def __init__(self, sequences: Sequence[Sequence[Node]]) -> None:
        # The NFA: per state, its character edges (test, next state) and its empty
        # edges; state 0 starts, `accept` accepts.
        self._edges: list[list[tuple[Callable[[str], bool], int]]] = []
        self._empty: list[list[int]] = []
        start = self._state()
        self._accept = self._state()
        for sequence in sequences:
            first = self._state()
            self._empty[start].append(first)
            self._empty[self._sequence(sequence, first)].append(self._accept)
        self._closure = [self._close(s) for s in range(len(self._edges))]
        # The DFA, built as it is met: sets of NFA states by id, their transitions.
        self._sets: list[frozenset[int]] = []
        self._ids: dict[frozenset[int], int] = {}
        self._moves: list[dict[str, int]] = []
        self._accepts: list[bool] = []
        self._lock = threading.Lock()
        self._start = self._dfa_state(self._closure[0])
        self._dead = self._dfa_state(frozenset())

    def fullmatch(self, text: str) -> bool:
        state = self.run(self._start, text)
        if state == UNKNOWN:
            return self._over_sets(text)
        return self.accepts(state)

    @property
    def start(self) -> int:
        """The state before any character (`run`'s first state)."""
        return self._start

    def accepts(self, state: int) -> bool:
        """Whether the text that led to `state` (not `UNKNOWN`) matches."""
        return state >= 0 and self._accepts[state]

    def run(self, state: int, text: str) -> int:
        """The state after `text` from `state`, so that a directory's state is reached
        once for all its files: -1 if no text that starts so can match, `UNKNOWN` if
        the cache is full (`fullmatch` then runs the whole text over sets)."""
        if state < 0:
            return state
        moves = self._moves
        for char in text:
            try:
                state = moves[state][char]
            except KeyError:
                state = self._move(state, char)
                if state == UNKNOWN:
                    return UNKNOWN
        return -1 if state == self._dead else state

    # Building the NFA.

    def _state(self) -> int:
        self._edges.append([])
        self._empty.append([])
        return len(self._edges) - 1

    def _sequence(self, nodes: Sequence[Node], state: int) -> int:
        """Add `nodes` after `state`; the state they end in."""
        for node in nodes:
            if isinstance(node, One):
                after = self._state()
                self._edges[state].append((node.test, after))
                state = after
            elif isinstance(node, Star):
                loop = self._state()
                self._empty[state].append(loop)
                self._edges[loop].append((node.test, loop))
                state = loop
            else:
                after = self._state()
                for choice in node.choices:
                    first = self._state()
                    self._empty[state].append(first)
                    self._empty[self._sequence(choice, first)].append(after)
                state = after
        return state

    def _close(self, state: int) -> frozenset[int]:
        seen = {state}
        todo = [state]
        while todo:
            for following in self._empty[todo.pop()]:
                if following not in seen:
                    seen.add(following)
                    todo.append(following)
        return frozenset(s for s in seen if self._edges[s] or s == self._accept)

    # Running it.

    def _step(self, states: frozenset[int], char: str) -> frozenset[int]:
        reached: set[int] = set()
        for state in states:
            for test, following in self._edges[state]:
                if test(char):
                    reached |= self._closure[following]
        return frozenset(reached)

    def _dfa_state(self, states: frozenset[int]) -> int:
        known = self._ids.get(states)
        if known is None:
            known = len(self._sets)
            self._sets.append(states)
            self._moves.append({})
            self._accepts.append(self._accept in states)
            self._ids[states] = known
        return known

    def _move(self, state: int, char: str) -> int:
        """The DFA state after `char` from `state`, added if new (`UNKNOWN`: the cache
        is full)."""
        with self._lock:
            known = self._moves[state].get(char)
            if known is not None:
                return known
            reached = self._step(self._sets[state], char)
            if reached not in self._ids and len(self._sets) >= _MAX_STATES:
                return UNKNOWN
            following = self._dfa_state(reached)
            self._moves[state][char] = following
            return following

    def _over_sets(self, text: str) -> bool:
        """`fullmatch` without the cache: O(n·m), no memory kept."""
        states = self._closure[0]
        for char in text:
            states = self._step(states, char)
            if not states:
                return False
        return self._accept in states
