"""cyclopts' errors in asrch's words (D20), and D25's rules as cyclopts converters.

cyclopts reads the tokens with its own conventions (D49): a token that begins with `-`
is an option unless it is a number (`-1`, `-.5`), so a value that begins with `-`
follows `--` (`asrch show needle -- -`) or is joined with `=` (`--term=-e`). What
cyclopts would accept but asrch does not (`3.5` rounded, `0x10` re-based) is refused by
the converters here, in the message D25 documents. What cyclopts itself refuses (an
unknown option, one given twice, a missing or extra argument) comes out as a
`CycloptsError`, which `worded` turns into asrch's one line, naming the tokens as they
were typed; an unknown option a newcomer types from grep or rg (`-w`, `-C 3`, `--json`)
is answered with the option asrch has for it (`did_you_mean`).

One rule cyclopts does not hold: a flag takes no value (D25: `--word=yes` is an error),
so `refuse_flag_values` looks for `FLAG=` among the options first. cyclopts 5.5 reads an
attached value of a `bool` flag as a bool by its own rule (its docs, *Coercion Rules*,
Bool 3: `--flag=false` is False), in the binding step, and keeps only the resulting
True/False: no converter, validator or token of the flag ever holds the text. What its
public API offers was tried (issue 33) and each loses a rule: a `validator` sees only the
bool (`--word=no` is just off); a `negative=` name takes `=value` too, inverted;
`Parameter(count=True)` refuses `--word=no` but reads `--word=0` as off and `--word
--word` as 2 instead of D25's repeat error; a non-`bool` hint makes the flag take the
next word as its value (`--word retry src` would eat the term).
"""

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from cyclopts.exceptions import (
    CycloptsError,
    MissingArgumentError,
    RepeatArgumentError,
    UnknownCommandError,
    UnknownOptionError,
    UnusedCliTokensError,
)

from asrch.commands.arguments import Argument
from asrch.commands.table import COMMANDS, Command, allows_regex
from asrch.domain.errors import InputError, NotDigitsError
from asrch.domain.text_safety import quote

_DIGITS = frozenset("0123456789")


class ArgumentError(InputError):
    """The command line does not fit the grammar; `with_help`: the usage follows."""

    def __init__(self, message: str, *, with_help: bool = False) -> None:
        super().__init__(message)
        self.with_help = with_help


class UnknownWordError(ArgumentError):
    """An unknown command or option: named bare (`unknown option: --bogus`), the usage
    after it unless the line gives the asrch way (`habit`)."""

    def __init__(self, message: str, *, with_help: bool = True) -> None:
        super().__init__(message, with_help=with_help)


def one_mode(command: Command[Any], values: Mapping[str, Any]) -> None:
    """The mode flags are the command line's spelling of one `mode` (D11): at most one
    of them, and `--regex` only where the command's `mode` takes it."""
    flags = [a for a in command.options if a.value_type == "flag" and a.tool_help is None]
    chosen = [a.spelling for a in flags if values.get(a.name)]
    if values.get("regex") and not allows_regex(command):
        raise ArgumentError(
            f"{command.name} compares fixed terms; --regex is not allowed "
            "(use --word or --identifier, or scout --regex for one pattern)"
        )
    if len(chosen) > 1:
        raise ArgumentError(
            f"{' and '.join(chosen)} cannot be combined; choose one of "
            f"{', '.join(a.spelling for a in flags)} (or none for a fixed string)"
        )


def refuse_flag_values(tokens: Sequence[str]) -> None:
    """A flag written with a value (`--word=yes`, `-i=`), before `--`: an input error."""
    arguments = _arguments(tokens[0]) if tokens else ()
    flags = {s: a.spelling for a in arguments if a.value_type == "flag" for s in _spellings(a)}
    if tokens and tokens[0] == "mcp":
        flags["--structured"] = "--structured"
    for token in _options(tokens[1:]):
        spelling, equals, _ = token.partition("=")
        if equals and spelling in flags:
            name = flags[spelling]
            raise ArgumentError(f"{name} is a flag and takes no value, got {quote(token)}")


def looks_like_option(token: str) -> bool:
    """An option to cyclopts (`-x`, `--name`, `-`): a dash, and no number (`-1`, `-.5`,
    `-0x10`, `-1:` are values), as cyclopts reads a token."""
    if not token.startswith("-"):
        return False
    return token.lower() == "-j" or not (_number(token) or _slice(token))


