"""The index (D58) against bare ripgrep, in the same run: what `asrch index` costs, and
what a search under an indexed tree costs beside `rg --count` and beside the same
search without the index.

    python -m bench.index [--repeat N] [--tree installed|large|heavy|all]
        [--release-src DIR] [--cache DIR]

`installed` is the interpreter's lib folder as installed (bench.trees.stdlib(), ~941 MB,
~32k files); `large` the generated tree of bench.run's large scenario; `heavy` 2 GB of
source text in 2,000 files (bench.trees.heavy(): a scan of it is reading, not walking).
The index is written to a cache directory of the bench's own (XDG_CACHE_HOME), never
the user's. Rows, each a median of N interleaved runs (asrch with the index, rg, asrch
without, and with `--release-src DIR` the release checked out there, 0.1.0: a scan):

- build: `asrch index` from nothing (wall, peak RSS of asrch and its rg together,
  the index file's size), then again with nothing changed (the freshness cost alone);
- scout of a rare term and of a common one, survey 12 x 1 (bench.run's terms) against
  one `rg --count -e ...` pass; the CLI's rare scout split into where its time goes
  (start-up, freshness check, lookup, verification, measured in process);
- a warm `asrch mcp` answering the rare scout, beside `rg --count`: with nothing
  changed between calls, and (on the trees the bench wrote) with one file written
  before each call (the server's walk brought up to date from inotify);
- a warm `asrch mcp` answering survey 12 x 1 with the index and without it, beside
  the one rg pass.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from asrch.domain.query import Query
from bench import trees
from bench.run import ASRCH, PY, SURVEY_TERMS, rg_count, rg_count_all, timed, timed_tree

RARE = "ZoneInfoNotFoundError"
COMMON = "import"
RELEASE: list[str] = []
"""The release's asrch (`--release-src`): this interpreter, PYTHONPATH its src/."""


def _median(values: Sequence[float]) -> float:
    return statistics.median(values)


def _env(cache: str | None) -> None:
    if cache is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = cache


def _size(cache: Path) -> int:
    return sum(p.stat().st_size for p in (cache / "asrch").iterdir())


def build_rows(tree: Path, cache: Path) -> list[str]:
    _env(str(cache))
    shutil.rmtree(cache, ignore_errors=True)
    first = timed_tree([*ASRCH, "index", str(tree)])
    size = _size(cache)
    again = timed([*ASRCH, "index", str(tree)])
    return [
        f"  build from nothing: {first.seconds:.1f} s, peak RSS {first.max_rss_kb / 1024:.0f} MB "
        f"(goal <= 120), index {size / 1e6:.0f} MB",
        f"  update, nothing changed: {again.seconds:.2f} s",
    ]


def _release(argv: Sequence[str], src: str) -> float:
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = src
    try:
        return timed([*RELEASE, *argv[len(ASRCH) :]]).seconds
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = saved


def search_rows(
    tree: Path, cache: Path, empty: Path, repeat: int, *, rare: str, release: str | None
) -> list[str]:
    cases = [
        (f"scout {rare} (rare)", [*ASRCH, "scout", rare, str(tree)], [rg_count(rare, str(tree))]),
        (
            f"scout {COMMON} (common)",
            [*ASRCH, "scout", COMMON, str(tree)],
            [rg_count(COMMON, str(tree))],
        ),
        (
            "survey 12 x 1",
            [*ASRCH, "survey", *(a for t in SURVEY_TERMS for a in ("--term", t)), str(tree)],
            [rg_count_all(SURVEY_TERMS, [str(tree)])],
        ),
    ]
    rows = []
    for name, asrch, baseline in cases:
        indexed, rg, scan, old = [], [], [], []
        for _ in range(repeat):
            _env(str(cache))
            indexed.append(timed(asrch).seconds)
            rg.append(sum(timed(b).seconds for b in baseline))
            _env(str(empty))
            scan.append(timed(asrch).seconds)
            if release is not None:
                old.append(_release(asrch, release))
        i, r, s = _median(indexed), _median(rg), _median(scan)
        then = f", 0.1.0 {_median(old) / r:.2f}x" if old else ""
        rows.append(
            f"  {name}: indexed {i * 1000:.0f} ms, rg {r * 1000:.0f} ms, scan {s * 1000:.0f} ms;"
            f" indexed/rg {i / r:.2f}x, scan/rg {s / r:.2f}x{then}"
        )
    return rows


def breakdown(tree: Path, cache: Path, repeat: int, rare: str) -> str:
    """Where a rare CLI scout's time goes, in process (the start-up from `--version`)."""
    from asrch.engine.index.candidates import IndexCandidates
    from asrch.engine.index.verify import count_chosen
    from asrch.engine.process import HERE
    from bench.run import RG

    environ = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    query = Query(term=rare)
    start, fresh, lookup, verify = [], [], [], []
    files = 0
    for _ in range(repeat):
        start.append(timed([*ASRCH, "--version"]).seconds)
        source = IndexCandidates(RG, HERE, environ)
        t0 = time.perf_counter()
        place = source._place(str(tree))
        assert place is not None
        source._walk(str(tree), place)
        t1 = time.perf_counter()
        chosen = source.candidates(query, str(tree))
        t2 = time.perf_counter()
        if chosen is None:
            return f"  CLI rare scout: the index was not used ({source.note or 'a scan'})"
        files = len(chosen.files)
        count_chosen(RG, query, str(tree), chosen, cap=50_000, launch=HERE, census=False)
        t3 = time.perf_counter()
        fresh.append(t1 - t0)
        lookup.append(t2 - t1)
        verify.append(t3 - t2)
    return (
        f"  CLI rare scout, where the time goes: start-up {_median(start) * 1000:.0f} ms, "
        f"freshness (rg --files + a stat per file) {_median(fresh) * 1000:.0f} ms, "
        f"lookup {_median(lookup) * 1000:.0f} ms, verification {_median(verify) * 1000:.0f} ms"
        f" ({files} files)"
    )


