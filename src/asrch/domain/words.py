"""What the core says to its surfaces, by the command table's argument names (D49,
pure): the next step to run (`NextStep`) and the arguments a message names.

The core never spells an option: a message that names one (an input error, a notice)
holds a reference to the argument, and each surface fills it in from the table
(`asrch.spelling`): the command line writes `--word`, a tool's text `mode word`. A
reference sits between two `MARK`s, a control character that no value reaches a message
as (`quote` escapes every control character, and so does everything else that puts
outside words into one), so a term or a path can never read as one.

    f"narrow the term with {arg('identifier')}"   # --identifier / mode identifier
    f"at least one {each('term')}"                 # --term / term in terms
    f"e.g. {given('term', 'connect')}"             # --term connect / terms: ["connect"]
    f"with {call('survey', term=('A', 'B'))}"      # survey --term A --term B /
                                                   # survey(terms=["A", "B"])
"""

import re
from collections.abc import Callable
from typing import Literal, NamedTuple, Protocol

Value = str | int | bool | tuple[str, ...]
"""An argument's value: a word, a number, a flag that is on, or a list of words."""


class NextStep(NamedTuple):
    """A command to run next, keyed by the command table's argument names (D49):
    `NextStep("sample", (("query", "connect"), ("file", "src/net/pool.py")))`. The
    surfaces spell it (`asrch.spelling`): a shell line, an MCP call, JSON. The carried
    search options come first, in the order mode, case, types, globs, then the
    command's own; a surface keeps that order among the options it spells."""

    command: str
    arguments: tuple[tuple[str, Value], ...]

    def __bool__(self) -> bool:  # a NamedTuple of two is always true; no step is empty
        return bool(self.command)


MARK = "\x1f"
"""Around a reference: ASCII's unit separator."""

Form = Literal["arg", "each", "given", "call", "type_list", "exclusions"]
"""What a reference stands for: the argument, each of its values, one value given, a
call, rg's type list, the default exclusions."""


class Reference(NamedTuple):
    form: Form
    name: str
    """The argument's name in the table (a command's name for `call`)."""
    words: tuple[str, ...] = ()
    """`given`: the value; `call`: `NAME=VALUE` for each value; `type_list`: how many
    types rg knows."""


def _ref(form: Form, name: str, *words: str) -> str:
    return MARK + " ".join((form, name, *words)) + MARK


def arg(name: str) -> str:
    """The argument itself: `--identifier`, `-i`; a tool's `mode identifier`."""
    return _ref("arg", name)


def each(name: str) -> str:
    """One value of a list argument: `--term`; a tool's `term in terms`."""
    return _ref("each", name)


def given(name: str, value: str) -> str:
    """The argument with a value (one word of asrch's, not a user's)."""
    return _ref("given", name, value)


def call(command: str, **values: tuple[str, ...]) -> str:
    """A whole call, as an example (words of asrch's, not a user's)."""
    return _ref("call", command, *(f"{k}={v}" for k, items in values.items() for v in items))


def type_list(known: int) -> str:
    """Where the `known` type names are listed."""
    return _ref("type_list", "type", str(known))


def exclusions() -> str:
    """Where the surface lists what a search of a directory leaves out (D43), with the
    space before it; empty where the caller cannot read it (a tool caller runs no help)."""
    return _ref("exclusions", "help")


_REFERENCE = f"{MARK}([^{MARK}]*){MARK}"
"""Compiled when a message holds a reference (most answers hold none: start-up)."""


class Spelling(Protocol):
    """How one surface writes what the core names: each reference, and the next step
    as the text after `next: ` (None: the surface offers none)."""

    def reference(self, reference: Reference) -> str: ...

    def step(self, step: NextStep) -> str | None: ...


def spelled(text: str, spelling: Spelling) -> str:
    """`text` with each reference written as `spelling` writes it."""
    if MARK not in text:
        return text
    return re.sub(_REFERENCE, _writer(spelling), text)


def _writer(spelling: Spelling) -> Callable[[re.Match[str]], str]:
    def write(found: re.Match[str]) -> str:
        form, name, *words = found.group(1).split(" ")
        return spelling.reference(Reference(form, name, tuple(words)))  # type: ignore[arg-type]

    return write
