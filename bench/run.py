"""asrch against bare ripgrep, in the same run: medians, ratios, peak RSS.

Whole processes are timed, interleaved (asrch, baseline, floors, asrch, …) so drift in
the machine's load hits all sides alike. asrch runs as the `asrch` console script, as an
agent calls it. Two floors, both "a Python process that only imports cyclopts and
pydantic", the cost of the stack itself:

- `floor`: `import cyclopts; from pydantic import BaseModel`. pydantic's top-level
  module is lazy (`import pydantic` loads almost nothing of it); getting `BaseModel`
  is the least a program that uses pydantic must import. Ratios and `ok` use it.
- `bare floor`: `import cyclopts, pydantic`, the words taken literally; its ratio is
  printed beside (`ratio*`), so no one has to take the first choice on trust.

A third floor, `cyclopts floor` (`import cyclopts` alone), is what the text path is held
to since it imports no pydantic: `startup` reports text `scout` on the 2-file tree minus
(that floor + rg), against a 30 ms budget. `--format json` rows repeat one search per
command with the JSON answer, against the same baselines and floors.

`--scenario large` runs the rows of issue 14 instead, on ≥ 320 MB of real source
(`trees.large()`, built once under .bench-cache/): scout against `rg --count` for the
same term, survey against the one-pass limit, `rg --count -e T1 … -e T12` over the same
paths. Their RSS is the peak of asrch and its rg children together (sampled from /proc,
never below the kernel's per-process peak).

    python -m bench.run [--scenario default|large] [--repeat N] [--json PATH] [--only TEXT]

`--only TEXT` (repeatable) keeps the rows whose name holds one of the TEXTs, e.g.
`--scenario large --only survey` for the survey rows alone.

Each row is printed beside the previous release's figure for it (`bench/release.json`,
`rel`), as `best`: the fastest asrch run over the fastest baseline run of the same run
(a faster or slower machine moves both sides; load only ever adds time, so minimums
move least). A guarded row (`g`) whose best is more than 20 % above the release's
fails loudly: a `REGRESSION` line per row on stderr and exit status 1 (issue 34: survey
lost 2.5x between two landings and no row said so). The figures are recorded by
running the same rows with the release's checkout:

    python -m bench.run --scenario large --only survey --asrch-src /tmp/asrch-0.1.0 \
        --record-release "0.1.0 (e856f80)"

(`--asrch-src DIR` runs `DIR/src`'s asrch with this interpreter; `--record-release
LABEL` writes the rows measured into bench/release.json under that label.)
"""

import argparse
import compileall
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import asrch
from asrch.domain.query import Query
from asrch.engine.argv import BASE_FLAGS, count_argv
from asrch.engine.binary import resolve_rg
from bench import trees

RG = resolve_rg()
PY = sys.executable
_SCRIPT = Path(PY).parent / "asrch"
ASRCH = [str(_SCRIPT)] if _SCRIPT.exists() else [PY, "-m", "asrch"]
RELEASE = Path(__file__).with_name("release.json")
"""The previous release's figure for each row, by row name (`--record-release`)."""
REGRESSION_MARGIN = 1.2
"""A guarded row fails when its raw ratio exceeds the release's by more than 20 %."""
FLOOR = [PY, "-c", "import cyclopts; from pydantic import BaseModel"]
BARE_FLOOR = [PY, "-c", "import cyclopts, pydantic"]
CYCLOPTS_FLOOR = [PY, "-c", "import cyclopts"]
DEF_TERM = "HTTPConnection"
"""A name an agent asks where it is defined: 297 matching lines in 60 files of the
installed lib, 70 of them on a definition's line (its classes, and functions that
take or return one), in 32 files; each matched file with a grammar is parsed."""
SURVEY_TERMS = (
    "import",
    "asyncio",
    "frozenset",
    "Tkinter",
    "socket",
    "decode",
    "lambda",
    "yield",
    "raise",
    "class",
    "pickle",
    "thread",
)


@dataclass
class Timing:
    seconds: float
    max_rss_kb: int
    cpu_seconds: float = 0.0
    """User + system CPU of the process and the children it reaped (asrch's rg runs):
    what the load on a shared machine disturbs least."""


def timed(argv: Sequence[str], cwd: Path | None = None) -> Timing:
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return Timing(elapsed, int(usage.ru_maxrss), usage.ru_utime + usage.ru_stime)


