"""The index (D58) against bare ripgrep, in the same run: what `asrch index` costs, and
what a search under an indexed tree costs beside `rg --count` and beside the same
search without the index.

    python -m bench.index [--repeat N] [--tree installed|large|all]

`installed` is the interpreter's lib folder as installed (bench.trees.stdlib(), ~941 MB,
~32k files); `large` the generated tree of bench.run's large scenario. The index is
written to a cache directory of the bench's own (XDG_CACHE_HOME), never the user's.
Rows, each a median of N interleaved runs (asrch with the index, rg, asrch without):

- build: `asrch index` from nothing (wall, peak RSS of asrch and its rg together,
  the index file's size), then again with nothing changed (the freshness cost alone);
- scout of a rare term and of a common one, survey 12 x 1 (bench.run's terms) against
  one `rg --count -e ...` pass; the CLI's rare scout split into where its time goes
  (start-up, freshness check, lookup, verification, measured in process);
- a warm `asrch mcp` answering the rare scout, beside `rg --count`.

The 0.1.0 release has no index: its column is the search without one (`scan`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from asrch.domain.query import Query
from bench import trees
from bench.run import ASRCH, SURVEY_TERMS, rg_count, rg_count_all, timed, timed_tree

RARE = "ZoneInfoNotFoundError"
COMMON = "import"


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


def search_rows(tree: Path, cache: Path, empty: Path, repeat: int) -> list[str]:
    cases = [
        (f"scout {RARE} (rare)", [*ASRCH, "scout", RARE, str(tree)], [rg_count(RARE, str(tree))]),
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
        indexed, rg, scan = [], [], []
        for _ in range(repeat):
            _env(str(cache))
            indexed.append(timed(asrch).seconds)
            rg.append(sum(timed(b).seconds for b in baseline))
            _env(str(empty))
            scan.append(timed(asrch).seconds)
        i, r, s = _median(indexed), _median(rg), _median(scan)
        rows.append(
            f"  {name}: indexed {i * 1000:.0f} ms, rg {r * 1000:.0f} ms, scan {s * 1000:.0f} ms;"
            f" indexed/rg {i / r:.2f}x, scan/rg {s / r:.2f}x"
        )
    return rows


def breakdown(tree: Path, cache: Path, repeat: int) -> str:
    """Where a rare CLI scout's time goes, in process (the start-up from `--version`)."""
    from asrch.engine.index.candidates import IndexCandidates
    from asrch.engine.index.verify import count_chosen
    from asrch.engine.process import HERE
    from bench.run import RG

    environ = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    query = Query(term=RARE)
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
        assert chosen is not None
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


def mcp_row(tree: Path, cache: Path, repeat: int) -> str:
    from bench.server import Server

    _env(str(cache))
    server = Server([tree])
    try:
        for _ in range(3):
            server.call("scout", {"query": RARE})
        calls, rg = [], []
        for _ in range(repeat):
            calls.append(server.call("scout", {"query": RARE}))
            rg.append(timed(rg_count(RARE, str(tree))).seconds)
    finally:
        server.close()
    c, r = _median(calls), _median(rg)
    return (
        f"  MCP warm scout {RARE}: {c * 1000:.0f} ms, rg --count {r * 1000:.0f} ms, "
        f"{c / r:.2f}x (goal <= 0.2x)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.index")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tree", choices=["installed", "large", "all"], default="installed")
    parser.add_argument(
        "--cache", help="a cache directory kept between runs: no build when it holds one"
    )
    args = parser.parse_args(argv)
    chosen = {"installed": [trees.stdlib()], "large": [trees.large()]}
    roots = chosen.get(args.tree) or [trees.stdlib(), trees.large()]
    work = Path(tempfile.mkdtemp(prefix="asrch-bench-index-"))
    try:
        for tree in roots:
            cache, empty = Path(args.cache or work / "cache"), work / "empty"
            empty.mkdir(exist_ok=True)
            print(f"{tree}:", flush=True)
            if not (cache / "asrch").is_dir():
                for line in build_rows(tree, cache):
                    print(line, flush=True)
            for line in search_rows(tree, cache, empty, args.repeat):
                print(line, flush=True)
            print(breakdown(tree, cache, args.repeat), flush=True)
            print(mcp_row(tree, cache, args.repeat), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