def _number(token: str) -> bool:
    for read in (complex, lambda t: int(t, 0)):
        try:
            read(token)
        except ValueError:
            continue
        return True
    return False


def _slice(token: str) -> bool:
    parts = token.split(":")
    if not 2 <= len(parts) <= 3:
        return False
    try:
        [int(part) for part in parts if part.strip()]
    except ValueError:
        return False
    return True


def read_whole_number(argument: Argument, text: str) -> int:
    """ASCII digits only, `03` is 3; anything else is an error naming it as typed."""
    name = argument.spelling
    allowed = argument.allowed_range()
    if not text or not set(text) <= _DIGITS:
        raise NotDigitsError(name, text, allowed)
    significant = text.lstrip("0") or "0"
    # Python reads and prints at most this many digits (0: no limit).
    most = sys.get_int_max_str_digits()
    if most and len(significant) > most:
        raise ArgumentError(
            f"{name} has {len(significant)} digits, more than the {most} asrch reads; "
            f"allowed: {allowed}"
        )
    return int(significant)


def converter_for(argument: Argument) -> Callable[[Any, Sequence[Any]], Any] | None:
    """The cyclopts converter that holds the option's rule; none for a flag, which
    cyclopts binds itself (its rule: `refuse_flag_values`)."""
    name = argument.spelling

    def number(type_: Any, tokens: Sequence[Any]) -> int:
        return read_whole_number(argument, tokens[0].value)

    def choice(type_: Any, tokens: Sequence[Any]) -> str:
        text: str = tokens[0].value
        if text not in argument.choices:
            words = argument.choices
            listed = " or ".join(words) if len(words) < 3 else ", ".join(words)
            raise ArgumentError(f"{name} takes {listed}, got {quote(text)}")
        return text

    def text(type_: Any, tokens: Sequence[Any]) -> str:
        return str(tokens[0].value)

    def texts(type_: Any, tokens: Sequence[Any]) -> list[str]:
        return [t.value for t in tokens]

    converters = {"number": number, "choice": choice, "text": text, "texts": texts}
    return converters.get(argument.value_type)


def _options(tokens: Sequence[str]) -> list[str]:
    return list(tokens[: tokens.index("--")]) if "--" in tokens else list(tokens)


def _arguments(command: str) -> tuple[Argument, ...]:
    found = COMMANDS.get(command)
    return found.arguments if found is not None else ()


def _spellings(argument: Argument) -> tuple[str, ...]:
    return (argument.spelling, *argument.aliases)


def _typed(tokens: Sequence[str], argument: Argument) -> list[str]:
    """Each time the option was given, as typed (`--clusters 1`, `--clusters=2`)."""
    shown = []
    options = _options(tokens)
    for i, token in enumerate(options):
        spelling, equals, _ = token.partition("=")
        if spelling not in _spellings(argument):
            continue
        if equals or argument.value_type == "flag":
            shown.append(quote(token))
        elif i + 1 < len(options):
            shown.append(f"{spelling} {quote(options[i + 1])}")
    return shown


def _argument_named(command: str, names: Sequence[str]) -> Argument | None:
    return next((a for a in _arguments(command) if set(_spellings(a)) & set(names)), None)


def _missing(exc: MissingArgumentError, command: str, tokens: Sequence[str]) -> ArgumentError:
    argument = exc.argument
    names = tuple(argument.names) if argument is not None else ()
    option = next((n for n in names if n.startswith("-")), None)
    if option is not None:
        # The first time it is given with nothing after it, or an option after it.
        for i, token in enumerate(_options(tokens)):
            if token not in names:
                continue
            if i + 1 == len(tokens):
                return ArgumentError(f"{token} needs a value; nothing follows it")
            value = tokens[i + 1]
            if looks_like_option(value):
                return ArgumentError(
                    f"{token} needs a value, but {quote(value)} looks like an option; "
                    f"if {quote(value)} is the value, write {quote(token + '=' + value)}"
                )
        return ArgumentError(f"{option} needs a value; nothing follows it")
    return arguments_count(command, tokens)


