"""ripgrep argument lists (D9, D11, D13)."""

from asrch.domain.exclusions import EXCLUDED_DIRS, EXCLUDED_FILES
from asrch.domain.modes import Mode
from asrch.domain.query import Query

# `--no-config`: a user's RIPGREP_CONFIG_PATH must not change results.
# `--case-sensitive`: the modes are case-sensitive whatever rg's defaults become.
# Exclusion globs are matched by rg against walked entries only, so a project
# living inside a folder named `build` is still searched; the trailing `/` limits
# the directory names to directories.
BASE_FLAGS: tuple[str, ...] = (
    "--no-config",
    "--case-sensitive",
    *(f"--glob=!{name}/" for name in EXCLUDED_DIRS),
    *(f"--glob=!{pattern}" for pattern in EXCLUDED_FILES),
)

_REGEX_META = frozenset("\\.+*?()|[]{}^$#&-~")
# Byte-level classes so that an invalid UTF-8 byte next to the term counts as a
# boundary, as it is not one of [A-Za-z0-9_].
_NOT_IDENT = "(?-u:[^A-Za-z0-9_])"


def escape_regex(text: str) -> str:
    """Escape the metacharacters of ripgrep's regex syntax (Rust `regex::escape`)."""
    return "".join("\\" + c if c in _REGEX_META else c for c in text)


def pattern_args(query: Query) -> list[str]:
    """The mode flags and the pattern; the pattern always goes in `--regexp=`."""
    match query.mode:
        case Mode.FIXED:
            return ["--fixed-strings", f"--regexp={query.term}"]
        case Mode.WORD:
            return ["--fixed-strings", "--word-regexp", f"--regexp={query.term}"]
        case Mode.IDENTIFIER:
            term = escape_regex(query.term)
            return [f"--regexp=(?:^|{_NOT_IDENT}){term}(?:{_NOT_IDENT}|$)"]
        case Mode.REGEX:
            return [f"--regexp={query.term}"]


def count_argv(rg: str, query: Query, target: str, *, sort: bool = True) -> list[str]:
    """Per-file matched-line counts, NUL after each path (in path order if `sort`)."""
    return [
        rg,
        *BASE_FLAGS,
        "--count",
        "--with-filename",
        "--null",
        *(["--sort=path"] if sort else []),
        *pattern_args(query),
        "--",
        target,
    ]


def json_argv(rg: str, query: Query, target: str, *, context: int = 0) -> list[str]:
    """Match (and context) events as JSON lines, in path order."""
    return [
        rg,
        *BASE_FLAGS,
        "--json",
        f"--context={context}",
        "--sort=path",
        *pattern_args(query),
        "--",
        target,
    ]