def _tree_rss_kb(pid: int) -> int:
    """What `pid` and all its descendants hold now, in KB (0 once they are gone): their
    private resident memory, the pages of each program they run (rg's code, the
    interpreter's) counted once however many of them run it, plus the memory files
    (memfd scratch) any of them holds open, each counted once: the scratch files live
    outside every process's RSS unless mapped, and mapped they would be counted twice.

    (Until issue 23's streamed judges, each process's file pages were added up: 13 rg
    processes counted rg's 5 MB of code 13 times, memory that exists once.)"""
    total = 0
    scratch: dict[int, int] = {}
    code: dict[str, int] = {}
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
            total += int(fields["RssAnon"].split()[0])
            program = os.readlink(f"/proc/{p}/exe")
            code[program] = max(code.get(program, 0), int(fields["RssFile"].split()[0]))
            for fd in os.listdir(f"/proc/{p}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{p}/fd/{fd}").startswith("/memfd:"):
                        held = os.stat(f"/proc/{p}/fd/{fd}")
                        scratch[held.st_ino] = held.st_blocks // 2
            with open(f"/proc/{p}/task/{p}/children") as children:
                todo.extend(int(c) for c in children.read().split())
        except (OSError, ValueError, KeyError):
            continue
    return total + sum(code.values()) + sum(scratch.values())


def timed_tree(argv: Sequence[str], cwd: Path | None = None) -> Timing:
    """`timed`, with max_rss_kb the peak of the whole process tree (asrch + its rg
    children at once, with their scratch files), sampled every 10 ms, and never below
    the kernel's peak of any one of them."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            peak[0] = max(peak[0], _tree_rss_kb(child.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    return Timing(elapsed, max(peak[0], int(usage.ru_maxrss)))


def timed_many(commands: Sequence[Sequence[str]], cwd: Path | None = None) -> Timing:
    """A baseline that is several processes in sequence (a loop of rg runs)."""
    parts = [timed(c, cwd) for c in commands]
    return Timing(
        sum(p.seconds for p in parts),
        max(p.max_rss_kb for p in parts),
        sum(p.cpu_seconds for p in parts),
    )


@dataclass
class Scenario:
    name: str
    asrch: list[str]
    baseline: list[list[str]]
    target: float
    cwd: Path | None = None
    subtract_floor: bool = True
    """False: asrch / (floor + baseline) instead of (asrch - floor) / baseline."""
    raw: bool = False
    """True: asrch / baseline, when the baseline is asrch too (a scout beside a survey)."""
    memory_of: float | None = None
    """MiB: the row judges peak memory against this many MiB instead of time (ratio =
    peak RSS / this; its target is a multiple)."""
    memory_target_mb: float | None = None
    """A bound on the row's peak memory (RSS + scratch), beside its time target."""
    guard: bool = False
    """Fail loudly when the raw ratio exceeds the previous release's by > 20 %."""


@dataclass
class Row:
    name: str
    asrch_ms: float
    baseline_ms: float
    floor_ms: float
    bare_floor_ms: float
    ratio: float
    bare_ratio: float
    target: float
    ok: bool
    asrch_rss_mb: float
    raw_ratio: float = 0.0
    """asrch / baseline, nothing subtracted."""
    baseline_rss_mb: float = 0.0
    best_raw_ratio: float = 0.0
    """min(asrch) / min(baseline): what the release guard compares (the load on a shared
    machine only ever adds time; minimums move least)."""
    release_raw_ratio: float | None = None
    """The previous release's `best_raw_ratio` on this row (bench/release.json)."""
    guard: bool = False
    regressed: bool = False
    """Guarded, and slower than the release's figure by more than 20 %."""


def rg_count(term: str, path: str) -> list[str]:
    """Plain `rg --count` (parallel, unsorted): the fastest rg a user would run.

    Without the debug log asrch reads binary files from: its cost is asrch's."""
    return count_argv(RG, Query(term=term), path, sort=False, log_binary=False)


def rg_count_all(terms: Sequence[str], paths: Sequence[str]) -> list[str]:
    """The one-pass limit of a survey: one parallel `rg --count` with every term as an
    `-e` pattern over the same paths, reading the data once."""
    return [
        RG,
        *BASE_FLAGS,
        "--count",
        "--with-filename",
        "--null",
        "--fixed-strings",
        *(f"--regexp={t}" for t in terms),
        "--",
        *paths,
    ]


