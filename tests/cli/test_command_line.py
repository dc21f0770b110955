"""The command-line grammar (D25), as cyclopts reads it for asrch: its rules as
properties, in-process (`asrch.cli.app.read`: tokens to a command and its values, or
an input error in asrch's words; nothing runs)."""

import re
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from asrch.cli.app import read
from asrch.cli.errors import (
    ArgumentError,
    UnknownWordError,
    looks_like_option,
    read_whole_number,
)
from asrch.cli.help import APP_HELP, COMMAND_HELP, SHARED
from asrch.commands.arguments import Argument
from asrch.commands.table import COMMANDS
from asrch.domain.errors import InputError, NotDigitsError
from asrch.domain.text_safety import quote
from asrch.render.errors import error_line
from asrch.spelling import COMMAND_LINE
from tests.support.cli import run_asrch

ASCII_DIGITS = re.compile(r"[0-9]+")


def argv_text(**sizes: int) -> st.SearchStrategy[str]:
    """Text an argv can hold: no NUL (the C strings of exec end at one)."""
    return st.text(st.characters(exclude_characters="\0"), **sizes)


def _argument(command: str, name: str) -> Argument:
    return next(a for a in COMMANDS[command].arguments if a.name == name)


CLUSTERS = _argument("sample", "clusters")
PAGE = _argument("sample", "page")


def _printed(error: InputError) -> str:
    """The line the command line prints for it."""
    return error.message if isinstance(error, UnknownWordError) else error_line(error, COMMAND_LINE)


def _error(command: str, *tokens: str) -> InputError:
    with pytest.raises(InputError) as caught:
        read([command, *tokens])
    return caught.value


def _values(command: str, *tokens: str) -> dict[str, object]:
    name, values = read([command, *tokens])
    assert name == command
    return values


# --- the grammar each command declares ------------------------------------------------


def test_each_command_declares_its_arguments_and_options() -> None:
    # What every command shares is the table's `COMMON` and the modes (`SHARED`), written
    # once; each command's own arguments are written here again.
    expected = {
        "scout": (["QUERY", "PATH"], {"definitions", "max_filesize"}),
        "sample": (["QUERY", "FILE"], {"clusters", "page"}),
        "show": (["QUERY", "FILE"], {"line", "context", "scope", "definitions", "folded"}),
        "survey": (["PATH"], {"term", "max_filesize"}),
    }
    for name, (positionals, own) in expected.items():
        command = COMMANDS[name]
        assert [a.spelling for a in command.positionals] == positionals
        assert {a.name for a in command.options} == own | SHARED


def test_every_option_is_in_the_help() -> None:
    """A command's own options in its help; the ones every command shares, once, in
    `asrch --help`."""
    for name, command in COMMANDS.items():
        for option in command.options:
            where = COMMAND_HELP[name] if option.name not in SHARED else APP_HELP
            assert option.spelling in where, (name, option.spelling)


def test_the_helps_are_under_4_kb_together_and_keep_every_example() -> None:
    """Issue 25: an agent reads them once."""
    helps = [APP_HELP, *(COMMAND_HELP[name] for name in COMMANDS)]
    assert sum(len(h.encode("utf-8")) for h in helps) < 4096
    for name, command in COMMANDS.items():
        assert command.examples
        for line in command.examples:
            assert f"  {line}\n" in COMMAND_HELP[name], line


# --- numbers (D25) --------------------------------------------------------------------

NOT_DIGITS = [
    "3.5", "2.7", "5.9", "0x10", "1_6", "+3", "-1", "-0", "1e1", "１", "٣", "²", "",
    " 3", "3 ", "3\n", "١٢", "NaN", "inf", "3,4", "0b1", "0o7", "true",
]  # fmt: skip


@pytest.mark.parametrize("text", NOT_DIGITS)
def test_a_number_not_in_ascii_digits_names_the_value_and_the_range(text: str) -> None:
    error = _error("sample", "q", "f", f"--clusters={text}")
    assert _printed(error) == (
        f"error: --clusters takes digits 0-9 only, got {quote(text)}; allowed: 1-5"
    )
    assert isinstance(error, NotDigitsError)
    assert (error.name, error.text, error.allowed) == ("--clusters", text, "1-5")