def _positionals(command: str, tokens: Sequence[str]) -> list[str]:
    """The arguments given besides options: what the count errors list."""
    declared = [a for a in _arguments(command) if a.cli is not None and not a.positional]
    taking = {s for a in declared if a.value_type != "flag" for s in _spellings(a)}
    got: list[str] = []
    skip = False
    dashes = False
    for token in tokens:
        if skip:
            skip = False
        elif dashes or not looks_like_option(token):
            got.append(token)
        elif token == "--":
            dashes = True
        elif token in taking:
            skip = True
    return got


def arguments_count(command: str, tokens: Sequence[str]) -> ArgumentError:
    """Too few or too many arguments: what the command needs, what it got."""
    found = COMMANDS.get(command)
    positionals = found.positionals if found is not None else ()
    required = [a.spelling for a in positionals if a.required or a.unless]
    most = None if any(a.many for a in positionals) else len(positionals)
    got = _positionals(command, tokens[1:])
    needs = " and ".join(required)
    for argument in positionals:
        if argument.unless and found is not None:  # D46: show FILE --line N
            other = next(a for a in found.arguments if a.name == argument.unless)
            rest = [a.spelling for a in positionals if a.required]
            needs += f", or {' and '.join([*rest, f'{other.spelling} {other.metavar}'])}"
    if len(got) < len(required):
        if (missing := _missing_line(command, tokens[1:], got)) is not None:
            return missing
        listed = " ".join(quote(a) for a in got)
        received = "no argument" if not got else f"{len(got)} argument{'s' if len(got) > 1 else ''}"
        received += " besides options" + (f": {listed}" if got else "")
        return ArgumentError(
            f"{command} needs {needs}, got {received}; see the usage below",
            with_help=True,
        )
    extra = got[most:] if most is not None else []
    note = ""
    if "--" in tokens and any(looks_like_option(a) for a in extra):
        note = " (after --, options are read as arguments; put them before --)"
    return ArgumentError(
        f"unexpected argument for {command}: {' '.join(quote(a) for a in extra)}"
        f"{note}; see the usage below",
        with_help=True,
    )


def _missing_line(command: str, tokens: Sequence[str], got: Sequence[str]) -> ArgumentError | None:
    """`show --scope FILE`: one argument, `--scope` without `--line` (item 9 of issue
    40). The call means a window: say the one thing missing, as the MCP tool does, not
    the whole usage."""
    arguments = {a.name: a for a in _arguments(command)}
    scope, line = arguments.get("scope"), arguments.get("line")
    if scope is None or line is None or len(got) != 1:
        return None
    typed = {t.partition("=")[0] for t in _options(tokens)}
    if typed.isdisjoint(_spellings(scope)) or not typed.isdisjoint(_spellings(line)):
        return None
    return ArgumentError(
        f"{scope.spelling} needs {line.spelling} {line.metavar}, the line whose unit to print "
        f"(or QUERY before {quote(got[0])}, to print each match's)"
    )


def _combined(tokens: Sequence[str]) -> str | None:
    """The first `-iw`: short flags run together, which cyclopts splits and asrch does
    not (no option is spelled so)."""
    return next(
        (t for t in _options(tokens[1:]) if looks_like_option(t) and len(t) > 2 and t[1] != "-"),
        None,
    )


class Habit(NamedTuple):
    """The asrch way for a grep or rg option: the command's argument for it (with its
    value), where the command has one; else what asrch does instead."""

    argument: str | None
    value: str | None = None
    otherwise: str = ""


_CONTEXT = Habit("context", otherwise="context is show's: show --line N --context N (0-5)")
_LISTS = Habit(
    None, otherwise="scout lists the files: the top 5, or up to 20 lines each with its file"
)
_COUNTS = Habit(None, otherwise="scout counts: its matches and files are matching lines and files")
_QUERY = Habit(
    "term",
    otherwise="the query is an argument (after -- if it starts with -); several: survey --term T",
)
FAMILIAR: dict[str, Habit] = {
    "-w": Habit("word"),
    "--word-regexp": Habit("word"),
    "-C": _CONTEXT,
    "-A": _CONTEXT,
    "-B": _CONTEXT,
    "--context": _CONTEXT,
    "-t": Habit("type"),
    "-g": Habit("glob"),
    "--json": Habit("format", "json"),
    "-l": _LISTS,
    "--files-with-matches": _LISTS,
    "-n": Habit(None, otherwise="lines are always numbered (N:match, N-context)"),
    "--line-number": Habit(None, otherwise="lines are always numbered (N:match, N-context)"),
    "-F": Habit(None, otherwise="a fixed string is the default (--regex for a pattern)"),
    "--fixed-strings": Habit(
        None, otherwise="a fixed string is the default (--regex for a pattern)"
    ),
    "-e": _QUERY,
    "--regexp": _QUERY,
    "-S": Habit(None, otherwise="case-sensitive unless -i"),
    "--smart-case": Habit(None, otherwise="case-sensitive unless -i"),
    "-c": _COUNTS,
    "--count": _COUNTS,
    "--count-matches": _COUNTS,
}
"""What a newcomer types from grep or rg, and the asrch way (issue 40, item 9)."""


