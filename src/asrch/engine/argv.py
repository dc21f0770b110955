"""ripgrep argument lists (D9, D11, D13)."""

from collections.abc import Sequence

from asrch.domain.errors import InputError
from asrch.domain.exclusions import EXCLUDED_DIRS, EXCLUDED_FILES
from asrch.domain.modes import Mode
from asrch.domain.query import DEFAULT_OPTIONS, Query, SearchOptions

# `--no-config`: a user's RIPGREP_CONFIG_PATH must not change results; nor must the
# user's git configuration (`--no-ignore-global`: `core.excludesFile`, or
# `$XDG_CONFIG_HOME/git/ignore`, which rg reads like a `.gitignore`).
# `--case-sensitive` (or `--ignore-case` for `-i`, in `pattern_args`): the case rule is
# asrch's, whatever rg's defaults become (never rg's smart case).
# `--no-require-git`: `.gitignore` applies outside a git repository too, so an
# unpacked archive counts like its checkout (D13).
# `--no-ignore-messages`: a rule rg cannot parse in an ignore file (or an ignore file
# it cannot read) is rg's to drop; it is no searched file that went unread, and its
# `rg: PATH: …` line would otherwise be taken for one (D21).
# Exclusions are matched by rg against walked entries only, so a project living
# inside a folder named `build` is still searched. The directory names are globs whose
# trailing `/` limits them to directories. The file patterns are a file type of
# asrch's own, excluded with `--type-not`: rg matches types against files only, while
# a glob `!*.xml` would also skip a directory `sitemap.xml/` and all under it.
EXCLUDED_TYPE = "asrchexcluded"
BASE_FLAGS: tuple[str, ...] = (
    "--no-config",
    "--no-ignore-global",
    "--no-require-git",
    "--no-ignore-messages",
    *(f"--glob=!{name}/" for name in EXCLUDED_DIRS),
    *(f"--type-add={EXCLUDED_TYPE}:{pattern}" for pattern in EXCLUDED_FILES),
    f"--type-not={EXCLUDED_TYPE}",
)

_REGEX_META = frozenset("\\.+*?()|[]{}^$#&-~")
# Byte-level classes so that an invalid UTF-8 byte next to the term counts as a
# boundary, as it is not one of [A-Za-z0-9_].
_NOT_IDENT = "(?-u:[^A-Za-z0-9_])"


def escape_regex(text: str) -> str:
    """Escape the metacharacters of ripgrep's regex syntax (Rust `regex::escape`)."""
    return "".join("\\" + c if c in _REGEX_META else c for c in text)


# Linux takes no single argument longer than 128 KiB (MAX_ARG_STRLEN): a longer pattern
# goes to rg in a pattern file (`--file`), one pattern a line, which rg reads as the
# same pattern, its line ending stripped.
PATTERN_ARG_MAX = 100_000


class PatternFile(str):
    """`--file=…` (or another `option` naming a file rg reads) for one rg run: the
    argument says what the file holds (`data`), and the run that starts rg writes it
    into a file of its own, unnamed where the system allows, closed once that rg is
    reaped (`engine/process.py`). No file is shared between runs, threads or calls, none
    is visible half written, and none outlives its run (issue 39, item 6: a shared,
    content-named file raced between two writers of the same term and the exit's
    clean-up)."""

    data: bytes
    option: str

    def __new__(cls, data: bytes, option: str = "--file") -> "PatternFile":
        what = "pattern" if option == "--file" else "file"
        arg = super().__new__(cls, f"{option}=<{len(data)}-byte {what}>")
        arg.data = data
        arg.option = option
        return arg


PINNED_FLAGS = ("--no-ignore-vcs", "--no-ignore-dot", "--no-ignore-parent")
"""An MCP call's walk (`engine.ignore_files.pinned_rules`): rg discovers no ignore file
(`.gitignore`, `info/exclude` and git's own with `--no-ignore-vcs`; `.ignore` and
`.rgignore` with `--no-ignore-dot`) and reads none above its operand; it is handed the
rules asrch read and checked as `--ignore-file`s (`engine.ignore_files.WalkRules`)."""


