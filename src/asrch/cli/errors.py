"""D25's rules as cyclopts converters, and cyclopts' errors in asrch's words (D20).

cyclopts reads the tokens; what it would accept but asrch does not (`3.5` rounded,
`0x10` re-based, `--word=yes` taken as on) is refused by the converters here, in the
message D25 documents. What cyclopts itself refuses (an unknown option, one given
twice, a missing or extra argument) comes out as a `CycloptsError`, which `worded`
turns into asrch's one line, naming the tokens as they were typed.

Two rules cyclopts cannot hold, each kept by the smallest shim that does:
- A bare `-` is a value (the spec: "`-` alone never looks like an option"), and so is
  a dash and a digit (`-1`, `-0;`), where cyclopts reads such a token as an option
  unless it is a number. `placeholders` hands it over behind `VALUE_MARK`, a NUL, which
  no command line can hold (argv has none), and the converters give it back. The
  converse too: `-inf` or `-.5` is an option to asrch
  (a dash and no digit) and a number to cyclopts; it goes over marked (`OPTION_MARK`).
- A flag takes no value (D25: `--word=yes` is an error). cyclopts reads `--word=yes`
  as on and `--word=no` as off in its binder, before any converter or validator sees
  the value, and keeps no trace of it; `refuse_flag_values` looks for `FLAG=` among
  the options before cyclopts reads them.
"""

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cyclopts.exceptions import (
    CycloptsError,
    MissingArgumentError,
    RepeatArgumentError,
    UnknownCommandError,
    UnknownOptionError,
    UnusedCliTokensError,
)
from cyclopts.utils import is_option_like

from asrch.commands.table import COMMANDS, Argument, Command, allows_regex
from asrch.domain.errors import InputError, NotDigitsError
from asrch.domain.text_safety import quote

_DIGITS = frozenset("0123456789")
VALUE_MARK = "\0"
"""Before a token that is a value to asrch but an option to cyclopts (`-`, `-0;`: a dash
and a digit starts a value, D25): cyclopts then reads it as the value it is."""
OPTION_MARK = "--\0"
"""Before a token that looks like an option to asrch but a number to cyclopts (`-inf`,
`-.5`): cyclopts then reads it as the (unknown) option it is."""


class ArgumentError(InputError):
    """The command line does not fit the grammar; `with_help`: the usage follows."""

    def __init__(self, message: str, *, with_help: bool = False) -> None:
        super().__init__(message)
        self.with_help = with_help


class UnknownWordError(ArgumentError):
    """An unknown command or option: named bare (`unknown option: --bogus`), the usage
    after it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, with_help=True)


def one_mode(command: Command[Any], values: Mapping[str, Any]) -> None:
    """The mode flags are the command line's spelling of one `mode` (D11): at most one
    of them, and `--regex` only where the command's `mode` takes it."""
    flags = [a for a in command.options if a.kind == "flag" and a.tool_help is None]
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


def placeholders(tokens: Sequence[str]) -> list[str]:
    """The tokens for cyclopts: before `--`, each token asrch reads as a value but
    cyclopts as an option marked as a value (`-`, `-0;`), and each
    token asrch reads as an option but cyclopts as a number marked as an option."""
    out: list[str] = []
    dashes = False
    for token in tokens:
        dashes = dashes or token == "--"
        if dashes or not token.startswith("-"):
            out.append(token)
        elif not looks_like_option(token) and is_option_like(token):
            out.append(VALUE_MARK + token)
        elif looks_like_option(token) and not is_option_like(token):
            out.append(OPTION_MARK + token)
        else:
            out.append(token)
    return out


def refuse_flag_values(tokens: Sequence[str]) -> None:
    """A flag written with a value (`--word=yes`, `-i=`), before `--`: an input error."""
    arguments = _arguments(tokens[0]) if tokens else ()
    flags = {s: a.spelling for a in arguments if a.kind == "flag" for s in _spellings(a)}
    if tokens and tokens[0] == "mcp":
        flags["--structured"] = "--structured"
    for token in _options(tokens[1:]):
        spelling, equals, _ = token.partition("=")
        if equals and spelling in flags:
            name = flags[spelling]
            raise ArgumentError(f"{name} is a flag and takes no value, got {quote(token)}")


def _given(text: str) -> str:
    """A token as typed, placeholders undone."""
    return text.removeprefix(VALUE_MARK).removeprefix(OPTION_MARK)


def looks_like_option(token: str) -> bool:
    """`-x`, `--name`: yes. `-` alone and `-1` (a dash and a digit): no, those are values."""
    return token.startswith("-") and token != "-" and token[1] not in _DIGITS


def text_value(type_: Any, tokens: Sequence[Any]) -> str:
    """A positional argument, as given."""
    return _given(tokens[0].value)


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


def converter_for(argument: Argument) -> Callable[[Any, Sequence[Any]], Any]:
    """The cyclopts converter that holds the option's rule."""
    name = argument.spelling

    def flag(type_: Any, tokens: Sequence[Any]) -> bool:
        # Never called: cyclopts binds a flag itself (see `refuse_flag_values`).
        raise ArgumentError(f"{name} is a flag and takes no value")

    def number(type_: Any, tokens: Sequence[Any]) -> int:
        return read_whole_number(argument, _given(tokens[0].value))

    def choice(type_: Any, tokens: Sequence[Any]) -> str:
        text = _given(tokens[0].value)
        if text not in argument.choices:
            words = argument.choices
            listed = " or ".join(words) if len(words) < 3 else ", ".join(words)
            raise ArgumentError(f"{name} takes {listed}, got {quote(text)}")
        return text

    def text(type_: Any, tokens: Sequence[Any]) -> str:
        return _given(tokens[0].value)

    def texts(type_: Any, tokens: Sequence[Any]) -> list[str]:
        return [_given(t.value) for t in tokens]

    converters = {"flag": flag, "number": number, "choice": choice, "text": text, "texts": texts}
    return converters[argument.kind]


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
        if equals or argument.kind == "flag":
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
    taking = {s for a in declared if a.kind != "flag" for s in _spellings(a)}
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


def _combined(tokens: Sequence[str]) -> str | None:
    """The first `-iw`: short flags run together, which cyclopts splits and asrch does
    not (no option is spelled so)."""
    return next(
        (t for t in _options(tokens[1:]) if looks_like_option(t) and t[1] != "-" and len(t) > 2),
        None,
    )


def worded(exc: CycloptsError, tokens: Sequence[str]) -> ArgumentError:
    """cyclopts' error for `tokens`, in asrch's words."""
    command = tokens[0]
    if isinstance(exc, UnknownCommandError) or command not in (*COMMANDS, "mcp"):
        kind = "option" if command.startswith("-") else "command"
        return UnknownWordError(f"unknown {kind}: {quote(command)}")
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
        raw = _given(exc.token.keyword or exc.token.value)
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
        return UnknownWordError(f"unknown option: {quote(named)}")
    if isinstance(exc, UnusedCliTokensError):
        return arguments_count(command, tokens)
    listed = " ".join(quote(t) for t in tokens[1:])
    return ArgumentError(
        f"{command} cannot read its arguments ({listed}); see the usage below",
        with_help=True,
    )
