"""The two scripted policies. Deterministic: the same tree gives the same calls.

Both run from the tree's root with relative paths, as an agent in a checkout does, and
both read stdout and stderr: the bytes read are every byte the tool printed (for asrch,
its text answer, the one an agent reads; never `--format json`).
"""

import heapq
import itertools
import os
import posixpath
import re
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.context.answers import Location
from bench.context.reading import (
    Answer,
    Shown,
    cap_chars,
    cap_lines,
    code_bytes,
    count,
    is_zero,
    read_answer,
    rg_shown,
    zero_pointer,
)

ASRCH_BUDGET = 10
"""Calls the asrch policy may make per task (the survey included)."""
SHOW_LIMIT = 20
"""`show` without `--line` prints at most 20 matches (the seed); past that it refuses."""
RG_CHAR_CAP = 30_000
RG_MATCH_CAP = 100


@dataclass(frozen=True, slots=True)
class Call:
    argv: tuple[str, ...]
    """As typed, after the program name (`asrch` or `rg`)."""
    status: int
    bytes_read: int
    shows_answer: bool
    code_bytes: int = 0
    """The bytes of file lines in what was read (`reading.code_bytes`)."""
    zero: bool = False
    """The answer had no match (`reading.is_zero`)."""


@dataclass
class Attempt:
    policy: str
    found: bool = False
    calls: list[Call] = field(default_factory=list)
    hit: Shown | None = None
    """The first line of the answer the finding call showed (path as printed, line)."""

    @property
    def bytes_read(self) -> int:
        return sum(c.bytes_read for c in self.calls)