def habit(command: str, option: str) -> str | None:
    """The asrch way for grep's or rg's `option` in `command`, as the text after
    `unknown option: OPTION; ` (the whole answer: no usage follows), or None."""
    from asrch.spelling import COMMAND_LINE  # noqa: PLC0415 (only on this error)

    found = FAMILIAR.get(option)
    if found is None:
        return None
    arguments = {a.name: a for a in _arguments(command) if a.cli is not None}
    if found.argument in arguments:
        spelled = COMMAND_LINE.option(arguments[found.argument])
        return f"did you mean {spelled}" + ("" if found.value is None else f" {found.value}") + "?"
    return found.otherwise or None


def did_you_mean(command: str, option: str) -> str:
    """`; did you mean --word?` after an unknown option (empty when no guess): the
    closest of the command's option names to a misspelt one; for a lone `-`, where a
    value that begins with `-` goes (D49). grep's and rg's options: `habit`."""
    from difflib import get_close_matches  # noqa: PLC0415 (only on this error)

    if option.strip("-") == "":
        return "; a value that begins with - follows -- (or is written --opt=value)"
    arguments = {a.name: a for a in _arguments(command) if a.cli is not None}
    spellings = [a.spelling for a in arguments.values() if not a.positional]
    close = get_close_matches(option, spellings, n=1, cutoff=0.85) if option[1:2] == "-" else []
    return f"; did you mean {close[0]}?" if close else ""


def worded(exc: CycloptsError, tokens: Sequence[str]) -> ArgumentError:
    """cyclopts' error for `tokens`, in asrch's words."""
    command = tokens[0]
    if isinstance(exc, UnknownCommandError) or command not in (*COMMANDS, "mcp"):
        word = "option" if command.startswith("-") else "command"
        return UnknownWordError(f"unknown {word}: {quote(command)}")
    if isinstance(exc, RepeatArgumentError) and exc.token.keyword is not None:
        argument = _argument_named(command, [exc.token.keyword])
        if argument is not None:
            shown = _typed(tokens, argument)
            combined = _combined(tokens)
            if len(shown) < 2 and combined is not None:
                return UnknownWordError(f"unknown option: {quote(combined)}")
            return ArgumentError(
                f"{argument.spelling} given {len(shown)} times ({', '.join(shown)}); give it once"
            )
    if isinstance(exc, MissingArgumentError):
        return _missing(exc, command, tokens)
    if isinstance(exc, UnknownOptionError):
        raw = exc.token.keyword or exc.token.value
        spelling = raw.partition("=")[0]
        options = _options(tokens[1:])
        typed = next((t for t in options if t.partition("=")[0] == spelling), None)
        combined = _combined(tokens)
        if typed is None and combined is not None:
            return UnknownWordError(f"unknown option: {quote(combined)}")
        known = any(spelling in _spellings(a) for a in _arguments(command))
        if typed is None or known:
            return arguments_count(command, tokens)  # after `--`: one argument too many
        named = typed if spelling.strip("-") == "" else spelling
        way = habit(command, named)
        if way is not None:  # the one line is the answer: no usage after it
            return UnknownWordError(f"unknown option: {quote(named)}; {way}", with_help=False)
        return UnknownWordError(f"unknown option: {quote(named)}{did_you_mean(command, named)}")
    if isinstance(exc, UnusedCliTokensError):
        return arguments_count(command, tokens)
    listed = " ".join(quote(t) for t in tokens[1:])
    return ArgumentError(
        f"{command} cannot read its arguments ({listed}); see the usage below",
        with_help=True,
    )