@given(
    st.one_of(
        argv_text(max_size=12),
        st.text(st.sampled_from("0123456789.+-_xeE ١２³"), max_size=8),
        st.integers(0, 10**40).map(str),
        st.builds(lambda z, n: "0" * z + str(n), st.integers(0, 5), st.integers(0, 10**6)),
    )
)
def test_a_number_is_read_exactly_when_it_is_ascii_digits(text: str) -> None:
    """Nothing rounded, nothing re-based, no Unicode digit taken for an ASCII one."""
    if ASCII_DIGITS.fullmatch(text):
        assert _values("sample", "q", "f", f"--page={text}")["page"] == int(text, 10)
    else:
        with pytest.raises(NotDigitsError, match=r"^--page takes digits 0-9 only, got "):
            read(["sample", "q", "f", f"--page={text}"])


def test_a_number_too_long_for_python_to_read_says_so() -> None:
    most = sys.get_int_max_str_digits()
    assert read_whole_number(PAGE, "0" * 10 + "9" * most) == int("9" * most)
    with pytest.raises(InputError) as caught:
        read_whole_number(PAGE, "9" * (most + 1))
    assert _printed(caught.value) == (
        f"error: --page has {most + 1} digits, more than the {most} asrch reads; allowed: 1 or more"
    )


def test_leading_zeros_are_read_as_decimal() -> None:
    values = _values("sample", "q", "f", "--page", "007", "--clusters=03")
    assert (values["page"], values["clusters"]) == (7, 3)


# --- choices ---------------------------------------------------------------------


@given(st.one_of(st.sampled_from(["text", "json", "JSON", "", " json", "yaml"]), argv_text()))
def test_a_choice_is_one_of_its_words_exactly(value: str) -> None:
    if value in ("text", "json"):
        assert _values("scout", "q", f"--format={value}")["format"] == value
        return
    error = _error("scout", "q", f"--format={value}")
    assert _printed(error) == f"error: --format takes text or json, got {quote(value)}"


# --- flags take no value --------------------------------------------------------------


@given(
    command=st.sampled_from(sorted(COMMANDS)),
    flag=st.sampled_from(["--word", "--identifier", "--regex", "--ignore-case", "-i"]),
    value=st.one_of(
        st.sampled_from(["yes", "no", "1", "0", "true", "false", "none", ""]), argv_text()
    ),
)
def test_a_flag_with_a_value_is_an_error(command: str, flag: str, value: str) -> None:
    error = _error(command, f"{flag}={value}", "q", "f")
    name = "--ignore-case" if flag == "-i" else flag
    assert _printed(error) == (
        f"error: {name} is a flag and takes no value, got {quote(flag + '=' + value)}"
    )


# --- each option once -----------------------------------------------------------------

ONCE: dict[str, list[tuple[str, ...]]] = {
    "scout": [("--word",), ("--identifier",), ("--regex",), ("-i",), ("--ignore-case",)],
    "sample": [("--word",), ("--clusters", "2"), ("--clusters=2",), ("--page", "1")],
    "show": [("--regex",), ("--line", "3"), ("--line=4",), ("--context", "1")],
    "survey": [("--word",), ("--identifier",), ("--format", "json"), ("--format=text",)],
}


@given(st.data())
def test_an_option_given_twice_is_an_error_listing_each(data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(sorted(ONCE)))
    first = data.draw(st.sampled_from(ONCE[command]))
    name = first[0].partition("=")[0]
    if name == "-i":
        name = "--ignore-case"
    same = [
        s for s in ONCE[command] if s[0].startswith(name) or (name, s[0]) == ("--ignore-case", "-i")
    ]
    second = data.draw(st.sampled_from(same))
    error = _error(command, "q", *first, "f", *second)
    shown = ", ".join(" ".join(s) for s in (first, second))
    assert _printed(error) == f"error: {name} given 2 times ({shown}); give it once"


# Lines that are input errors, each of a different rule (D25, D20, D11).
WRONG_LINES: list[tuple[str, ...]] = [
    ("scout", "--word", "--word", "hit", "samples"),
    ("scout", "--word=no", "hit", "samples"),
    ("scout", "--bogus", "hit", "samples"),
    ("scout", "--word", "--regex", "hit", "samples"),
    ("sample", "hit", "samples/clusters.txt", "--clusters", "9"),
    ("show", "hit", "samples/clusters.txt", "--context", "0x1"),
]


