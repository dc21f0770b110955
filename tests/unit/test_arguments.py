"""The command-line grammar (asrch.arguments): its rules as properties, in-process.

The rules (D25, D20): numbers are ASCII digits only and never rounded; flags take no
value; every option but `survey --term` is given once; after `--` everything is an
argument; a value that looks like an option must be joined with `=`; too few or too
many arguments say what was expected and what was received. And the canonical tokens
handed to cyclopts bind to exactly the values asrch read.
"""

import inspect
import re
import sys
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asrch.arguments import (
    ArgumentError,
    Choice,
    CommandLine,
    Flag,
    Grammar,
    Text,
    WholeNumber,
    bind,
    grammar_of,
    looks_like_option,
    read_command_line,
    read_whole_number,
)
from asrch.cli.app import COMMANDS, CommonOptions, app
from asrch.cli.help import COMMAND_HELP
from asrch.domain.values import quote

GRAMMARS = {name: grammar_of(name, function) for name, function in COMMANDS.items()}
ASCII_DIGITS = re.compile(r"[0-9]+")
CLUSTERS = WholeNumber(1, 5)


def _read(command: str, *tokens: str) -> CommandLine:
    return read_command_line(GRAMMARS[command], tokens)


def _error(command: str, *tokens: str) -> ArgumentError:
    with pytest.raises(ArgumentError) as caught:
        _read(command, *tokens)
    return caught.value


# --- the grammar each command declares ------------------------------------------------


def test_each_command_declares_its_arguments_and_options() -> None:
    common = {
        "--word": Flag(),
        "--identifier": Flag(),
        "--regex": Flag(),
        "--ignore-case": Flag(aliases=("-i",)),
        "--type": Text(repeatable=True),
        "--glob": Text(repeatable=True),
        "--format": Choice(("text", "json")),
    }
    expected: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool, dict[str, object]]] = {
        "scout": (("QUERY",), ("PATH",), False, {}),
        "sample": (
            ("QUERY", "FILE"),
            (),
            False,
            {"--clusters": CLUSTERS, "--page": WholeNumber(1)},
        ),
        "show": (
            ("QUERY", "FILE"),
            (),
            False,
            {
                "--line": WholeNumber(1, allowed="1 to the file's last line"),
                "--context": WholeNumber(0, 5),
            },
        ),
        "survey": ((), (), True, {"--term": Text(repeatable=True)}),
    }
    for name, (required, optional, rest, own) in expected.items():
        grammar = GRAMMARS[name]
        assert (grammar.required, grammar.optional, grammar.rest) == (required, optional, rest)
        assert {o.name: o.rule for o in grammar.options} == {**own, **common}


def test_every_option_is_in_its_command_help() -> None:
    for name, grammar in GRAMMARS.items():
        for option in grammar.options:
            assert option.name in COMMAND_HELP[name], (name, option.name)


def test_an_option_without_a_rule_is_refused_when_the_grammar_is_built() -> None:
    def command(query: str, /, *, loose: int = 0) -> int:
        return 0

    with pytest.raises(TypeError, match="--loose declares no rule"):
        grammar_of("x", command)


# --- numbers (D25) --------------------------------------------------------------------

NOT_DIGITS = [
    "3.5", "2.7", "5.9", "0x10", "1_6", "+3", "-1", "-0", "1e1", "１", "٣", "²", "",
    " 3", "3 ", "3\n", "١٢", "NaN", "inf", "3,4", "0b1", "0o7", "true",
]  # fmt: skip