def installed_scenarios() -> list[Scenario]:
    """The rows on the interpreter's lib folder as installed: no tree to build."""
    survey = [*ASRCH, "survey", *(f"--term={t}" for t in SURVEY_TERMS)]
    installed = str(trees.stdlib())
    return [
        Scenario(
            # Issue 34: the interpreter's whole lib folder as installed (site-packages and
            # __pycache__ included: 941 MB, 18,774 binary files here), where survey lost
            # 2.5x unseen: the text-only `large` tree has no binary file.
            "survey 12 x 1, installed lib vs one-pass rg -e x12",
            [*survey, installed],
            [rg_count_all(SURVEY_TERMS, [installed])],
            1.5,
            guard=True,
        ),
        # D52: "where is X defined" in one call, on the same 941 MB: the matched files'
        # lines read again and each matched file with a grammar parsed (issue 40).
        Scenario(
            f"scout --def {DEF_TERM}, installed lib vs scout (raw)",
            [*ASRCH, "scout", "--def", DEF_TERM, installed],
            [[*ASRCH, "scout", DEF_TERM, installed]],
            1.5,
            raw=True,
        ),
        Scenario(
            f"scout --def {DEF_TERM}, installed lib vs rg --count",
            [*ASRCH, "scout", "--def", DEF_TERM, installed],
            [rg_count(DEF_TERM, installed)],
            2.0,
        ),
    ]


def large_scenarios(only: Sequence[str] = ()) -> list[Scenario]:
    """Issue 14: the rows on ≥ 320 MB of real source text; the generated trees are built
    only when `only` (`--only`) keeps a row beyond the installed lib's."""
    installed = installed_scenarios()
    if only and all(any(t in s.name for s in installed) for t in only):
        return installed
    root = trees.large()
    big = str(root)
    overlapping = [big, str(root / "copy00"), str(root / "site")]
    same = str(trees.repetitive())
    long_line = str(trees.one_long_line())
    long_show = trees.long_line_file()
    survey = [*ASRCH, "survey", *(f"--term={t}" for t in SURVEY_TERMS)]
    return [
        *installed,
        Scenario(
            "scout rare term (Tkinter), large vs rg --count",
            [*ASRCH, "scout", "Tkinter", big],
            [rg_count("Tkinter", big)],
            1.1,
        ),
        Scenario(
            "scout past the cap (import), large vs rg --count",
            [*ASRCH, "scout", "import", big],
            [rg_count("import", big)],
            1.1,
        ),
        Scenario(
            "survey 12 x 1, large vs one-pass rg -e x12",
            [*survey, big],
            [rg_count_all(SURVEY_TERMS, [big])],
            1.5,
            guard=True,
        ),
        Scenario(
            "survey 12 x 3 nested, large vs one-pass rg -e x12",
            [*survey, *overlapping],
            [rg_count_all(SURVEY_TERMS, overlapping)],
            1.5,
        ),
        Scenario(
            "survey 12 x 1, 576 MB repetitive vs one-pass rg (RSS+scratch <= 120 MB)",
            [*survey, same],
            [rg_count_all(SURVEY_TERMS, [same])],
            1.5,
            memory_target_mb=120.0,
        ),
        Scenario(
            "survey 12 x 1, one 200 MB line vs scout (raw)",
            [*survey, long_line],
            [[*ASRCH, "scout", "import", long_line]],
            3.0,
            raw=True,
        ),
        Scenario(
            "show --line 2, a 300 MB line: peak RSS / line size",
            [*ASRCH, "show", "needle", str(long_show / "long.txt"), "--line", "2"],
            [[RG, *BASE_FLAGS, "--count", "--regexp=needle", "--", str(long_show / "long.txt")]],
            2.0,
            memory_of=300e6 / (1 << 20),  # the line, in the MiB the RSS column uses
        ),
    ]