def _run(argv: Sequence[str], cwd: Path) -> tuple[int, bytes]:
    env = {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}
    done = subprocess.run(list(argv), cwd=cwd, capture_output=True, env=env, check=False)
    return done.returncode, done.stdout + done.stderr


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _bytes(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _hits(location: Location, shown: list[Shown]) -> bool:
    """`./a/b.py` and `a//b.py` are `a/b.py` (a `next:` line may join paths so)."""
    return _hit(location, shown) is not None


def _hit(location: Location, shown: list[Shown]) -> Shown | None:
    """The first shown line inside the answer, its path normalized."""
    for path, line in shown:
        if location.holds(posixpath.normpath(path), line):
            return posixpath.normpath(path), line
    return None


# --- rg -n -------------------------------------------------------------------------


def rg_argv(term: str) -> tuple[str, ...]:
    """`rg -n TERM`, fixed-string like asrch's default mode (the candidates are meant as
    strings); sorted by path so the capped readings are deterministic (rg's own order
    varies from run to run; the bytes uncapped do not)."""
    return ("-n", "--sort", "path", "-F", "-e", term)


CAPS: dict[str, tuple[str, int] | None] = {
    "rg": None,
    "rg 30k chars": ("chars", RG_CHAR_CAP),
    "rg 100 matches": ("lines", RG_MATCH_CAP),
}


def rg_attempts(
    rg: str, candidates: Sequence[str], location: Location, tree: Path
) -> dict[str, Attempt]:
    """`rg -n TERM` for each candidate in turn until one output shows an answer line,
    once per reading (uncapped and the two caps); each rg run is made once and read
    three ways."""
    attempts = {name: Attempt(name) for name in CAPS}
    for term in candidates:
        pending = [a for a in attempts.values() if not a.found]
        if not pending:
            break
        argv = rg_argv(term)
        status, raw = _run([rg, *argv], tree)
        text = _text(raw)
        for attempt in pending:
            cap = CAPS[attempt.policy]
            seen = (
                text
                if cap is None
                else cap_chars(text, cap[1])
                if cap[0] == "chars"
                else cap_lines(text, cap[1])
            )
            attempt.hit = _hit(location, rg_shown(seen))
            hit = attempt.hit is not None
            code = code_bytes(seen, rg=True)
            attempt.calls.append(
                Call(argv, status, _bytes(seen), hit, code, is_zero(seen, rg=True))
            )
            attempt.found = hit
    return attempts


# --- asrch -------------------------------------------------------------------------


@dataclass(order=True, frozen=True, slots=True)
class Step:
    """A call the policy may make; the queue runs the lowest key first."""

    effort: int
    """How far from the first choice: the k-th top file of a scout costs k (0-based),
    page p of a sample p - 1 more, a directory scout 5 + its rank (after every top
    file)."""
    term_rank: int
    """The term's rank by selectivity in the survey (0: fewest matching lines)."""
    order: int
    """Ties: the step queued last runs first, so an answer's own next step comes next."""
    argv: tuple[str, ...] = field(compare=False)


VALUE_OPTIONS = frozenset(
    {"--page", "--clusters", "--line", "--context", "--format", "--type", "--glob", "--term"}
)
"""Options that take a value (`--def` and `--scope` take none)."""


def positionals(argv: Sequence[str]) -> list[str]:
    """The command, then its positional arguments (options and their values left out)."""
    out: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token == "--":
            out.extend(tokens)
        elif token in VALUE_OPTIONS:
            next(tokens, None)
        elif not token.startswith("-") or token == "-":
            out.append(token)
    return out


def _key(argv: tuple[str, ...]) -> tuple[str, ...]:
    """One search however its paths are spelled (`./a.py`, `a.py`): a `next:` line may
    join paths differently from the rows this policy reads."""
    return tuple(posixpath.normpath(w) if "/" in w else w for w in argv)


def _term(term: str) -> tuple[str, ...]:
    return ("--", term) if term.startswith("-") else (term,)


def _join(base: str, relative: str) -> str:
    return relative if base == "." else f"{base.rstrip('/')}/{relative}"


Offer = tuple[int, int, tuple[str, ...]]
Runner = Callable[[tuple[str, ...]], tuple[int, bytes]]


class AsrchPolicy:
    """survey → scout → sample → show, cheapest step first.

    After each answer: its `next:` line (D28), when it has one, is the next call. The
    steps its rows offer are queued too, and where an answer has no `next:` line the
    first of them is the next call:
    - survey: scout each term that matched, most selective first, in the surveyed path;
    - scout: sample each top file in rank order; then scout each top directory;
    - sample: `show` the file when it has at most 20 matches and the page did not print
      them all (the protocol's show), else the next page when there is one.
    A call that shows a line inside the answer's range ends the task; so does the
    budget.
    """

    def __init__(
        self,
        asrch: Sequence[str],
        budget: int = ASRCH_BUDGET,
        *,
        name: str = "asrch",
        sources_first: bool = False,
        skips_rereading: bool = False,
        follows_zero_notes: bool = False,
        round5: bool = False,
    ) -> None:
        self.round5 = round5
        """Issue 40's tools as an agent would use them: a survey's `path:LINE` places
        (D56) shown with `show FILE --line N --scope` (D51) before any scout, and for a
        question about a definition or a constant, `scout --def` of each term (D52)
        before its plain scout."""
        self.follows_zero_notes = follows_zero_notes
        """D43: scout a term the survey found nowhere, and follow its zero note to the
        file it names (`sample` there, with `-i` when the note says so)."""
        self.asrch = tuple(asrch)
        self.budget = budget
        self.name = name
        self.sources_first = sources_first
        """Sample a scout's non-test files before its test files, as an agent that reads
        the file names does (`is_test_path`)."""
        self.skips_rereading = skips_rereading
        """Make no call that would print only lines already read: `show --line N` at a
        line already shown, `sample`/`show` of a file whose every match a scout listed."""

    def attempt(
        self,
        candidates: Sequence[str],
        location: Location,
        tree: Path,
        run: Runner | None = None,
        kind: str | None = None,
    ) -> Attempt:
        """`run` (argv after `asrch` -> exit status, printed bytes) defaults to running
        the asrch command in the tree; the benchmark never replaces it. `kind`: the
        task's kind, as the question tells an agent (`round5` reads it)."""
        call = run or (lambda argv: _run([*self.asrch, *argv], tree))
        attempt = Attempt(self.name)
        order = itertools.count(0, -1)
        queue: list[Step] = []
        done: set[tuple[str, ...]] = set()
        read: set[Shown] = set()
        survey = ("survey", *(f"--term={t}" for t in candidates), ".")
        heapq.heappush(queue, Step(0, 0, next(order), survey))
        while queue and len(attempt.calls) < self.budget:
            step = heapq.heappop(queue)
            if _key(step.argv) in done:
                continue
            done.add(_key(step.argv))
            if self.skips_rereading and _rereads(step.argv, read):
                continue
            status, raw = call(step.argv)
            text = _text(raw)
            words = positionals(step.argv)
            # sample and show name their FILE last (`show --line N --scope FILE`: no QUERY).
            answer = read_answer(text, words[-1] if words[0] in ("sample", "show") else None)
            # A scout's listing (D32, D44: a path, then its `N:` lines) is shown lines:
            # a small answer is the lines, with no table and no next step to follow.
            shown = answer.shown + answer.listed
            read.update((posixpath.normpath(p), n) for p, n in shown)
            if self.skips_rereading and answer.listed:
                done.update(_listed_reads(step.argv, answer))
            attempt.hit = _hit(location, shown)
            hit = attempt.hit is not None
            call_made = Call(step.argv, status, _bytes(text), hit, code_bytes(text), is_zero(text))
            attempt.calls.append(call_made)
            if hit:
                attempt.found = True
                break
            # Pushed in reverse, so the preferred offer runs first among equals, and the
            # next: line (pushed last) before all of them.
            found = offers(step, answer, sources_first=self.sources_first)
            if self.round5:
                found = round5_offers(step, answer, kind) + found
            for effort, rank, argv in reversed(found):
                heapq.heappush(queue, Step(effort, rank, next(order), argv))
            if answer.next_argv:
                argv = tuple(answer.next_argv)
                heapq.heappush(queue, Step(step.effort, step.term_rank, next(order), argv))
            if self.follows_zero_notes:
                for argv in _zero_steps(step.argv, answer, text):
                    heapq.heappush(queue, Step(step.effort, step.term_rank, next(order), argv))
        return attempt


def _zero_steps(argv: tuple[str, ...], answer: Answer, text: str) -> list[tuple[str, ...]]:
    """D43 as an agent reads it: a survey where no term matched, scout the first term
    (its zero note says where it is); a zero answer whose note names a file, sample the
    term there with the note's options."""
    words = positionals(argv)
    if words[0] == "survey":
        rows = answer.tables.get("overall", answer.tables.get("terms", []))
        if rows and all(count(r[1]) == 0 for r in rows):
            return [("scout", *_term(rows[0][0]), ".")]
        return []
    pointer = zero_pointer(text) if words[0] == "scout" else None
    if pointer is None:
        return []
    file, flags = pointer
    return [("sample", *flags, *_term(words[1]), file)]


TEST_FOLDERS = frozenset({"test", "tests", "testing", "__tests__", "spec"})


def is_test_path(path: str) -> bool:
    """What an agent takes for a test by its path: under a `test`/`tests`/`testing`/
    `__tests__`/`spec`/`*_test` folder, or named `test_*`, `*_test.*`, `*.test.*`,
    `*.spec.*`."""
    *folders, name = path.split("/")
    stem = name.rsplit(".", 1)[0]
    return any(f in TEST_FOLDERS or f.endswith("_test") for f in folders) or (
        name.startswith("test_") or stem.endswith("_test") or ".test." in name or ".spec." in name
    )


def _rereads(argv: tuple[str, ...], read: set[Shown]) -> bool:
    """`show --line N … FILE` at a line already shown: the agent has read it."""
    if argv[:2] != ("show", "--line"):
        return False
    return (posixpath.normpath(positionals(argv)[-1]), int(argv[2])) in read


def _listed_reads(argv: tuple[str, ...], answer: Answer) -> set[tuple[str, ...]]:
    """A scout that listed its lines listed every match of each listed file: sampling or
    showing one of them for the same term would print those lines again."""
    term = positionals(argv)[1]
    files = {posixpath.normpath(p) for p, _ in answer.listed}
    return {_key((verb, *_term(term), f)) for f in files for verb in ("sample", "show")}


def offers(step: Step, answer: Answer, *, sources_first: bool = False) -> list[Offer]:
    """The steps an answer's rows offer, in the order this policy prefers them."""
    words = positionals(step.argv)
    command = words[0]
    steps: list[Offer] = []
    if command == "survey":
        path = words[-1] if len(words) > 1 else "."
        # 1 path: one table, `terms` (D42).
        overall = answer.tables.get("overall", answer.tables.get("terms", []))
        rows = sorted((count(r[1]), i, r[0]) for i, r in enumerate(overall))
        ranked = [term for matches, _, term in rows if matches > 0]
        steps += [(0, rank, ("scout", *_term(t), path)) for rank, t in enumerate(ranked)]
    elif command == "scout":
        term, path = words[1], words[2] if len(words) > 2 else "."
        files = answer.tables.get("top_files", [])
        if sources_first:
            files = sorted(files, key=lambda row: is_test_path(row[0]))  # stable: rank kept
        for k, row in enumerate(files):
            argv = ("sample", *_term(term), _join(path, row[0]))
            steps.append((step.effort + k, step.term_rank, argv))
        for k, row in enumerate(answer.tables.get("top_directories", [])):
            if row[0] not in (".", ""):
                argv = ("scout", *_term(term), _join(path, row[0]))
                steps.append((step.effort + 5 + k, step.term_rank, argv))
    elif command == "sample" and "matches" in answer.fields:
        term, file = words[1], words[2]
        # 1 page: no `page:` field (D42).
        page, pages = (int(n) for n in answer.fields.get("page", "1/1").split("/"))
        matches = count(answer.fields.get("matches", "0"))
        if 0 < matches <= SHOW_LIMIT and len(set(answer.matched)) < matches:
            steps.append((step.effort, step.term_rank, ("show", *_term(term), file)))
        elif page < pages:
            argv = ("sample", "--page", str(page + 1), *_term(term), file)
            steps.append((step.effort + 1, step.term_rank, argv))
    return steps


DEF_KINDS = frozenset({"definition", "constant"})
"""Questions an agent answers with `scout --def` first (where is X defined, its value)."""
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A term that can be (part of) a name: `--def` of `long word` or `%(` is a zero answer
an agent would not ask for (the first run asked, 9 zero answers)."""


def places(cell: str) -> list[tuple[str, int]]:
    """D56: a survey cell that places a rare term (`a.py:3 b.py:5`), else none."""
    found = []
    for word in shlex.split(cell) if cell not in ("", "-") else []:
        path, sep, line = word.rpartition(":")
        if not sep or not line.isdigit():
            return []
        found.append((path, int(line)))
    return found


def round5_offers(step: Step, answer: Answer, kind: str | None) -> list[Offer]:
    """Issue 40's steps, before the rows' own: after a survey, each placed line of a rare
    term shown with its unit (D56, D51), and for a definition or constant question
    `scout --def` of each term that matched, most selective first (D52)."""
    words = positionals(step.argv)
    if words[0] != "survey":
        return []
    path = words[-1] if len(words) > 1 else "."
    overall = answer.tables.get("overall", answer.tables.get("terms", []))
    rows = sorted((count(r[1]), i, r) for i, r in enumerate(overall))
    steps: list[Offer] = []
    for rank, (matches, _, row) in enumerate(rows):
        if matches <= 0:
            continue
        for file, line in places(row[3] if len(row) > 3 else ""):
            argv = ("show", "--line", str(line), "--scope", _join(path, file))
            steps.append((0, rank, argv))
    if kind in DEF_KINDS:
        steps += [
            (0, rank, ("scout", "--def", *_term(row[0]), path))
            for rank, (matches, _, row) in enumerate(rows)
            if matches > 0 and NAME.fullmatch(row[0])
        ]
    return steps