def with_walk_rules(argv: list[str], rules: tuple[bytes, ...] | None) -> list[str]:
    """`argv` for a pinned walk whose ignore rules are `rules`, ignore files in rg's
    order (None: `argv` itself, rg finding its ignore files itself): every transport
    starts rg with this."""
    if rules is None:
        return argv
    flags = [*PINNED_FLAGS, *(PatternFile(text, "--ignore-file") for text in rules)]
    return [argv[0], *flags, *argv[1:]]


def pattern_arg(pattern: str) -> str:
    """`--regexp=PATTERN`, or `--file=…` for a pattern too long to be one argument.

    A pattern file splits lines (and strips a CR before a LF): a long pattern holding
    either one is refused here, naming the limit, instead of being searched as another.
    """
    arg = f"--regexp={pattern}"
    if len(arg) <= PATTERN_ARG_MAX // 4 or len(arg.encode("utf-8", "surrogateescape")) <= (
        PATTERN_ARG_MAX
    ):
        return arg
    if "\n" in pattern or "\r" in pattern:
        raise InputError(
            f"the pattern is {len(pattern.encode('utf-8', 'surrogateescape'))} bytes long "
            f"and holds a line break; a pattern longer than {PATTERN_ARG_MAX} bytes must "
            "be one line"
        )
    return PatternFile(pattern.encode("utf-8", "surrogateescape") + b"\n")


def is_pattern_arg(arg: str) -> bool:
    return arg.startswith(("--regexp=", "--file="))


def pattern_args(query: Query) -> list[str]:
    """The search options' flags, the mode's, and the pattern, in `--regexp=` (or a
    pattern file when too long for an argument: `pattern_arg`).

    With `--ignore-case` rg folds the whole pattern; the identifier boundary classes
    hold both cases of every ASCII letter already, so they mean the same either way.
    """
    # Each search option but the mode (`SearchOptions`) is one line here, read from the
    # query's options: every rg run of a search (count, census, JSON, the one-pass walk
    # and its judge, the pattern probe) takes its flags from this list.
    # `--type`/`--glob` are absent on purpose: asrch applies them (`domain/filters.py`).
    options = query.options
    flags = [
        "--ignore-case" if options.ignore_case else "--case-sensitive",
    ]
    match options.mode:
        case Mode.FIXED:
            return [*flags, "--fixed-strings", pattern_arg(query.term)]
        case Mode.WORD:
            return [*flags, "--fixed-strings", "--word-regexp", pattern_arg(query.term)]
        case Mode.IDENTIFIER:
            term = escape_regex(query.term)
            return [*flags, pattern_arg(f"(?:^|{_NOT_IDENT}){term}(?:{_NOT_IDENT}|$)")]
        case Mode.REGEX:
            return [*flags, pattern_arg(query.term)]


def walk_args(options: SearchOptions) -> list[str]:
    """The search options' flags that pick which files a walk searches, one line each
    (rg applies them to the files it walks to, never to a file it is handed). Only in
    the argv of rg walking the user's tree: never in that of rg reading asrch's own
    scratch files (`judge_lines_argv`) or the probe's empty input."""
    return [
        *([f"--max-filesize={options.max_filesize}"] if options.max_filesize else []),
    ]


# rg tells which binary files it met while walking only in its debug log
# (`ignoring PATH: found binary data at offset N`); the rest of that log is a few lines.
LOG_BINARY = "--debug"


def operand(path: str) -> str:
    """`path` as handed to rg: `-` alone means stdin to rg, `./-` the file named `-`."""
    return "./-" if path == "-" else path