@pytest.mark.parametrize("text", NOT_DIGITS)
def test_a_number_not_in_ascii_digits_names_the_value_and_the_range(text: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        read_whole_number("--clusters", text, CLUSTERS)
    assert caught.value.message == (
        f"error: --clusters takes digits 0-9 only, got {quote(text)}; allowed: 1-5"
    )
    assert not caught.value.with_help


@given(
    st.one_of(
        st.text(max_size=12),
        st.text(st.sampled_from("0123456789.+-_xeE ١２³"), max_size=8),
        st.integers(0, 10**40).map(str),
        st.builds(lambda z, n: "0" * z + str(n), st.integers(0, 5), st.integers(0, 10**6)),
    )
)
def test_a_number_is_read_exactly_when_it_is_ascii_digits(text: str) -> None:
    """Nothing rounded, nothing re-based, no Unicode digit taken for an ASCII one."""
    if ASCII_DIGITS.fullmatch(text):
        assert read_whole_number("--page", text, WholeNumber(1)) == int(text, 10)
    else:
        with pytest.raises(ArgumentError, match=r"^error: --page takes digits 0-9 only, got "):
            read_whole_number("--page", text, WholeNumber(1))


def test_a_number_too_long_for_python_to_read_says_so() -> None:
    most = sys.get_int_max_str_digits()
    assert read_whole_number("--page", "0" * 10 + "9" * most, WholeNumber(1)) == int("9" * most)
    with pytest.raises(ArgumentError) as caught:
        read_whole_number("--page", "9" * (most + 1), WholeNumber(1))
    assert caught.value.message == (
        f"error: --page has {most + 1} digits, more than the {most} asrch reads; allowed: 1 or more"
    )


def test_a_number_is_handed_on_in_its_canonical_spelling() -> None:
    assert _read("sample", "q", "f", "--page", "007", "--clusters=03").tokens() == [
        "sample", "--page=7", "--clusters=3", "--", "q", "f",
    ]  # fmt: skip


# --- choices ---------------------------------------------------------------------


@given(st.one_of(st.sampled_from(["text", "json", "JSON", "", " json", "yaml"]), st.text()))
def test_a_choice_is_one_of_its_words_exactly(value: str) -> None:
    if value in ("text", "json"):
        assert _read("scout", "q", f"--format={value}").tokens() == [
            "scout", f"--format={value}", "--", "q",
        ]  # fmt: skip
        return
    error = _error("scout", "q", f"--format={value}")
    assert error.message == f"error: --format takes text or json, got {quote(value)}"


# --- flags take no value --------------------------------------------------------------


@given(
    command=st.sampled_from(sorted(GRAMMARS)),
    flag=st.sampled_from(["--word", "--identifier", "--regex"]),
    value=st.one_of(
        st.sampled_from(["yes", "no", "1", "0", "true", "false", "none", ""]), st.text()
    ),
)
def test_a_flag_with_a_value_is_an_error(command: str, flag: str, value: str) -> None:
    error = _error(command, f"{flag}={value}", "q", "f")
    assert error.message == (
        f"error: {flag} is a flag and takes no value, got {quote(flag + '=' + value)}"
    )


# --- each option once -----------------------------------------------------------------

ONCE: dict[str, list[tuple[str, ...]]] = {
    "scout": [("--word",), ("--identifier",), ("--regex",)],
    "sample": [("--word",), ("--clusters", "2"), ("--clusters=2",), ("--page", "1")],
    "show": [("--regex",), ("--line", "3"), ("--line=4",), ("--context", "1")],
    "survey": [("--word",), ("--identifier",)],
}


@given(st.data())
def test_an_option_given_twice_is_an_error_listing_each(data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(sorted(ONCE)))
    first = data.draw(st.sampled_from(ONCE[command]))
    name = first[0].partition("=")[0]
    second = data.draw(st.sampled_from([s for s in ONCE[command] if s[0].startswith(name)]))
    error = _error(command, "q", *first, "f", *second)
    shown = ", ".join(" ".join(s) for s in (first, second))
    assert error.message == f"error: {name} given 2 times ({shown}); give it once"


def test_survey_term_is_the_repeatable_option() -> None:
    line = _read("survey", "--term", "a", "--term=b", "--term", "a", "src")
    assert line.tokens() == ["survey", "--term=a", "--term=b", "--term=a", "--", "src"]


# --- after `--`, and values that look like options ------------------------------------

argument_text = st.one_of(
    st.text(max_size=10),
    st.sampled_from(["--page", "--page=2", "--word", "-e", "--", "-", "-5", "--bogus", "-h"]),
)


@given(
    command=st.sampled_from(["scout", "sample", "show"]),
    after=st.lists(argument_text, max_size=5),
)
def test_after_dashes_everything_is_an_argument(command: str, after: list[str]) -> None:
    grammar = GRAMMARS[command]
    tokens = ["--word", "--", *after]
    most = len(grammar.required) + len(grammar.optional)
    if len(grammar.required) <= len(after) <= most:
        line = read_command_line(grammar, tokens)
        assert line.arguments == tuple(after)
        assert [g.option.name for g in line.given] == ["--word"]
        return
    error = _error(command, *tokens)
    assert error.with_help
    if len(after) > most:
        extra = " ".join(quote(a) for a in after[most:])
        assert error.message.startswith(f"error: unexpected argument for {command}: {extra}")
        noted = "(after --, options are read as arguments; put them before --)"
        assert (noted in error.message) == any(looks_like_option(a) for a in after[most:])


def test_an_option_after_dashes_is_an_extra_argument() -> None:
    error = _error("sample", "--", "-e", "FILE", "--page", "2")
    assert error.message == (
        "error: unexpected argument for sample: --page 2 (after --, options are read as "
        "arguments; put them before --); see the usage below"
    )


@given(
    option=st.sampled_from(["--term", "--line", "--page", "--clusters", "--context"]),
    value=st.builds(lambda s: "-" + s, st.text(min_size=1, max_size=8)).filter(looks_like_option),
)
def test_a_value_that_looks_like_an_option_must_be_joined(option: str, value: str) -> None:
    command = {"--term": "survey", "--line": "show", "--context": "show"}.get(option, "sample")
    error = _error(command, "q", "f", option, value)
    assert error.message == (
        f"error: {option} needs a value, but {quote(value)} looks like an option; "
        f"if {quote(value)} is the value, write {quote(option + '=' + value)}"
    )
    if option == "--term":  # the spelling it suggests reads as that value
        line = _read("survey", f"{option}={value}")
        assert [g.value for g in line.given] == [value]


def test_dash_and_negative_numbers_are_values_not_options() -> None:
    assert _read("survey", "--term", "-", "--term", "-5").tokens() == [
        "survey", "--term=-", "--term=-5", "--",
    ]  # fmt: skip
    assert _read("scout", "-5", "-").arguments == ("-5", "-")
    error = _error("show", "q", "f", "--context", "-1")
    assert error.message == "error: --context takes digits 0-9 only, got -1; allowed: 0-5"


def test_an_option_at_the_end_needs_its_value() -> None:
    assert _error("survey", "src", "--term").message == (
        "error: --term needs a value; nothing follows it"
    )


def test_an_unknown_option_is_named_with_the_help() -> None:
    for tokens, name in [(("--bogus",), "--bogus"), (("--bogus=3",), "--bogus"), (("-e",), "-e")]:
        error = _error("scout", "q", *tokens)
        assert (error.message, error.with_help) == (f"unknown option: {name}", True)
    assert _error("sample", "q", "f", "--context", "1").message == "unknown option: --context"
    assert _error("scout", "q", "--=x").message == "unknown option: --=x"


# --- too few or too many arguments ----------------------------------------------------


@pytest.mark.parametrize(
    ("command", "tokens", "message"),
    [
        (
            "show",
            ("samples/clusters.txt", "--line", "10"),
            "show needs QUERY and FILE, got 1 argument besides options: samples/clusters.txt",
        ),
        ("show", ("--line", "10"), "show needs QUERY and FILE, got no argument besides options"),
        ("sample", ("a b",), 'sample needs QUERY and FILE, got 1 argument besides options: "a b"'),
        ("scout", ("--word",), "scout needs QUERY, got no argument besides options"),
        ("scout", ("connect", "src", "docs"), "unexpected argument for scout: docs"),
        ("show", ("q", "f", "x", "y"), "unexpected argument for show: x y"),
    ],
)
def test_argument_counts_say_what_was_expected_and_received(
    command: str, tokens: tuple[str, ...], message: str
) -> None:
    error = _error(command, *tokens)
    assert (error.message, error.with_help) == (f"error: {message}; see the usage below", True)


# --- cyclopts binds the canonical tokens to exactly what asrch read -------------------

token = st.one_of(
    st.sampled_from(
        ["--word", "--identifier", "--regex", "--term", "--clusters", "--page", "--line",
         "--context", "--", "-", "-5", "-e", "3", "03", "x", "=", "a=b", "--term=-e"]
    ),
    st.text(max_size=6),
)  # fmt: skip


def _gather_common(values: dict[str, object]) -> None:
    """The options every command shares arrive as one CommonOptions."""
    shared = {name: values.pop(name) for name in CommonOptions._fields if name in values}
    values["common"] = CommonOptions(**shared)  # type: ignore[arg-type]


def _values(command: str, line: CommandLine) -> dict[str, object]:
    """What the command function should receive, from asrch's own reading."""
    grammar = GRAMMARS[command]
    values: dict[str, object] = {}
    for each in line.given:
        name = each.option.name.removeprefix("--").replace("-", "_")
        rule = each.option.rule
        if isinstance(rule, Flag):
            values[name] = True
        elif isinstance(rule, WholeNumber):
            values[name] = int(each.value or "")
        elif isinstance(rule, Choice):
            values[name] = each.value
        else:
            terms = values.setdefault(name, [])
            assert isinstance(terms, list)
            terms.append(each.value)
    _gather_common(values)
    named = [n.lower() for n in (*grammar.required, *grammar.optional)]
    values.update(zip(named, line.arguments, strict=False))
    if grammar.rest and line.arguments:  # an empty *paths binds nothing
        values["paths"] = line.arguments
    return values


@given(command=st.sampled_from(sorted(GRAMMARS)), tokens=st.lists(token, max_size=8))
def test_cyclopts_binds_what_asrch_read(command: str, tokens: list[str]) -> None:
    try:
        line = read_command_line(GRAMMARS[command], tokens)
    except ArgumentError:
        return
    function, bound, _ = app.parse_args(
        line.tokens(), exit_on_error=False, print_error=False, help_on_error=False
    )
    assert function is COMMANDS[command]
    expected = _values(command, line)
    got = dict(bound.arguments)
    if "common" not in got:  # cyclopts leaves a parameter out when nothing set it
        got["common"] = CommonOptions()
    assert got == expected
    # What the CLI really calls the function with, bound without cyclopts' parse.
    ours = bind(function, line)
    called = dict(inspect.signature(function).bind(*ours.arguments, **ours.options).arguments)
    called.setdefault("common", CommonOptions())
    assert called == expected


def test_the_grammar_reads_options_and_arguments_in_any_order() -> None:
    orders: list[Callable[[], CommandLine]] = [
        lambda: _read("show", "--line", "3", "q", "--word", "f"),
        lambda: _read("show", "q", "f", "--word", "--line=3"),
        lambda: _read("show", "--word", "--line=03", "--", "q", "f"),
    ]
    assert {tuple(sorted(o().tokens())) for o in orders} == {
        tuple(sorted(["show", "--word", "--line=3", "--", "q", "f"]))
    }
    grammar = Grammar("x", (), (), True, ())
    assert read_command_line(grammar, []).tokens() == ["x", "--"]


@st.composite
def _valid_lines(draw: st.DrawFn) -> tuple[str, list[str], dict[str, object]]:
    """A command line built to be valid, in a drawn order, and the values it means."""
    command = draw(st.sampled_from(sorted(GRAMMARS)))
    grammar = GRAMMARS[command]
    pieces: list[list[str]] = []
    term_of: list[tuple[str, str] | None] = []
    values: dict[str, object] = {}
    for option in grammar.options:
        rule = option.rule
        times = draw(st.integers(0, 3 if isinstance(rule, Text) and rule.repeatable else 1))
        for _ in range(times):
            name = option.name.removeprefix("--").replace("-", "_")
            if isinstance(rule, Flag):
                pieces.append([option.name])
                term_of.append(None)
                values[name] = True
                continue
            if isinstance(rule, WholeNumber):
                number = draw(st.integers(0, 10**20))
                text = "0" * draw(st.integers(0, 2)) + str(number)
                values[name] = number
            elif isinstance(rule, Choice):
                text = draw(st.sampled_from(rule.words))
                values[name] = text
            else:
                text = draw(st.text(max_size=6))
            joined = looks_like_option(text) or draw(st.booleans())
            pieces.append([f"{option.name}={text}"] if joined else [option.name, text])
            term_of.append((name, text) if isinstance(rule, Text) else None)
    low = len(grammar.required)
    high = low + len(grammar.optional) if not grammar.rest else 3
    arguments = draw(st.lists(st.text(max_size=6), min_size=low, max_size=high))
    order = draw(st.permutations(range(len(pieces) + len(arguments))))
    tokens: list[str] = []
    if any(looks_like_option(a) or a == "--" for a in arguments):
        tokens = [t for i in order if i < len(pieces) for t in pieces[i]] + ["--", *arguments]
    else:
        slots = iter(arguments)
        for i in order:
            tokens += pieces[i] if i < len(pieces) else [next(slots)]
    for i in order:  # repeatable values in the order they were given
        if i < len(pieces) and (given := term_of[i]) is not None:
            repeated = values.setdefault(given[0], [])
            assert isinstance(repeated, list)
            repeated.append(given[1])
    _gather_common(values)
    named = [n.lower() for n in (*grammar.required, *grammar.optional)]
    values.update(zip(named, arguments, strict=False))
    if grammar.rest and arguments:
        values["paths"] = tuple(arguments)
    return command, tokens, values


@given(_valid_lines())
def test_a_valid_line_in_any_order_binds_to_what_it_means(
    case: tuple[str, list[str], dict[str, object]],
) -> None:
    command, tokens, expected = case
    line = read_command_line(GRAMMARS[command], tokens)
    _, bound, _ = app.parse_args(
        line.tokens(), exit_on_error=False, print_error=False, help_on_error=False
    )
    got = dict(bound.arguments)
    got.setdefault("common", CommonOptions())
    assert got == expected
