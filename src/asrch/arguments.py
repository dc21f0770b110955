"""The command-line grammar of every command, checked in asrch's own words (D20, D25).

cyclopts declares the commands: their signatures carry every argument and option, and
each option's rule as `Annotated` metadata. The tokens are read here against the
grammar taken from that signature, in asrch's words: cyclopts alone would round and
re-base numbers (`3.5` is 4, `0x10` is 16), take `--word=yes` as the flag, and forget
where `--` stood before it reports an argument; none of that can be told apart once it
has bound. What was read is then bound to the function's parameters by `bind`, which
the start-up of every call can afford; `CommandLine.tokens` is the canonical spelling
that cyclopts binds to exactly the same values (held by a property test), the check
that the two readings of one signature never drift apart.

Pure: no I/O. A rule is declared once, as `Annotated` metadata on a command's
parameter (or on a field of an options record every command shares).

The records are NamedTuples, not dataclasses: this module runs on every start-up, and
a frozen dataclass costs several times more to define (docs/performance.md).
"""

import inspect
import sys
import typing
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from asrch.domain.errors import InputError
from asrch.domain.values import quote

_DIGITS = frozenset("0123456789")


class Flag(NamedTuple):
    """An option that takes no value: given means on."""

    aliases: tuple[str, ...] = ()


class Text(NamedTuple):
    """An option that takes one string; `repeatable` ones may be given again."""

    repeatable: bool = False
    aliases: tuple[str, ...] = ()


class Choice(NamedTuple):
    """An option that takes one of a few words, spelled exactly (`--format text|json`)."""

    words: tuple[str, ...]
    aliases: tuple[str, ...] = ()

    def read(self, name: str, text: str) -> str:
        if text not in self.words:
            listed = " or ".join(self.words) if len(self.words) < 3 else ", ".join(self.words)
            raise ArgumentError(f"error: {name} takes {listed}, got {quote(text)}")
        return text


class WholeNumber(NamedTuple):
    """An option that takes ASCII decimal digits only (D25); its range is checked by the
    use case, which may know more (`--line` needs the file). `allowed` words the range
    when it depends on more than the number."""

    low: int
    high: int | None = None
    allowed: str = ""
    aliases: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.allowed:
            return self.allowed
        return allowed_range(self.low, self.high)


Rule = Flag | Text | Choice | WholeNumber
_RULES = (Flag, Text, Choice, WholeNumber)


def allowed_range(low: int, high: int | None) -> str:
    """`1-5`, or `1 or more` without an upper bound."""
    return f"{low}-{high}" if high is not None else f"{low} or more"


class ArgumentError(InputError):
    """The command line does not fit the grammar; `with_help`: the usage follows."""

    def __init__(self, message: str, *, with_help: bool = False) -> None:
        super().__init__(message)
        self.with_help = with_help


class Option(NamedTuple):
    name: str
    """The canonical spelling, `--` and the parameter's name with `-` for `_`."""
    rule: Rule

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.name, *self.rule.aliases)


class Grammar(NamedTuple):
    command: str
    required: tuple[str, ...]
    """Arguments that must be given, in order (`QUERY`, `FILE`)."""
    optional: tuple[str, ...]
    """Arguments that may follow them (`PATH`)."""
    rest: bool
    """Any number of further arguments (survey's paths)."""
    options: tuple[Option, ...]

    def option(self, spelling: str) -> Option | None:
        return next((o for o in self.options if spelling in o.spellings), None)


class Given(NamedTuple):
    """One option and its value, `shown` as typed (`--clusters 1`, `--clusters=2`)."""

    option: Option
    shown: str
    value: str | None


class CommandLine(NamedTuple):
    grammar: Grammar
    arguments: tuple[str, ...]
    given: tuple[Given, ...]

    def tokens(self) -> list[str]:
        """The canonical spelling cyclopts binds: it cannot read it two ways."""
        options: list[str] = []
        for given in self.given:
            rule = given.option.rule
            if isinstance(rule, Flag):
                options.append(given.option.name)
            else:
                value = given.value or ""
                if isinstance(rule, WholeNumber):
                    value = str(read_whole_number(given.option.name, value, rule))
                options.append(f"{given.option.name}={value}")
        return [self.grammar.command, *options, "--", *self.arguments]


class Bound(NamedTuple):
    """A command function's arguments: `function(*arguments, **options)`."""

    arguments: tuple[str, ...]
    options: dict[str, object]


def bind(function: Callable[..., object], line: CommandLine) -> Bound:
    """What `function` receives for `line`, as cyclopts would bind `line.tokens()`: a
    flag given is True, a number an int, a repeatable option a list, the fields of an
    options record (a NamedTuple parameter) that record."""
    values: dict[str, object] = {}
    for given in line.given:
        name = given.option.name.removeprefix("--").replace("-", "_")
        rule = given.option.rule
        if isinstance(rule, Flag):
            values[name] = True
        elif isinstance(rule, WholeNumber):
            values[name] = read_whole_number(given.option.name, given.value or "", rule)
        elif isinstance(rule, Text) and rule.repeatable:
            repeated = values.setdefault(name, [])
            assert isinstance(repeated, list)
            repeated.append(given.value or "")
        else:
            values[name] = given.value or ""
    hints = typing.get_type_hints(function, include_extras=True)
    for parameter in inspect.signature(function).parameters.values():
        record = _record_type(hints.get(parameter.name))
        if record is not None:
            fields = {f: values.pop(f) for f in record._fields if f in values}
            if fields:
                values[parameter.name] = record(**fields)
    return Bound(line.arguments, values)


def _record_type(hint: object) -> type[Any] | None:
    """The NamedTuple an options parameter is declared as, if it is one."""
    base = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
    if isinstance(base, type) and issubclass(base, tuple) and hasattr(base, "_fields"):
        return base
    return None