def scenarios(work: Path) -> list[Scenario]:
    tiny = trees.tiny(work / "tiny")
    lib = str(trees.stdlib())
    gen = str(trees.generated())
    dense = trees.dense_file(work / "dense")
    survey_paths = [f"{lib}/email", f"{lib}/asyncio"]
    return [
        Scenario(
            "scout, 2-file tree vs floor + rg",
            [*ASRCH, "scout", "connect", str(tiny)],
            [rg_count("connect", str(tiny))],
            1.3,
            subtract_floor=False,
        ),
        Scenario(
            "scout rare term, stdlib vs rg --count",
            [*ASRCH, "scout", "frozenset", lib],
            [rg_count("frozenset", lib)],
            1.1,  # issue 23
        ),
        Scenario(
            "scout past the cap, 10k tree vs full rg --count",
            [*ASRCH, "scout", "needle", gen],
            [rg_count("needle", gen)],
            1.2,
        ),
        Scenario(
            # D30: asrch filters the files rg yields (rg --type would re-include hidden
            # files), so rg reads every file; the baseline's rg reads only the py files.
            "scout --type py --glob '!test', stdlib vs rg --count --type py",
            [*ASRCH, "scout", "--type", "py", "--glob", "!test", "frozenset", lib],
            [[*rg_count("frozenset", lib)[:-2], "--type=py", "--glob=!test", "--", lib]],
            3.0,
        ),
        Scenario(
            "survey 12 x 2, stdlib vs 24 rg --count",
            [*ASRCH, "survey", *(f"--term={t}" for t in SURVEY_TERMS), *survey_paths],
            [rg_count(t, p) for t in SURVEY_TERMS for p in survey_paths],
            1.0,
            guard=True,
        ),
        Scenario(
            "sample, 60k-match file vs rg --json",
            [*ASRCH, "sample", "dense", str(dense)],
            [[RG, *BASE_FLAGS, "--json", "--regexp=dense", "--", str(dense)]],
            1.5,
        ),
        Scenario(
            "show --line 59990, 60k-match file vs rg --json",
            [*ASRCH, "show", "dense", str(dense), "--line", "59990"],
            [[RG, *BASE_FLAGS, "--json", "--regexp=dense", "--", str(dense)]],
            1.5,
        ),
        Scenario(
            "show (refused), 60k-match file vs rg --json",
            [*ASRCH, "show", "dense", str(dense)],
            [[RG, *BASE_FLAGS, "--json", "--regexp=dense", "--", str(dense)]],
            1.5,
        ),
    ]


def json_scenarios(text: Sequence[Scenario]) -> list[Scenario]:
    """The first scenario of each command again, answered with `--format json`."""
    first: dict[str, Scenario] = {}
    for scenario in text:
        first.setdefault(scenario.asrch[len(ASRCH)], scenario)
    return [
        replace(
            s,
            name=f"{command} --format json, {s.name.partition(', ')[2] or s.name}",
            asrch=[*ASRCH, command, "--format", "json", *s.asrch[len(ASRCH) + 1 :]],
        )
        for command, s in first.items()
    ]


STARTUP_BUDGET_MS = 30.0
JSON_OVER_TEXT_MS = 20.0
"""D41: `--format json` imports no pydantic; it costs the stdlib json writer only."""
RARE_TARGET = 1.05
"""Issue 34, item 2: (text scout - start-up) of a rare term / `rg --count` of it."""
ABSENT = "zqxjv-absent"
"""A term in no file of the start-up tree."""


@dataclass
class Startup:
    """Text `scout` on the 2-file tree against `import cyclopts` + the same rg run."""

    text_ms: float
    json_ms: float
    rg_ms: float
    cyclopts_floor_ms: float
    text_over_ms: float
    """text − (cyclopts floor + rg): what asrch itself costs on the text path."""
    json_over_ms: float
    budget_ms: float
    ok: bool
    unlisted_ms: float = 0.0
    """Text `scout -i` of a term with no match, run in the tree (`.`): no D32 listing and
    no D43 probe (the search is not narrower than the working directory, already
    case-insensitive, fixed), so one rg run like the floor's. `connect` (2 lines) is
    listed, with a second rg run (the lines) and the scope parse (D31): answer work, not
    start-up."""
    unlisted_over_ms: float = 0.0
    unlisted_over_cpu_ms: float = 0.0
    """The same in CPU (user + sys, asrch with its rg child; the floor with the rg run)."""


def startup_scout(tree: str) -> tuple[list[str], Path]:
    """(argv, cwd): the text scout that lists nothing and runs one rg: start-up."""
    return [*ASRCH, "scout", "-i", ABSENT, "."], Path(tree)


