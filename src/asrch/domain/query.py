"""What the user asked for: a term and how to match it."""

from typing import NamedTuple

from asrch.domain.errors import InputError
from asrch.domain.filters import NO_FILTERS, Filters
from asrch.domain.limits import SHORT_TERM
from asrch.domain.modes import Mode
from asrch.domain.text_safety import quote
from asrch.domain.words import arg, call


class SearchOptions(NamedTuple):
    """How every term of one call matches and which files it searches: the options all
    four commands share, one record from the table's `update`s (`asrch.commands.table`)
    to rg's argument list (`asrch.engine.argv`). Each field is named as the argument that
    sets it, so a next step carries every field that is not its default
    (`asrch.domain.next_step.carried`): a new search option is a field here, its table
    entry and its engine line, nothing between."""

    mode: Mode = Mode.FIXED
    ignore_case: bool = False
    """`-i`: letters match in either case, in every mode (D30)."""
    type: tuple[str, ...] = ()
    """`--type` names as given, in order (D30)."""
    glob: tuple[str, ...] = ()
    """`--glob` values as given (`!GLOB` excludes), in order (D30)."""
    max_filesize: str | None = None
    """`--max-filesize` as given (`1M`): a walk skips the files larger than that."""


DEFAULT_OPTIONS = SearchOptions()


class Query(NamedTuple):
    term: str
    options: SearchOptions = DEFAULT_OPTIONS
    """The call's options, whole: the engine reads every one of them from here."""
    filters: Filters = NO_FILTERS
    """`options.type` / `options.glob` resolved: which of the files walked are searched."""

    @property
    def mode(self) -> Mode:
        return self.options.mode

    @property
    def ignore_case(self) -> bool:
        return self.options.ignore_case

    @property
    def has_word_character(self) -> bool:
        """A letter or a digit: only such a term has edges a bounded mode can hold."""
        return any(char.isalnum() for char in self.term)

    @property
    def is_short(self) -> bool:
        """A plain fixed-string term short enough to hit inside other words (D14).

        Only a term with a letter or a digit: the bounded modes would change what a
        term of punctuation means (`--word "->"` demands word boundaries around it),
        not just where it may match.
        """
        return self.mode is Mode.FIXED and len(self.term) <= SHORT_TERM and self.has_word_character


def has_unescaped_pipe(pattern: str) -> bool:
    """True if some `|` is preceded by an even number of backslashes (D12)."""
    backslashes = 0
    for char in pattern:
        if char == "\\":
            backslashes += 1
            continue
        if char == "|" and backslashes % 2 == 0:
            return True
        backslashes = 0
    return False


def make_query(
    term: str,
    options: SearchOptions = DEFAULT_OPTIONS,
    *,
    what: str = "query",
    filters: Filters = NO_FILTERS,
) -> Query:
    """Validate one term; `what` names it in messages (`query`, or `--term` as a
    reference: `asrch.domain.words`)."""
    if term == "":
        raise InputError(f"empty {what}; give a non-empty search term")
    if "\n" in term:
        # ripgrep matches within one line, so a term with a line break can never match;
        # rg itself would split it into several patterns, an OR the seed forbids.
        raise InputError(f"{what} contains a line break; asrch matches within one line")
    if options.mode is Mode.REGEX and has_unescaped_pipe(term):
        raise UnescapedPipeError(
            f"{refused_pipe(term, what)}; compare alternatives with "
            f"{call('survey', term=('A', 'B'))}; {LITERAL_PIPE}"
        )
    return Query(term, options, filters)


LITERAL_PIPE = "a literal | is written \\|"


def refused_pipe(term: str, what: str) -> str:
    """The refusal's first words: the query named, the reason."""
    return f"{arg('regex')} {what} {quote(term)} contains an unescaped '|'"


class UnescapedPipeError(InputError):
    """D12's refusal in its general words; a command that knows the path searched words
    it again with the survey call that answers it (`asrch.domain.alternatives`)."""
