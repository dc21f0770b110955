"""The protocol's next step (D28): the command an agent pastes after this answer (pure).

A step is the argument list of an `asrch` command (`("asrch", "sample", …)`) that runs
as pasted, shell-quoted, from the working directory of the call that suggested it: the
paths are joined with the searched path (rows stay relative to it, D26), and the mode,
`-i` and the filters of the call are carried over. An empty tuple: no next step.

The rules (spec/next_step*.md):
- survey: `scout` the most selective (term, path) pair whose count is exact (fewest
  matching lines, then fewest files, then by_path's order); when every pair that matched
  is a lower bound, the most selective term in its dominant path (D36);
- scout: `sample` the top file of `source`, else `test`, else `docs` (D35); a scout that
  lists its lines, `show --line` at that file's first listed match (D32);
- sample: `show --line` at the first match of the page's first cluster; past the last
  page, the last page;
- show: a refused show, `sample` the file; otherwise none.
"""

from collections.abc import Sequence

from asrch.domain.limits import SAMPLE_CLUSTERS_DEFAULT
from asrch.domain.modes import Mode
from asrch.domain.query import Query
from asrch.domain.text_safety import pastes

Step = tuple[str, ...]
NO_STEP: Step = ()


def carried(query: Query) -> list[str]:
    """The options of the current call that the next one must repeat."""
    options = [] if query.mode is Mode.FIXED else [f"--{query.mode.value}"]
    if query.ignore_case:
        options.append("-i")
    for name in query.filters.types:
        options += ["--type", name]
    for glob in query.filters.globs:
        options += [f"--glob={glob}"] if glob.startswith("-") else ["--glob", glob]
    return options


def joined(target: str, relative: str) -> str:
    """A row's path (relative to `target`) as a path from the working directory."""
    base = target.rstrip("/") or "/"
    if base == ".":
        return relative
    return base + relative if base == "/" else f"{base}/{relative}"


def step(command: str, options: Sequence[str], arguments: Sequence[str]) -> Step:
    """`asrch COMMAND OPTIONS… [--] ARGUMENTS…`, or no step when it cannot be pasted.

    `--` comes first when an argument starts with `-`, so it is never read as an option.
    A name holding a control character or a byte that is not UTF-8 cannot be pasted as
    one line: no step then. (How long a line may be is the answer's business:
    `render/next_step.py`.)
    """
    dashes = ["--"] if any(a.startswith("-") for a in arguments) else []
    words = ("asrch", command, *options, *dashes, *arguments)
    if not all(pastes(w) for w in words):
        return NO_STEP
    return words


def survey_step(
    queries: Sequence[Query],
    rows: Sequence[tuple[int, int, str | None]],
    pairs: Sequence[tuple[int, int, int, bool, str]] = (),
) -> Step:
    """`rows[t]`: term t's (matches, files, dominant path). `pairs`: each (term, path) of
    the answer as (term index, matches, files, capped, path as typed), in by_path's order:
    the most selective exact one wins (D36); only when none is exact, the rows' rule."""
    exact = [
        (matches, files, order, term, path)
        for order, (term, matches, files, capped, path) in enumerate(pairs)
        if matches and not capped
    ]
    if exact:
        _, _, _, term, path = min(exact)
        return step("scout", carried(queries[term]), [queries[term].term, path])
    candidates = [
        (matches, files, index)
        for index, (matches, files, dominant) in enumerate(rows)
        if matches and dominant is not None
    ]
    if not candidates:
        return NO_STEP
    _, _, index = min(candidates)
    query = queries[index]
    dominant = rows[index][2]
    assert dominant is not None
    return step("scout", carried(query), [query.term, dominant])


def scout_step(
    query: Query, target: str, top_file: str | None, *, directory: bool, line: int | None = None
) -> Step:
    """`top_file`: the file D35 picks (relative to `target`); `line`: its first listed
    match when the scout listed its lines (D32), then the step is `show --line` there."""
    if top_file is None:
        return NO_STEP
    file = joined(target, top_file) if directory else target
    if line is not None:
        return step("show", [*carried(query), "--line", str(line)], [query.term, file])
    return step("sample", carried(query), [query.term, file])


def sample_step(
    query: Query,
    file: str,
    *,
    clusters: int,
    pages: int,
    per_page: int,
    first_match: int | None,
) -> Step:
    """`first_match`: the first match of the page's first cluster (None: an empty page,
    past the last). The page's clusters are what the agent has just read, so the step is
    the closest look at them, not the next page: on the context benchmark
    (docs/context.md) paging first sent the scripted agent through every page of its
    top file (31 of 51 answers sources first, 29 with 20 calls); showing first, 35 and
    37."""
    if clusters == 0:
        return NO_STEP
    if first_match is None:
        sizing = [] if per_page == SAMPLE_CLUSTERS_DEFAULT else ["--clusters", str(per_page)]
        return step("sample", [*carried(query), *sizing, "--page", str(pages)], [query.term, file])
    return step("show", [*carried(query), "--line", str(first_match)], [query.term, file])


def show_step(query: Query, file: str, *, refused: bool) -> Step:
    return step("sample", carried(query), [query.term, file]) if refused else NO_STEP


# The positional arguments of each command a step may name, by their tool names.
_POSITIONALS = {"scout": ("query", "path"), "sample": ("query", "file"), "show": ("query", "file")}
_NUMBERS = frozenset({"--line", "--page", "--clusters", "--context"})
_LISTS = frozenset({"--type", "--glob"})
_MODES = frozenset({"--word", "--identifier", "--regex"})

Call = tuple[str, dict[str, object]]
"""A step as a tool call (D37): the tool and its arguments by their tool names."""


def call_of(step: Step) -> Call | None:
    """The step as an MCP call: `("sample", {"query": "x", "file": "a/b.py"})`; None for
    no step. Read back from the argument list the functions above build (and only
    those), positional arguments first, then options in the order given."""
    if not step:
        return None
    command, words = step[1], step[2:]
    options: dict[str, object] = {}
    lists: dict[str, list[str]] = {}
    positionals: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            positionals += words[index + 1 :]
            break
        if word in _MODES:
            options["mode"] = word[2:]
        elif word == "-i":
            options["ignore_case"] = True
        elif word.startswith("--glob="):
            lists.setdefault("glob", []).append(word.removeprefix("--glob="))
        elif word in _LISTS:
            index += 1
            lists.setdefault(word[2:], []).append(words[index])
        elif word in _NUMBERS:
            index += 1
            options[word[2:]] = int(words[index])
        else:
            positionals.append(word)
        index += 1
    arguments: dict[str, object] = dict(zip(_POSITIONALS[command], positionals, strict=True))
    return command, {**arguments, **options, **lists}