def measure_startup(work: Path, repeat: int) -> Startup:
    tiny = str(trees.tiny(work / "tiny-startup"))
    text = [*ASRCH, "scout", "connect", tiny]
    as_json = [*ASRCH, "scout", "--format", "json", "connect", tiny]
    unlisted, cwd = startup_scout(tiny)
    rg = rg_count("connect", tiny)
    runs: dict[str, list[Timing]] = {"text": [], "json": [], "rg": [], "floor": [], "unlisted": []}
    for _ in range(repeat):
        for key, argv, where in (
            ("text", text, None),
            ("rg", rg, None),
            ("floor", CYCLOPTS_FLOOR, None),
            ("json", as_json, None),
            ("unlisted", unlisted, cwd),
        ):
            runs[key].append(timed(argv, where))
    m = {key: statistics.median(t.seconds for t in times) for key, times in runs.items()}
    c = {key: statistics.median(t.cpu_seconds for t in times) for key, times in runs.items()}
    over = m["text"] - m["floor"] - m["rg"]
    unlisted_over = m["unlisted"] - m["floor"] - m["rg"]
    return Startup(
        m["text"] * 1e3,
        m["json"] * 1e3,
        m["rg"] * 1e3,
        m["floor"] * 1e3,
        over * 1e3,
        (m["json"] - m["floor"] - m["rg"]) * 1e3,
        STARTUP_BUDGET_MS,
        unlisted_over * 1e3 <= STARTUP_BUDGET_MS,
        m["unlisted"] * 1e3,
        unlisted_over * 1e3,
        (c["unlisted"] - c["floor"] - c["rg"]) * 1e3,
    )


def startup_table(s: Startup, release: dict[str, float] | None = None) -> str:
    rel = release or {}
    beside = f" (rel {rel['unlisted_over_ms']:.1f} ms)" if "unlisted_over_ms" in rel else ""
    cpu_beside = (
        f" (rel {rel['unlisted_over_cpu_ms']:.1f} ms)" if "unlisted_over_cpu_ms" in rel else ""
    )
    return "\n".join(
        [
            f"startup, scout on 2 files: text {s.text_ms:.1f} ms, json {s.json_ms:.1f} ms, "
            f"rg {s.rg_ms:.1f} ms, cyclopts floor {s.cyclopts_floor_ms:.1f} ms",
            f"  start-up: text, no match (nothing listed, one rg) - (cyclopts floor + rg) = "
            f"{s.unlisted_over_ms:.1f} ms{beside} (budget <= {s.budget_ms:.0f} ms: "
            f"{'yes' if s.ok else 'NO'}); in CPU {s.unlisted_over_cpu_ms:.1f} ms{cpu_beside}",
            f"  text, 2 lines listed (D32: a second rg, the scope parse) - (floor + rg) = "
            f"{s.text_over_ms:.1f} ms; json - (floor + rg) = {s.json_over_ms:.1f} ms",
            f"  json - text = {s.json_ms - s.text_ms:.1f} ms (goal <= {JSON_OVER_TEXT_MS:.0f} ms: "
            f"{'yes' if s.json_ms - s.text_ms <= JSON_OVER_TEXT_MS else 'NO'})",
        ]
    )


