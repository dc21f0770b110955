"""Random command lines: terms, modes, numbers, paths, and tokens in any order (hypothesis).

Whatever the arguments: no traceback, a documented exit status, valid UTF-8 within
800 bytes a line, the same bytes on a second run, and an input error is one
`error:` line (or `unknown …` and the help), never in cyclopts' words. Numbers are
ASCII digits read exactly (D25). Each fast test is bounded to a few
dozen examples (a run costs ~0.3 s); the `slow` twins try more.
"""

import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asrch.domain.text_safety import quote
from tests.end_to_end.helpers import as_json, asrch, asrch_many, check_invariants
from tests.support.cli import Result
from tests.support.tiers import examples
from tests.support.toon import field

FILE_LINES = 30
# asrch runs per example: 25 examples in an ordinary run, 200 under the profile `more`
# (tests/support/tiers.py).
RUNS = settings(
    max_examples=examples(25, more=200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("arguments")
    (root / "sub").mkdir()
    lines = [f"line {n}: needle -e --files a|b (x) [y] {{z}} 日本語 \\ ^$" for n in range(1, 31)]
    (root / "f.txt").write_text("\n".join(lines) + "\n")
    (root / "sub" / "g.txt").write_text("needle\nconnect\n")
    (root / "space name.txt").write_text("needle\n")
    return root


_ARGV_TEXT = st.characters(exclude_characters="\x00", exclude_categories=["Cs"])
terms = st.one_of(
    st.text(_ARGV_TEXT, max_size=40),
    st.text(st.sampled_from("\\.+*?()|[]{}^$#&-~ \t\n,\"'"), min_size=1, max_size=12),
    st.builds(
        lambda a, b: a + b,
        st.sampled_from(["-", "--", "-e", "--files", " "]),
        st.text(_ARGV_TEXT, max_size=8),
    ),
    st.text(st.sampled_from("ab日\\x "), min_size=1000, max_size=3000),
    st.sampled_from(["needle", "日本語", "a|b", r"a\|b", "(x)", "-e", "--files", "", " ", "\t"]),
)
modes = st.sampled_from([[], ["--word"], ["--identifier"], ["--regex"], ["--word", "--identifier"]])
commands = st.sampled_from(["scout", "survey", "sample", "show"])


def _command(command: str, mode: list[str], term: str, path: str) -> list[str]:
    if command == "survey":
        return ["survey", *mode, f"--term={term}", "--", path]
    return [command, *mode, "--", term, path]


def _twice(argv: list[str], cwd: Path) -> Result:
    first, second = asrch_many([argv, argv], cwd=cwd, workers=2)
    check_invariants(first)
    assert (second.status, second.stdout, second.stderr) == (
        first.status,
        first.stdout,
        first.stderr,
    ), f"two runs differ:\n{first}\n{second}"
    return first


@RUNS
@given(command=commands, mode=modes, term=terms)
def test_random_terms(tree: Path, command: str, mode: list[str], term: str) -> None:
    path = "." if command in ("scout", "survey") else "f.txt"
    run = _twice(_command(command, mode, term, path), tree)
    if term == "" or len(mode) == 2 or (command == "survey" and mode == ["--regex"]):
        assert run.status == 2, str(run)
    if run.status == 0 and command != "survey":
        field(run.out, "matches")  # a report, not an error


NUMBER_OPTIONS: dict[str, tuple[str, Callable[[int], bool], str]] = {
    "--clusters": ("sample", lambda n: 1 <= n <= 5, "1-5"),
    "--page": ("sample", lambda n: n >= 1, "1 or more"),
    "--line": ("show", lambda n: 1 <= n <= FILE_LINES, "1 to the file's last line"),
    "--context": ("show", lambda n: 0 <= n <= 5, "0-5"),
}
ASCII_DIGITS = re.compile(r"[0-9]+")
MOST_DIGITS = sys.get_int_max_str_digits()
numbers = st.one_of(
    st.integers(-10, 40),
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, 1, 5, 6, 2**31, 2**63, -(2**63), 10**100]),
)
junk = st.one_of(
    st.text(_ARGV_TEXT, max_size=10),
    st.sampled_from(
        ["", " ", "1.5", "3.5", "5.9", "1e3", "1e1", "abc", "--", "-", "0x3", "0x10", "1_6",
         "+3", "-1", "１", "٣", "NaN", "inf", "3,4", "03", "0005", "9" * (MOST_DIGITS + 1),
         "0" * 5000 + "2"]
    ),
)  # fmt: skip


NUMBER_CASES = {
    "option": st.sampled_from(sorted(NUMBER_OPTIONS)),
    "value": st.one_of(numbers, junk),
    "joined": st.booleans(),
}


def _check_number_used(run: Result, option: str, number: int) -> None:
    """The answer used the number as given: no rounding, no other base."""
    assert "\n  context: " not in run.out, str(run)  # nothing typed is echoed (D42)
    answer = as_json(run)
    if option == "--clusters":
        headers = [ln for ln in run.out.splitlines() if ln.startswith("== ")]
        assert len(headers) == min(number, answer["clusters"]), str(run)
    else:
        assert answer[option.removeprefix("--")] == number, str(run)


