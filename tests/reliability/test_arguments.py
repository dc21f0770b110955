"""Random command lines: terms, modes, numbers and paths (hypothesis).

Whatever the arguments: no traceback, a documented exit status, valid UTF-8 within
800 bytes a line, the same bytes on a second run, and an input error is one
`error:` line (or `unknown …` and the help). Each fast test is bounded to a few
dozen examples (a run costs ~0.3 s); the `slow` twins try more.
"""

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability.helpers import Run, asrch, asrch_many, check_invariants, field

FILE_LINES = 30
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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


def _twice(argv: list[str], cwd: Path) -> Run:
    first, second = asrch_many([argv, argv], cwd=cwd, workers=2)
    check_invariants(first)
    assert (second.status, second.stdout, second.stderr) == (
        first.status,
        first.stdout,
        first.stderr,
    ), f"two runs differ:\n{first}\n{second}"
    return first


def _terms_body(tree: Path) -> Callable[[str, list[str], str], None]:
    def body(command: str, mode: list[str], term: str) -> None:
        path = "." if command in ("scout", "survey") else "f.txt"
        run = _twice(_command(command, mode, term, path), tree)
        if term == "" or len(mode) == 2 or (command == "survey" and mode == ["--regex"]):
            assert run.status == 2, str(run)
        if run.status == 0 and command != "survey":
            field(run.out, "matches")  # a report, not an error

    return body


@FAST
@given(command=commands, mode=modes, term=terms)
def test_random_terms(tree: Path, command: str, mode: list[str], term: str) -> None:
    _terms_body(tree)(command, mode, term)


@pytest.mark.slow
@SLOW
@given(command=commands, mode=modes, term=terms)
def test_random_terms_more(tree: Path, command: str, mode: list[str], term: str) -> None:
    _terms_body(tree)(command, mode, term)


NUMBER_OPTIONS: dict[str, tuple[str, Callable[[int], bool]]] = {
    "--clusters": ("sample", lambda n: 1 <= n <= 5),
    "--page": ("sample", lambda n: n >= 1),
    "--line": ("show", lambda n: 1 <= n <= FILE_LINES),
    "--context": ("show", lambda n: 0 <= n <= 5),
}
numbers = st.one_of(
    st.integers(-10, 40),
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, 1, 5, 6, 2**31, 2**63, -(2**63), 10**100]),
)
junk = st.one_of(
    st.text(_ARGV_TEXT, max_size=10),
    st.sampled_from(["", " ", "1.5", "1e3", "abc", "--", "-", "0x3", "NaN", "inf", "3,4"]),
)


def _numbers_body(tree: Path) -> Callable[[str, int | str], None]:
    def body(option: str, value: int | str) -> None:
        command, allowed = NUMBER_OPTIONS[option]
        # "line 1" matches 11 lines: few enough for show to print them.
        run = asrch(command, f"{option}={value}", "line 1", "f.txt", cwd=tree)
        check_invariants(run)
        if isinstance(value, int):
            want = 0 if allowed(value) else 2
            assert run.status == want, str(run)
            if want == 2:
                assert option in run.err.splitlines()[0]
        else:
            assert run.status in (0, 2), str(run)

    return body


@FAST
@given(option=st.sampled_from(sorted(NUMBER_OPTIONS)), value=st.one_of(numbers, junk))
def test_numbers_out_of_range(tree: Path, option: str, value: int | str) -> None:
    _numbers_body(tree)(option, value)


@pytest.mark.slow
@SLOW
@given(option=st.sampled_from(sorted(NUMBER_OPTIONS)), value=st.one_of(numbers, junk))
def test_numbers_out_of_range_more(tree: Path, option: str, value: int | str) -> None:
    _numbers_body(tree)(option, value)


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


@settings(FAST, max_examples=20)
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
        # The query line is cut at 800 bytes, its value with it; the rest is whole.
        assert run.out.splitlines()[1].startswith('  query: "needle needle')