def as_typed(printed: str, path: str, given: str | None = None) -> str:
    """A path rg printed under `operand(given)` (`given`: what rg was handed for `path`,
    default `path` itself), spelled from `path` as the user typed it."""
    given = operand(path if given is None else given)
    if given == path or not printed.startswith(given):
        return printed
    return path + printed[len(given) :]


def count_argv(
    rg: str, query: Query, target: str, *, sort: bool = True, log_binary: bool = False
) -> list[str]:
    """Per-file matched-line counts, NUL after each path (in path order if `sort`),
    then rg's statistics, which rg prints whatever it found: output without them is no
    rg's (`ASRCH_RG=/bin/true` printed nothing, read as no match; issue 39, item 9);
    with `log_binary`, rg's debug log names each binary file met while walking."""
    return [
        rg,
        *BASE_FLAGS,
        *([LOG_BINARY] if log_binary else []),
        "--count",
        "--stats",
        "--with-filename",
        "--null",
        *(["--sort=path"] if sort else []),
        *walk_args(query.options),
        *pattern_args(query),
        "--",
        operand(target),
    ]


# rg 14.1 canonicalizes every path it prints (for hyperlinks, even when it prints
# none): a `getcwd` and a `readlink` per component. With NUL as the path separator
# the canonicalization fails at once, in memory, and a record per searched file costs
# a write instead of ~8 system calls (docs/reliability.md, *Binary files*).
NUL_SEPARATOR = "--path-separator=\\x00"


def census_argv(rg: str, query: Query, target: str, *, plain: bool = False) -> list[str]:
    """A count record for every file rg searched and did not stop at a NUL byte, zero
    included, then rg's statistics: `N files searched` counts the binary files too, so
    they are the difference. A record is `PATH:COUNT LF`, `/` in PATH printed as NUL;
    `plain`: `PATH NUL COUNT LF` with `/` as rg prints it (for names holding a LF)."""
    return [
        rg,
        *BASE_FLAGS,
        "--count",
        "--include-zero",
        "--stats",
        "--with-filename",
        *(["--null"] if plain else [NUL_SEPARATOR]),
        *walk_args(query.options),
        *pattern_args(query),
        "--",
        operand(target),
    ]


def files_argv(rg: str, target: str, options: SearchOptions = DEFAULT_OPTIONS) -> list[str]:
    """The files a search of `target` with `options` walks to, NUL after each (no file
    is opened)."""
    return [rg, *BASE_FLAGS, *walk_args(options), "--files", "--null", "--", operand(target)]


def json_argv(
    rg: str,
    query: Query,
    target: str | Sequence[str],
    *,
    context: int = 0,
    max_count: int | None = None,
) -> list[str]:
    """Match (and context) events as JSON lines, in path order, of one target or of
    several files; with `max_count`, at most that many matching lines a file."""
    targets = [target] if isinstance(target, str) else list(target)
    return [
        rg,
        *BASE_FLAGS,
        "--json",
        f"--context={context}",
        *([] if max_count is None else [f"--max-count={max_count}"]),
        "--sort=path",
        *pattern_args(query),
        "--",
        *map(operand, targets),
    ]


def numbers_argv(rg: str, query: Query, files: Sequence[str], *, max_count: int) -> list[str]:
    """The numbers of the first `max_count` matching lines of each of `files` (named, as
    `json_argv` names them), none of their text: `PATH NUL`, then a record a line,
    `N:[Omitted long matching line]` (`--max-columns=1`), an empty line before the next
    file; in path order."""
    return [
        rg,
        *BASE_FLAGS,
        "--heading",
        "--with-filename",
        "--null",
        "--line-number",
        "--max-columns=1",
        f"--max-count={max_count}",
        "--sort=path",
        "--color=never",
        *pattern_args(query),
        "--",
        *map(operand, files),
    ]