@RUNS
@given(**NUMBER_CASES)
def test_numbers_are_digits_read_exactly(
    tree: Path, option: str, value: int | str, joined: bool
) -> None:
    """D25: digits 0-9 only, read exactly; anything else names the value as typed."""
    command, allowed, words = NUMBER_OPTIONS[option]
    text = str(value)
    spelled = [f"{option}={text}"] if joined or text.startswith("-") else [option, text]
    # "line 1" matches 11 lines: few enough for show to print them.
    run = asrch(command, *spelled, "line 1", "f.txt", cwd=tree)
    check_invariants(run)
    first = run.err.split("\n")[0]
    if not ASCII_DIGITS.fullmatch(text):
        assert run.status == 2, str(run)
        want = f"error: {option} takes digits 0-9 only, got {quote(text)}; allowed: {words}"
        assert first == want, str(run)
    elif len(text.lstrip("0")) > MOST_DIGITS:
        assert run.status == 2, str(run)
        assert first.startswith(f"error: {option} has {len(text.lstrip('0'))} digits"), first
    else:
        number = int(text.lstrip("0") or "0")  # Python reads no more digits than that
        status = 0 if allowed(number) else 2
        assert run.status == status, str(run)
        if status == 2:
            assert first.startswith(f"error: {option} {number} is out of range"), first
        else:
            _check_number_used(run, option, number)


# Tokens of every kind, for lines in any order: each command's options (and the
# others'), flags with values, numbers good and bad, `--`, option-like values, paths.
LINE_TOKENS = [
    "--word", "--identifier", "--regex", "--word=yes", "--regex=1", "--identifier=",
    "--term", "--term=needle", "--term=-e", "--clusters", "--clusters=2", "--clusters=5.9",
    "--page", "--page=2.7", "--line", "--line=3", "--line=0x10", "--context", "--context=1",
    "--format", "--format=json", "--format=yaml", "json",
    "--", "-e", "-", "-5", "--bogus", "--files", "3", "03", "3.5", "１", "",
    "needle", "line 1", "f.txt", "sub", "sub/g.txt", ".", "missing",
]  # fmt: skip
ALWAYS_WRONG = {
    "--word=yes", "--regex=1", "--identifier=", "--format=yaml", "--bogus", "--files", "-e",
}  # fmt: skip
"""Before `--`, each of these makes any line an input error, wherever it stands."""
FLAGS = ("--word", "--identifier", "--regex")
CYCLOPTS_WORDING = re.compile(r"Parameter|multiple times|Invalid value|[Cc]yclopts|Usage:|[╭│╰]")

line_tokens = st.lists(
    st.one_of(st.sampled_from(LINE_TOKENS), st.text(_ARGV_TEXT, max_size=6)), max_size=8
)


@RUNS
@given(command=commands, tokens=line_tokens)
def test_random_command_lines(tree: Path, command: str, tokens: list[str]) -> None:
    """D20 over lines in any order: an answer, a refusal, or one input error in asrch's
    words; never a traceback, cyclopts' wording or an undocumented status."""
    run = asrch(command, *tokens, cwd=tree)
    check_invariants(run, frozenset({0, 2, 3}))
    assert not CYCLOPTS_WORDING.search(run.err), str(run)
    options = tokens[: tokens.index("--")] if "--" in tokens else tokens
    helped = "--help" in options or "-h" in options
    wrong = ALWAYS_WRONG & set(options) or any(options.count(f) > 1 for f in FLAGS)
    if wrong and not helped:  # a help asked for is given, as on main (cyclopts)
        assert run.status == 2, str(run)
    if run.status == 0:  # an answer, as text or as one JSON object, or the help
        # survey's block holds only repeated counts (D42): often its table comes first.
        heads = (
            (f"{command}:\n", "overall[", "terms[") if command == "survey" else (f"{command}:\n",)
        )
        text = run.out.startswith(heads)
        assert text or helped or run.out.startswith('{"schema_version":"1",'), str(run)
    if run.status == 3:
        assert command == "show", str(run)


PATHS = {
    "f.txt": "file",
    "space name.txt": "file",
    "sub/g.txt": "file",
    ".": "dir",
    "sub": "dir",
    "sub/": "dir",
    "missing": "missing",
    "f.txt/inside": "missing",
    "": "missing",
    "-": "missing",
    "--files": "missing",
}


@settings(RUNS, max_examples=20)
@given(command=commands, path=st.sampled_from(sorted(PATHS)), mode=modes)
def test_paths(tree: Path, command: str, path: str, mode: list[str]) -> None:
    run = asrch(*_command(command, mode, "needle", path), cwd=tree)
    check_invariants(run)
    kind = PATHS[path]
    usable = kind == "file" or (kind == "dir" and command in ("scout", "survey"))
    bad_mode = len(mode) == 2 or (command == "survey" and mode == ["--regex"])
    if not usable or bad_mode:
        assert run.status == 2, str(run)
    elif command == "show" and path == "f.txt":
        # f.txt holds 30 matches: more than show prints, so it refuses (exit 3).
        assert run.status == 3, str(run)
    else:
        assert run.status == 0, str(run)


def test_regex_beyond_the_size_limit_is_an_input_error(tree: Path) -> None:
    """Not a false zero with a `skipped: 1 unreadable` note."""
    for command in ("scout", "sample", "show"):
        path = "." if command == "scout" else "f.txt"
        run = asrch(command, "--regex", "a{99999999}", path, cwd=tree)
        check_invariants(run, frozenset({2}))
        assert "size limit" in run.err


def test_long_terms_in_every_mode(tree: Path) -> None:
    term = "needle " * 500
    for mode in ([], ["--word"], ["--identifier"], ["--regex"]):
        run = asrch("scout", *mode, "--", term, ".", cwd=tree)
        check_invariants(run, frozenset({0}))
        assert field(run.out, "matches") == "0"
        # The query is not echoed (D42): the answer is short whatever the term.
        assert "query:" not in run.out, str(run)