@pytest.mark.parametrize("line", WRONG_LINES, ids=" ".join)
@pytest.mark.parametrize("asked", ["--help", "-h"])
def test_help_before_dashes_wins_over_an_input_error(line: tuple[str, ...], asked: str) -> None:
    """The spec's choice (cli_behavior, *help wins*): a line that fails, with --help
    added anywhere before `--`, prints the command's help and exits 0."""
    corpus = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
    command, *rest = line
    assert run_asrch(line, cwd=corpus).status == 2
    for where in (0, len(rest) // 2, len(rest)):
        helped = run_asrch([command, *rest[:where], asked, *rest[where:]], cwd=corpus)
        assert (helped.status, helped.stderr) == (0, b""), helped
        assert helped.stdout.decode() == COMMAND_HELP[command]
    # After `--`, it is a term: the line's own error stands.
    assert run_asrch([*line, "--", asked], cwd=corpus).status == 2


def test_survey_term_and_the_filters_are_repeatable() -> None:
    values = _values("survey", "--term", "a", "--term=b", "--type", "py", "--term", "a", "src")
    assert values == {"term": ["a", "b", "a"], "type": ["py"], "paths": ["src"]}
    assert _values("scout", "--glob", "a", "--glob=!b", "q")["glob"] == ["a", "!b"]


# --- after `--`, and values that look like options ------------------------------------

argument_text = st.one_of(
    st.text(st.characters(exclude_characters="\0"), max_size=10),
    st.sampled_from(["--page", "--page=2", "--word", "-e", "--", "-", "-5", "--bogus", "-h"]),
)


@given(
    command=st.sampled_from(["scout", "sample", "show"]),
    after=st.lists(argument_text, max_size=5),
)
def test_after_dashes_everything_is_an_argument(command: str, after: list[str]) -> None:
    positionals = COMMANDS[command].positionals
    # No --line here: show needs its QUERY too (D46).
    required = sum(bool(a.required or a.unless) for a in positionals)
    most = len(positionals)
    tokens = ["--word", "--", *after]
    if required <= len(after) <= most:
        values = _values(command, *tokens)
        names = [a.name for a in positionals]
        assert values == {"word": True, **dict(zip(names, after, strict=False))}
        return
    error = _error(command, *tokens)
    assert isinstance(error, ArgumentError)
    assert error.with_help
    if len(after) > most:
        extra = " ".join(quote(a) for a in after[most:])
        assert _printed(error).startswith(f"error: unexpected argument for {command}: {extra}")
        noted = "(after --, options are read as arguments; put them before --)"
        assert (noted in _printed(error)) == any(looks_like_option(a) for a in after[most:])


def test_an_option_after_dashes_is_an_extra_argument() -> None:
    error = _error("sample", "--", "-e", "FILE", "--page", "2")
    assert _printed(error) == (
        "error: unexpected argument for sample: --page 2 (after --, options are read as "
        "arguments; put them before --); see the usage below"
    )


@given(
    option=st.sampled_from(["--term", "--line", "--page", "--clusters", "--context", "--glob"]),
    value=st.builds(lambda s: "-" + s, argv_text(min_size=1, max_size=8)).filter(looks_like_option),
)
def test_a_value_that_looks_like_an_option_must_be_joined(option: str, value: str) -> None:
    command = {"--term": "survey", "--line": "show", "--context": "show"}.get(option, "sample")
    error = _error(command, "q", "f", option, value)
    assert _printed(error) == (
        f"error: {option} needs a value, but {quote(value)} looks like an option; "
        f"if {quote(value)} is the value, write {quote(option + '=' + value)}"
    )
    if option == "--term":  # the spelling it suggests reads as that value
        assert _values("survey", f"{option}={value}")["term"] == [value]


def test_negative_numbers_are_values_and_a_dash_follows_dashes() -> None:
    """cyclopts' convention (D49): a number is a value; any other token that begins with
    `-`, a lone `-` included, is an option unless it follows `--` or `=`."""
    assert _values("survey", "--term", "-5", "--term=-")["term"] == ["-5", "-"]
    assert _values("scout", "-5", "-.5") == {"query": "-5", "path": "-.5"}
    assert _values("scout", "-5", "--", "-") == {"query": "-5", "path": "-"}
    assert _printed(_error("scout", "q", "-")) == (
        "unknown option: -; a value that begins with - follows -- (or is written --opt=value)"
    )
    error = _error("show", "q", "f", "--context", "-1")
    assert _printed(error) == "error: --context takes digits 0-9 only, got -1; allowed: 0-5"


def test_an_option_from_grep_or_rg_gets_asrch_s_own() -> None:
    """One line, the option asrch has for it (D49); else the asrch way (issue 40)."""
    assert _printed(_error("scout", "-w", "x")) == "unknown option: -w; did you mean --word?"
    assert _printed(_error("show", "-C", "3", "x", "f")) == (
        "unknown option: -C; did you mean --context?"
    )
    assert _printed(_error("scout", "-C", "3", "x")) == (
        "unknown option: -C; context is show's: show --line N --context N (0-5)"
    )
    assert _printed(_error("scout", "--json", "x")) == (
        "unknown option: --json; did you mean --format json?"
    )
    assert _printed(_error("show", "--contxt", "3", "x", "f")) == (
        "unknown option: --contxt; did you mean --context?"
    )
    assert _printed(_error("scout", "--bogus", "x")) == "unknown option: --bogus"


def test_an_option_at_the_end_needs_its_value() -> None:
    assert _printed(_error("survey", "src", "--term")) == (
        "error: --term needs a value; nothing follows it"
    )


def test_an_unknown_option_is_named_with_the_help() -> None:
    for tokens, name in [
        (("--bogus",), "--bogus"),
        (("--bogus=3",), "--bogus"),
        (("-iw",), "-iw"),
        (("--no-word",), "--no-word"),
    ]:
        error = _error("scout", "q", *tokens)
        assert isinstance(error, UnknownWordError)
        assert _printed(error) == f"unknown option: {name}"
    assert _printed(_error("scout", "q", "--contxt", "1")) == "unknown option: --contxt"


def test_a_grep_or_rg_option_gets_the_asrch_way_in_one_line() -> None:
    """Issue 40, item 9: the command's option where it has one, else what asrch does
    instead; no usage after the line."""
    expected = {
        ("scout", "-l"): "scout lists the files",
        ("scout", "-n"): "lines are always numbered",
        ("scout", "-F"): "a fixed string is the default",
        ("scout", "-e"): "the query is an argument",
        ("survey", "-e"): "did you mean --term?",
        ("scout", "-S"): "case-sensitive unless -i",
        ("scout", "--count"): "scout counts",
        ("scout", "-C"): "context is show's: show --line N --context N",
        ("sample", "--context"): "context is show's",
        ("show", "-C"): "did you mean --context?",
        ("scout", "--json"): "did you mean --format json?",
    }
    for (command, option), said in expected.items():
        rest = ("--term", "q") if command == "survey" else ("q", "f")
        error = _error(command, option, "1", *rest)
        assert isinstance(error, UnknownWordError) and not error.with_help, (command, option)
        assert _printed(error).startswith(f"unknown option: {option}; {said}"), _printed(error)
    assert _printed(_error("scout", "q", "--=x")) == "unknown option: --=x"


def test_an_unknown_command_and_a_missing_one() -> None:
    assert _printed(_error("count", "x")) == "unknown command: count"
    assert _printed(_error("--bogus")) == "unknown option: --bogus"
    with pytest.raises(ArgumentError, match=r"^missing command$"):
        read([])


# --- too few or too many arguments ----------------------------------------------------


@pytest.mark.parametrize(
    ("command", "tokens", "message"),
    [
        (
            "show",
            ("samples/clusters.txt",),
            "show needs QUERY and FILE, or FILE and --line N, got 1 argument besides options: "
            "samples/clusters.txt",
        ),
        (
            "show",
            ("--line", "10"),
            "show needs QUERY and FILE, or FILE and --line N, got no argument besides options",
        ),
        ("sample", ("a b",), 'sample needs QUERY and FILE, got 1 argument besides options: "a b"'),
        ("scout", ("--word",), "scout needs QUERY, got no argument besides options"),
        ("scout", ("connect", "src", "docs"), "unexpected argument for scout: docs"),
        ("show", ("q", "f", "x", "y"), "unexpected argument for show: x y"),
        ("mcp", ("x",), "unexpected argument for mcp: x"),
    ],
)
def test_argument_counts_say_what_was_expected_and_received(
    command: str, tokens: tuple[str, ...], message: str
) -> None:
    error = _error(command, *tokens)
    assert isinstance(error, ArgumentError)
    assert (_printed(error), error.with_help) == (f"error: {message}; see the usage below", True)


# --- any order --------------------------------------------------------------------------


def test_the_grammar_reads_options_and_arguments_in_any_order() -> None:
    lines = [
        ("--line", "3", "q", "--word", "f"),
        ("q", "f", "--word", "--line=3"),
        ("--word", "--line=03", "--", "q", "f"),
    ]
    expected = {"query": "q", "file": "f", "word": True, "line": 3}
    for tokens in lines:
        assert _values("show", *tokens) == expected
    assert _values("survey") == {}


@st.composite
def _valid_lines(draw: st.DrawFn) -> tuple[str, list[str], dict[str, object]]:
    """A command line built to be valid, in a drawn order, and the values it means."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    pieces: list[list[str]] = []
    texts: list[tuple[str, str] | None] = []
    values: dict[str, object] = {}
    text = st.text(st.characters(exclude_characters="\0"), max_size=6)
    for option in COMMANDS[command].options:
        times = draw(st.integers(0, 3 if option.value_type == "texts" else 1))
        for _ in range(times):
            spelling = draw(st.sampled_from((option.spelling, *option.aliases)))
            if option.value_type == "flag":
                pieces.append([spelling])
                texts.append(None)
                values[option.name] = True
                continue
            if option.value_type == "number":
                number = draw(st.integers(0, 10**20))
                value = "0" * draw(st.integers(0, 2)) + str(number)
                values[option.name] = number
            elif option.value_type == "choice":
                value = draw(st.sampled_from(option.choices))
                values[option.name] = value
            else:
                value = draw(text)
                if option.value_type == "text":  # one value, the last given
                    values[option.name] = value
            joined = looks_like_option(value) or draw(st.booleans())
            pieces.append([f"{spelling}={value}"] if joined else [spelling, value])
            texts.append((option.name, value) if option.value_type == "texts" else None)
    positionals = COMMANDS[command].positionals
    # show's QUERY is needed unless --line is given; the arguments then fill from the
    # right (D46).
    low = sum(bool(a.required or (a.unless and a.unless not in values)) for a in positionals)
    high = 3 if any(a.many for a in positionals) else len(positionals)
    arguments = draw(st.lists(text, min_size=low, max_size=high))
    order = draw(st.permutations(range(len(pieces) + len(arguments))))
    tokens: list[str] = []
    if any(looks_like_option(a) or a == "--" for a in arguments):
        tokens = [t for i in order if i < len(pieces) for t in pieces[i]] + ["--", *arguments]
    else:
        slots = iter(arguments)
        for i in order:
            tokens += pieces[i] if i < len(pieces) else [next(slots)]
    for i in order:  # repeatable values in the order they were given
        if i < len(pieces) and (given := texts[i]) is not None:
            repeated = values.setdefault(given[0], [])
            assert isinstance(repeated, list)
            repeated.append(given[1])
    single = [a for a in positionals if not a.many]
    if any(a.unless for a in single):
        single = single[len(single) - len(arguments) :] if arguments else []
    for argument, value in zip(single, arguments, strict=False):
        values[argument.name] = value
    many = [a for a in positionals if a.many]
    if many and arguments:  # survey's paths: its only positional
        values[many[0].name] = list(arguments)
    return command, tokens, values


@given(_valid_lines())
# A dash and a digit that is no number is an option to cyclopts (D49): after `--`, or
# joined with `=`, it is a value.
@example(("sample", ["--", "", "-0;"], {"query": "", "file": "-0;"}))
@example(("survey", ["--term=-1x", "-2"], {"term": ["-1x"], "paths": ["-2"]}))
def test_a_valid_line_in_any_order_binds_to_what_it_means(
    case: tuple[str, list[str], dict[str, object]],
) -> None:
    command, tokens, expected = case
    assert _values(command, *tokens) == expected