def mcp_rows(tree: Path, cache: Path, repeat: int, rare: str, *, edit: bool) -> list[str]:
    """The warm server's rare scout; with `edit`, one file of the tree written before
    each call (a tree the bench wrote: the installed lib is never touched)."""
    from bench.server import Server

    _env(str(cache))
    server = Server([tree])
    edited = sorted(tree.glob("*/*.py"))[1] if edit else None
    rows = []
    try:
        for _ in range(3):
            server.call("scout", {"query": rare})
        for writing in (False, True) if edit else (False,):
            calls, rg = [], []
            for k in range(repeat):
                if writing and edited is not None:
                    with edited.open("a") as file:
                        file.write(f"# edit {k}\n")
                calls.append(server.call("scout", {"query": rare}))
                rg.append(timed(rg_count(rare, str(tree))).seconds)
            c, r = _median(calls), _median(rg)
            rows.append(
                f"  MCP warm scout {rare}{', a file written before each call' if writing else ''}:"
                f" {c * 1000:.0f} ms, rg --count {r * 1000:.0f} ms, {c / r:.2f}x (goal <= 0.2x)"
            )
    finally:
        server.close()
    return rows


def mcp_survey_row(tree: Path, cache: Path, empty: Path, repeat: int) -> str:
    """The warm server's survey 12 x 1 with the index and without it (each its own
    server, kept over the run), against one `rg --count -e ...` pass, interleaved."""
    from bench.server import Server

    servers = []
    for directory in (cache, empty):
        _env(str(directory))
        servers.append(Server([tree]))
    terms = {"terms": list(SURVEY_TERMS)}
    try:
        for server in servers:
            for _ in range(2):
                server.call("survey", terms)
        indexed: list[float] = []
        scan: list[float] = []
        rg: list[float] = []
        cpu: list[list[float]] = [[], [], []]
        for _ in range(repeat):
            for number, (served, times) in enumerate(((servers[0], indexed), (servers[1], scan))):
                before = served.cpu_seconds()
                times.append(served.call("survey", terms))
                cpu[number].append(served.cpu_seconds() - before)
            one_pass = timed(rg_count_all(SURVEY_TERMS, [str(tree)]))
            rg.append(one_pass.seconds)
            cpu[2].append(one_pass.cpu_seconds)
    finally:
        for server in servers:
            server.close()
    i, r, s = _median(indexed), _median(rg), _median(scan)
    ci, cs, cr = (_median(c) for c in cpu)
    return (
        f"  MCP warm survey 12 x 1: indexed {i * 1000:.0f} ms, rg {r * 1000:.0f} ms, scan"
        f" {s * 1000:.0f} ms; indexed/rg {i / r:.2f}x (goal <= 1.0x), scan/rg {s / r:.2f}x;"
        f" CPU indexed/rg {ci / cr:.2f}x, scan/rg {cs / cr:.2f}x"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.index")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--tree", choices=["installed", "large", "heavy", "all"], default="installed"
    )
    parser.add_argument("--release-src", type=Path, default=None, metavar="DIR")
    parser.add_argument(
        "--cache", help="a cache directory kept between runs: no build when it holds one"
    )
    args = parser.parse_args(argv)
    makers: dict[str, Callable[[], Path]] = {
        "installed": trees.stdlib,
        "large": trees.large,
        "heavy": trees.heavy,
    }
    roots = [make() for name, make in makers.items() if args.tree in (name, "all")]
    release = None if args.release_src is None else str(args.release_src.resolve() / "src")
    RELEASE[:] = [PY, "-m", "asrch"]
    work = Path(tempfile.mkdtemp(prefix="asrch-bench-index-"))
    try:
        for tree in roots:
            cache, empty = Path(args.cache or work / "cache"), work / "empty"
            empty.mkdir(exist_ok=True)
            print(f"{tree}:", flush=True)
            if not (cache / "asrch").is_dir():
                for line in build_rows(tree, cache):
                    print(line, flush=True)
            else:
                # A kept index, brought up to date first (the installed lib's files can
                # change under it: a ctime moved by another process makes them stale).
                _env(str(cache))
                again = timed([*ASRCH, "index", str(tree)])
                print(f"  update of the kept index: {again.seconds:.2f} s", flush=True)
            rare = trees.HEAVY_NEEDLE if tree.name.startswith("heavy-") else RARE
            for line in search_rows(tree, cache, empty, args.repeat, rare=rare, release=release):
                print(line, flush=True)
            print(breakdown(tree, cache, args.repeat, rare), flush=True)
            for line in mcp_rows(tree, cache, args.repeat, rare, edit=tree != trees.stdlib()):
                print(line, flush=True)
            print(mcp_survey_row(tree, cache, empty, args.repeat), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