def looks_like_option(token: str) -> bool:
    """`-x`, `--name`: yes. `-` alone and `-1` (a dash and a digit): no, those are values."""
    return token.startswith("-") and token != "-" and token[1] not in _DIGITS


def read_whole_number(name: str, text: str, rule: WholeNumber) -> int:
    """ASCII digits only, `03` is 3; anything else is an error naming it as typed."""
    if not text or not set(text) <= _DIGITS:
        raise ArgumentError(
            f"error: {name} takes digits 0-9 only, got {quote(text)}; allowed: {rule.describe()}"
        )
    significant = text.lstrip("0") or "0"
    # Python reads and prints at most this many digits (0: no limit).
    most = sys.get_int_max_str_digits()
    if most and len(significant) > most:
        raise ArgumentError(
            f"error: {name} has {len(significant)} digits, more than the {most} asrch reads; "
            f"allowed: {rule.describe()}"
        )
    return int(significant)


def read_command_line(grammar: Grammar, tokens: Sequence[str]) -> CommandLine:
    """The command's arguments and options (tokens after the command name), or the first
    way they break the grammar, worded for the user."""
    arguments: list[str] = []
    given: list[Given] = []
    after_dashes = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if after_dashes or not looks_like_option(token):
            arguments.append(token)
            continue
        if token == "--":
            after_dashes = True
            continue
        spelling, equals, joined = token.partition("=")
        option = grammar.option(spelling)
        if option is None:
            shown = token if spelling.strip("-") == "" else spelling
            raise ArgumentError(f"unknown option: {quote(shown)}", with_help=True)
        if isinstance(option.rule, Flag):
            if equals:
                raise ArgumentError(
                    f"error: {option.name} is a flag and takes no value, got {quote(token)}"
                )
            given.append(Given(option, quote(token), None))
            continue
        if equals:
            given.append(Given(option, quote(token), joined))
            continue
        if i == len(tokens):
            raise ArgumentError(f"error: {spelling} needs a value; nothing follows it")
        value = tokens[i]
        if looks_like_option(value):
            raise ArgumentError(
                f"error: {spelling} needs a value, but {quote(value)} looks like an option; "
                f"if {quote(value)} is the value, write {quote(spelling + '=' + value)}"
            )
        i += 1
        given.append(Given(option, f"{spelling} {quote(value)}", value))
    line = CommandLine(grammar, tuple(arguments), tuple(given))
    _check_repeats(line)
    for each in line.given:
        rule = each.option.rule
        if isinstance(rule, WholeNumber):
            read_whole_number(each.option.name, each.value or "", rule)
        elif isinstance(rule, Choice):
            rule.read(each.option.name, each.value or "")
    _check_count(line, dashes="--" in tokens)
    return line


def _check_repeats(line: CommandLine) -> None:
    for option in line.grammar.options:
        if isinstance(option.rule, Text) and option.rule.repeatable:
            continue
        shown = [g.shown for g in line.given if g.option is option]
        if len(shown) > 1:
            raise ArgumentError(
                f"error: {option.name} given {len(shown)} times ({', '.join(shown)}); give it once"
            )


def _check_count(line: CommandLine, *, dashes: bool) -> None:
    grammar = line.grammar
    got = line.arguments
    where = f"{grammar.command}"
    if len(got) < len(grammar.required):
        listed = " ".join(quote(a) for a in got)
        received = "no argument" if not got else f"{len(got)} argument{'s' if len(got) > 1 else ''}"
        received += " besides options" + (f": {listed}" if got else "")
        raise ArgumentError(
            f"error: {where} needs {' and '.join(grammar.required)}, got {received}; "
            "see the usage below",
            with_help=True,
        )
    most = len(grammar.required) + len(grammar.optional)
    if not grammar.rest and len(got) > most:
        extra = got[most:]
        note = ""
        if dashes and any(looks_like_option(a) for a in extra):
            note = " (after --, options are read as arguments; put them before --)"
        raise ArgumentError(
            f"error: unexpected argument for {where}: {' '.join(quote(a) for a in extra)}"
            f"{note}; see the usage below",
            with_help=True,
        )


def grammar_of(command: str, function: Callable[..., object]) -> Grammar:
    """The grammar a cyclopts command function declares: positional-only parameters are
    its arguments (optional when they have a default), `*args` any number more, every
    other parameter an option carrying its rule as `Annotated` metadata; a NamedTuple
    parameter (cyclopts flattens it) contributes its fields as options."""
    hints = typing.get_type_hints(function, include_extras=True)
    required: list[str] = []
    optional: list[str] = []
    rest = False
    options: list[Option] = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            names = required if parameter.default is inspect.Parameter.empty else optional
            names.append(parameter.name.upper())
        elif parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            rest = True
        else:
            options.extend(_options_of(parameter.name, hints[parameter.name]))
    return Grammar(command, tuple(required), tuple(optional), rest, tuple(options))


def _options_of(name: str, hint: object) -> list[Option]:
    base: object = hint
    metadata: tuple[object, ...] = ()
    if typing.get_origin(hint) is typing.Annotated:
        base, *rest = typing.get_args(hint)
        metadata = tuple(rest)
    record = _record_type(base)
    if record is not None:
        fields = typing.get_type_hints(record, include_extras=True)
        return [o for f in record._fields for o in _options_of(f, fields[f])]
    rule = next((m for m in metadata if isinstance(m, _RULES)), None)
    if rule is None:
        raise TypeError(f"option --{name} declares no rule (Flag, Text, Choice or WholeNumber)")
    return [Option("--" + name.replace("_", "-"), rule)]