@dataclass
class Rare:
    """Issue 34's CLI figure: (text scout of a rare term − start-up) / `rg --count`,
    taken round by round (start-up scout, rare scout, rg, in turn), so each ratio's
    three runs met the same load. A ratio of medians or of minimums drawn from separate
    rounds is not this figure: rg's wall time swings most (its threads need the second
    core), and its fastest run under load is a moment no asrch run met (1.35 "of the
    fastest runs" where the rounds said 1.01, issue 34)."""

    wall: float
    """Median of the per-round wall ratios."""
    wall_low: float
    wall_high: float
    """The interquartile range of the per-round wall ratios."""
    cpu: float
    """Median of the per-round CPU ratios (user + sys, asrch with its rg)."""
    scout_ms: float
    startup_ms: float
    rg_ms: float
    target: float
    ok: bool


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 4], statistics.median(ordered), ordered[(3 * n) // 4]


def measure_rare(work: Path, repeat: int, term: str = "frozenset") -> Rare:
    lib = str(trees.stdlib())
    start, cwd = startup_scout(str(trees.tiny(work / "tiny-rare")))
    scout = [*ASRCH, "scout", term, lib]
    rg = rg_count(term, lib)
    rounds = []
    for _ in range(repeat):
        rounds.append((timed(start, cwd), timed(scout), timed(rg)))
    wall = [(s.seconds - st.seconds) / g.seconds for st, s, g in rounds]
    cpu = [(s.cpu_seconds - st.cpu_seconds) / g.cpu_seconds for st, s, g in rounds]
    low, mid, high = quartiles(wall)
    return Rare(
        mid,
        low,
        high,
        statistics.median(cpu),
        statistics.median(s.seconds for _, s, _ in rounds) * 1e3,
        statistics.median(st.seconds for st, _, _ in rounds) * 1e3,
        statistics.median(g.seconds for _, _, g in rounds) * 1e3,
        RARE_TARGET,
        mid <= RARE_TARGET,
    )


def rare_table(r: Rare, release: dict[str, float] | None = None) -> str:
    rel = release or {}
    beside = f" (rel {rel['wall']:.2f})" if "wall" in rel else ""
    return (
        f"rare term, stdlib: (scout - start-up) / rg --count per round: wall {r.wall:.2f} "
        f"({r.wall_low:.2f}-{r.wall_high:.2f}){beside}, CPU {r.cpu:.2f} "
        f"(goal <= {r.target:.2f}: {'yes' if r.ok else 'NO'}); medians: scout "
        f"{r.scout_ms:.1f}, start-up {r.startup_ms:.1f}, rg {r.rg_ms:.1f} ms"
    )


def measure(scenario: Scenario, repeat: int, *, tree_rss: bool = False) -> Row:
    a, b, f, g = [], [], [], []
    run = timed_tree if tree_rss else timed
    for _ in range(repeat):
        a.append(run(scenario.asrch, scenario.cwd))
        b.append(timed_many(scenario.baseline, scenario.cwd))
        f.append(timed(FLOOR))
        g.append(timed(BARE_FLOOR))
    am, bm, fm, gm = (statistics.median(t.seconds for t in ts) for ts in (a, b, f, g))

    rss = max(t.max_rss_kb for t in a) / 1024

    def ratio(floor: float) -> float:
        if scenario.memory_of is not None:
            return rss / scenario.memory_of
        if scenario.raw:
            return am / bm
        return am / (floor + bm) if not scenario.subtract_floor else (am - floor) / bm

    ok = ratio(fm) <= scenario.target
    if scenario.memory_target_mb is not None:
        ok = ok and rss <= scenario.memory_target_mb
    return Row(
        scenario.name,
        am * 1e3,
        bm * 1e3,
        fm * 1e3,
        gm * 1e3,
        ratio(fm),
        ratio(gm),
        scenario.target,
        ok,
        rss,
        am / bm,
        max(t.max_rss_kb for t in b) / 1024,
        best_raw_ratio=min(t.seconds for t in a) / min(t.seconds for t in b),
        guard=scenario.guard,
    )


def release_figures(path: Path = RELEASE) -> tuple[str, dict[str, dict[str, float]]]:
    """(the release's label, its figures by row name); nothing recorded: ("", {})."""
    if not path.exists():
        return "", {}
    data = json.loads(path.read_text())
    return str(data["release"]), dict(data["rows"])


def beside_release(rows: list[Row], figures: dict[str, dict[str, float]]) -> list[Row]:
    """Each row with the release's best raw ratio for it; a guarded row more than 20 %
    slower than it (min asrch / min baseline against the release's) is marked regressed."""
    out = []
    for r in rows:
        figure = figures.get(r.name)
        if figure is None:
            out.append(r)
            continue
        rel = float(figure["best_ratio"])
        out.append(
            replace(
                r,
                release_raw_ratio=rel,
                regressed=r.guard and r.best_raw_ratio > REGRESSION_MARGIN * rel,
            )
        )
    return out


def release_blocks(path: Path = RELEASE) -> dict[str, dict[str, float]]:
    """The release's figures outside the tables (`startup`, `rare`), by block name."""
    if not path.exists():
        return {}
    return dict(json.loads(path.read_text()).get("blocks", {}))


def record_release(
    rows: list[Row],
    label: str,
    path: Path = RELEASE,
    blocks: dict[str, dict[str, float]] | None = None,
) -> None:
    """Write the rows' figures (and `blocks`') as the previous release's (kept: other
    rows and blocks already there under the same label)."""
    recorded, figures = release_figures(path)
    kept = release_blocks(path)
    if label != recorded:
        figures, kept = {}, {}
    for r in rows:
        figures[r.name] = {
            "best_ratio": round(r.best_raw_ratio, 3),
            "asrch_ms": round(r.asrch_ms, 1),
            "baseline_ms": round(r.baseline_ms, 1),
        }
    for name, block in (blocks or {}).items():
        kept[name] = {key: round(value, 3) for key, value in block.items()}
    data: dict[str, object] = {"release": label, "rows": figures}
    if kept:
        data["blocks"] = kept
    path.write_text(json.dumps(data, indent=2) + "\n")


def release_lines(rows: list[Row], label: str) -> list[str]:
    """What the table says of the release's figures: which it is, and each regression."""
    if not label:
        return ["release: no figures recorded (bench/release.json)"]
    lines = [
        f"rel: min asrch / min base of release {label} on the same row "
        f"(bench/release.json); guard (g): a row whose best > {REGRESSION_MARGIN:.1f}x rel fails"
    ]
    lines += [
        f"REGRESSION: {r.name}: min asrch / min base {r.best_raw_ratio:.2f} > "
        f"{REGRESSION_MARGIN:.1f} x "
        f"{r.release_raw_ratio:.2f} (release {label})"
        for r in rows
        if r.regressed
    ]
    return lines


def _rel(r: Row) -> str:
    """best (this run's min asrch / min base) and rel (the release's), marked."""
    mark = "!" if r.regressed else ("g" if r.guard else " ")
    rel = "-" if r.release_raw_ratio is None else f"{r.release_raw_ratio:.2f}"
    return f"{r.best_raw_ratio:6.2f} {rel:>6}{mark}"


def table(rows: list[Row]) -> str:
    head = (
        f"{'scenario':52} {'asrch':>7} {'base':>7} {'floor':>7} {'bare':>7} {'ratio':>6} "
        f"{'target':>6}  ok  {'ratio*':>6} {'RSS MB':>6} {'raw':>6} {'best':>6} {'rel':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.name:52} {r.asrch_ms:7.1f} {r.baseline_ms:7.1f} {r.floor_ms:7.1f} "
            f"{r.bare_floor_ms:7.1f} {r.ratio:6.2f} {r.target:6.2f}  "
            f"{'yes' if r.ok else 'NO ':3} {r.bare_ratio:6.2f} {r.asrch_rss_mb:6.1f} "
            f"{r.raw_ratio:6.2f} {_rel(r)}"
        )
    lines.append(
        "times: medians in ms; ratio: against floor; ratio*: against the bare floor; "
        "raw: asrch / base; best: min asrch / min base; rel: the release's best"
    )
    if not rows:
        return "\n".join([*lines, "no scenario chosen (--only)"])
    peak = max(r.asrch_rss_mb for r in rows)
    lines.append(
        f"peak RSS of any asrch process: {peak:.1f} MB (target <= 120 MB: "
        f"{'yes' if peak <= 120 else 'NO'})"
    )
    return "\n".join(lines)


def large_table(rows: list[Row]) -> str:
    head = (
        f"{'scenario':52} {'asrch':>7} {'base':>7} {'floor':>7} {'ratio':>6} {'raw':>6} "
        f"{'target':>6}  ok  {'RSS MB':>6} {'rg MB':>6} {'best':>6} {'rel':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.name:52} {r.asrch_ms:7.1f} {r.baseline_ms:7.1f} {r.floor_ms:7.1f} "
            f"{r.ratio:6.2f} {r.raw_ratio:6.2f} {r.target:6.2f}  "
            f"{'yes' if r.ok else 'NO ':3} {r.asrch_rss_mb:6.1f} {r.baseline_rss_mb:6.1f} "
            f"{_rel(r)}"
        )
    lines.append(
        "times: medians in ms; ratio: (asrch - floor) / base; raw: asrch / base; "
        "RSS: asrch + its rg children at peak; rg MB: the baseline's; "
        "best: min asrch / min base; rel: the release's best (g: guarded, !: regressed)"
    )
    if not rows:
        return "\n".join([*lines, "no scenario chosen (--only)"])
    peak = max(r.asrch_rss_mb for r in rows)
    lines.append(
        f"peak RSS of asrch with its rg children: {peak:.1f} MB (target <= 120 MB: "
        f"{'yes' if peak <= 120 else 'NO'})"
    )
    return "\n".join(lines)


def chosen(rows: list[Scenario], only: Sequence[str]) -> list[Scenario]:
    """The rows `--only` keeps (all without it)."""
    return [s for s in rows if not only or any(t in s.name for t in only)]


def run_default(args: argparse.Namespace, judged: Callable[[list[Row]], list[Row]]) -> list[Row]:
    """The default scenario: its rows, then the start-up and rare-term blocks (unless
    `--only` leaves them out), each beside the release's figure; results written."""
    args.json = args.json or Path("bench/results/latest.json")
    blocks = release_blocks()
    extra = not args.only or any(t in "startup, rare term" for t in args.only)
    with tempfile.TemporaryDirectory(prefix="asrch-bench-") as tmp:
        text = scenarios(Path(tmp))
        rows = judged(
            [measure(s, args.repeat) for s in chosen([*text, *json_scenarios(text)], args.only)]
        )
        startup = measure_startup(Path(tmp), args.repeat) if extra else None
        rare = measure_rare(Path(tmp), args.repeat) if extra else None
    print(table(rows))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")
    if startup is not None and rare is not None:
        print(startup_table(startup, blocks.get("startup")))
        print(rare_table(rare, blocks.get("rare")))
        if args.record_release:
            record_release(
                [],
                args.record_release,
                blocks={
                    "startup": {
                        "unlisted_over_ms": startup.unlisted_over_ms,
                        "unlisted_over_cpu_ms": startup.unlisted_over_cpu_ms,
                    },
                    "rare": {"wall": rare.wall, "cpu": rare.cpu},
                },
            )
        startup_json = args.json.with_name("startup.json")
        startup_json.write_text(
            json.dumps({"startup": asdict(startup), "rare": asdict(rare)}, indent=2) + "\n"
        )
        print(f"written: {args.json}, {startup_json}")
    else:
        print(f"written: {args.json}")
    return rows


def with_bytecode(checkout: Path | None) -> str:
    """Write the bytecode of the asrch measured (`checkout`'s, else the one installed),
    as installing a wheel does, and say where. An editable install under
    `PYTHONDONTWRITEBYTECODE=1` (or a read-only checkout) has none: every run would
    compile asrch's ~20,000 lines again, +50 ms to each start-up here, measuring the
    compiler rather than asrch (docs/performance.md, *Start-up*)."""
    if checkout is not None:
        package = checkout.resolve() / "src" / "asrch"
    else:
        package = Path(asrch.__file__).parent
    fresh = compileall.compile_dir(package, quiet=1)
    return f"bytecode: {package} ({'up to date' if fresh else 'NOT written: runs compile'})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", "11")))
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--scenario", choices=("default", "large"), default="default")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT")
    parser.add_argument("--asrch-src", type=Path, default=None, metavar="DIR")
    parser.add_argument("--record-release", default=None, metavar="LABEL")
    args = parser.parse_args()
    if args.asrch_src is not None:
        # Another checkout's asrch (a release's), run with this interpreter.
        ASRCH[:] = [PY, "-m", "asrch"]
        os.environ["PYTHONPATH"] = str(args.asrch_src.resolve() / "src")
    print(with_bytecode(args.asrch_src))
    label, figures = release_figures()
    failed = False

    def judged(rows: list[Row]) -> list[Row]:
        nonlocal failed
        if args.record_release:
            record_release(rows, args.record_release)
            return rows
        rows = beside_release(rows, figures)
        failed = failed or any(r.regressed for r in rows)
        return rows

    def verdict() -> None:
        for line in release_lines(rows, label):
            print(line, file=sys.stderr if line.startswith("REGRESSION") else sys.stdout)
        if failed:
            sys.exit(1)

    if args.scenario == "large":
        out = args.json or Path("bench/results/large.json")
        rows = judged(
            [
                measure(s, args.repeat, tree_rss=True)
                for s in chosen(large_scenarios(args.only), args.only)
            ]
        )
        print(large_table(rows))
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")
        print(f"written: {out}")
        verdict()
        return
    rows = run_default(args, judged)
    verdict()


if __name__ == "__main__":
    main()