def listing_argv(rg: str, query: Query, target: str) -> list[str]:
    """A walk's match records as JSON, each file's in line order, the files in rg's own
    (parallel) order: `count_argv`'s walk, with its lines (`files.count_and_lines`)."""
    return [
        rg,
        *BASE_FLAGS,
        "--json",
        *walk_args(query.options),
        *pattern_args(query),
        "--",
        operand(target),
    ]


def type_list_argv(rg: str) -> list[str]:
    """rg's file types and their globs, `name: glob, glob` a line."""
    return [rg, "--no-config", "--type-list"]


def pattern_probe_argv(rg: str, query: Query) -> list[str]:
    """The query alone, searched in nothing (empty stdin): rg refuses it only if the
    pattern itself is at fault."""
    return [rg, "--no-config", *pattern_args(query), "--", "-"]


def lines_argv(
    rg: str, queries: Sequence[Query], target: str, *, log_binary: bool = True
) -> list[str]:
    """Every line matching any of the queries (one mode), once, grouped per file:
    `PATH NUL` then the lines, a blank line before each next file; in path order (one
    walking thread: the reader judges while rg walks). With `log_binary`, the debug log
    naming each binary file met while walking."""
    flags = pattern_args(queries[0])
    mode_flags = [f for f in flags if not is_pattern_arg(f)]
    return [
        rg,
        *BASE_FLAGS,
        *([LOG_BINARY] if log_binary else []),
        "--heading",
        "--with-filename",
        "--null",
        "--no-line-number",
        "--color=never",
        "--sort=path",
        *walk_args(queries[0].options),
        *mode_flags,
        *(arg for q in queries for arg in pattern_args(q) if is_pattern_arg(arg)),
        "--",
        operand(target),
    ]


def spots_argv(
    rg: str,
    query: Query,
    patterns: Sequence[str],
    targets: Sequence[str],
    *,
    cap: int,
    log_binary: bool,
) -> list[str]:
    """Each match of any of the `patterns` (searched as `query`'s mode searches) as
    `N NUL MATCH` on a line of its own (`N` its line), grouped per file as `lines_argv`
    groups lines; unsorted (rg's parallel walk: each file's records printed whole,
    files in no set order), at most `cap` matching lines a file. `targets`: the
    directory walked, or the files an index named (D58). With `log_binary`, the debug
    log naming each binary file met."""
    mode_flags = [f for f in pattern_args(query) if not is_pattern_arg(f)]
    return [
        rg,
        *BASE_FLAGS,
        *([LOG_BINARY] if log_binary else []),
        "--heading",
        "--with-filename",
        NUL_SEPARATOR,
        "--line-number",
        "--only-matching",
        "--field-match-separator=\\x00",
        "--stats",
        "--color=never",
        f"--max-count={cap}",
        *walk_args(query.options),
        *mode_flags,
        *(pattern_arg(p) for p in patterns),
        "--",
        *map(operand, targets),
    ]


def judge_lines_argv(rg: str, query: Query, lines: str, *, cap: int) -> list[str]:
    """`N:[Omitted long matching line]` for each line of `lines` (a file of lines rg
    already matched while walking, so no binary rule and no walk; `-`: stdin, as it
    comes) that the query matches, stopped after `cap` of them. `--max-columns=1` omits
    every line (a matched line is never empty, and its LF counts): one short record a
    line whatever its length or number of matches. `--mmap` (a file): a line of 200 MB
    is searched where it lies, not read into rg's growing buffer first (≈10× less CPU on
    one such line); stdin only ever holds short lines (engine/one_pass.py).

    `--encoding=none`: the file starts with whatever line matched first; rg must not
    sniff a byte-order mark there (FF FE would turn the whole file into UTF-16). The
    lines are already as rg decoded them in their own files."""
    return [
        rg,
        "--no-config",
        "--encoding=none",
        "--text",
        *([] if lines == "-" else ["--mmap"]),
        "--line-number",
        "--max-columns=1",
        f"--max-count={cap}",
        *pattern_args(query),
        "--",
        lines,
    ]
