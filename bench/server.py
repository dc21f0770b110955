"""The MCP server against bare ripgrep: a warm `asrch mcp` over stdio, sequential tool
calls, the median round trip of each search beside the median of bare rg running it.

The client is a minimal one: a JSON-RPC request written as one line to the server's
stdin, its answer read as one line from its stdout, timed between the two. What an SDK
client adds on its side (its own validation of the answer) is the client's cost, not
the server's. The server is started once, initialized, and warmed with a few calls of
each search before anything is timed; the timed calls and the rg runs are interleaved.

Two rg columns: `rg`, the bare search the goals are stated against (bench.run's
baselines), and, for the counting tools, `engine`: the rg command lines the server
itself runs for that search (since D45 a default call's plain `rg --count`; the census
that counts binary files only under `--structured`). The gap between `engine` and
`mcp` is the server's own cost; between `rg` and `engine`, the engine's, which the
command line pays alike. `engine` runs write where the engine's do, into memory files
(memfd), not /dev/null.

Each row is printed beside the previous release's figure for it (`rel`: its `over`,
mcp - rg, from bench/release.json's `mcp` block), recorded as bench.run's are:

    python -m bench.server [--repeat N] [--only TEXT] [--asrch-src DIR --record-release LABEL]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from asrch.domain.query import Query
from asrch.engine.argv import BASE_FLAGS, count_argv
from bench import trees
from bench.run import (
    ASRCH,
    RG,
    SURVEY_TERMS,
    record_release,
    release_blocks,
    rg_count,
    timed_many,
)

WARM_UP = 3


@dataclass
class McpScenario:
    name: str
    tool: str
    arguments: dict[str, Any]
    baseline: list[list[str]]
    target_ratio: float | None = None
    """Goal: round trip <= target_ratio x rg (None: see target_margin_ms)."""
    target_margin_ms: float | None = None
    """Goal: round trip <= rg + target_margin_ms."""
    engine: list[list[str]] | None = None
    """The rg command lines the server runs for this search, where they are plain."""


@dataclass
class McpRow:
    name: str
    mcp_ms: float
    rg_ms: float
    ratio: float
    over_ms: float
    engine_ms: float | None
    goal: str
    ok: bool
    cpu_over_ms: float | None = None
    """The server's CPU per call (user + sys, its rg children included, from /proc) minus
    rg's, averaged over the timed calls: what load disturbs least (/proc counts in
    clock ticks, 10 ms; the average over N calls is good to 10/N ms)."""
    release_over_ms: float | None = None
    """The previous release's `over` on this row (bench/release.json, block `mcp`)."""


class Server:
    """`asrch mcp --root ROOT`, initialized, answering one request at a time."""

    def __init__(self, roots: Sequence[Path]) -> None:
        args = [arg for root in roots for arg in ("--root", str(root))]
        self.process = subprocess.Popen(
            [*ASRCH, "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._id = 0
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self.process.stdout is not None
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        if answer.get("id") != self._id or "error" in answer:
            raise RuntimeError(f"unexpected answer: {answer}")
        return answer

    def call(self, tool: str, arguments: dict[str, Any]) -> float:
        """One tool call's round trip, in seconds."""
        start = time.perf_counter()
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        elapsed = time.perf_counter() - start
        if answer["result"].get("isError"):
            raise RuntimeError(f"{tool} {arguments}: {answer['result']['content']}")
        return elapsed

    def cpu_seconds(self) -> float:
        """The server's CPU so far, its reaped rg children's included (/proc, Linux)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        # utime, stime, cutime, cstime: fields 14-17 of stat(5), here from the state on.
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def timed_to_memory(commands: Sequence[Sequence[str]]) -> float:
    """Seconds for `commands` in sequence, each writing its stdout and stderr into memory
    files, as the engine's rg runs do (`engine.process.run_to_end`)."""
    total = 0.0
    for argv in commands:
        with (
            os.fdopen(os.memfd_create("out"), "w+b") as out,
            os.fdopen(os.memfd_create("err"), "w+b") as err,
        ):
            start = time.perf_counter()
            subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, check=False)
            total += time.perf_counter() - start
    return total


def engine_count(term: str, path: str) -> list[str]:
    """The counting rg command line a default tool call runs (`count_files` without the
    census, D45): the plain count, sorted by asrch, not by rg."""
    return count_argv(RG, Query(term=term), path, sort=False)


def scenarios(work: Path) -> tuple[list[Path], list[McpScenario]]:
    tiny = trees.tiny(work / "tiny")
    lib = trees.stdlib()
    dense = trees.dense_file(work / "dense")
    survey_paths = [f"{lib}/email", f"{lib}/asyncio"]
    rows = [
        McpScenario(
            "scout, 2-file tree",
            "scout",
            {"query": "connect", "path": str(tiny)},
            [rg_count("connect", str(tiny))],
            target_margin_ms=10.0,
            engine=[engine_count("connect", str(tiny))],
        ),
        McpScenario(
            # Issue 41, item 5: a small answer lists its lines with their scopes (D32):
            # 19 lines in 2 files of real source, each parsed.
            "scout listing 19 lines, stdlib json/",
            "scout",
            {"query": "JSONDecodeError", "path": f"{lib}/json"},
            [rg_count("JSONDecodeError", f"{lib}/json")],
            target_margin_ms=10.0,
            engine=[engine_count("JSONDecodeError", f"{lib}/json")],
        ),
        McpScenario(
            "scout rare term, stdlib",
            "scout",
            {"query": "frozenset", "path": str(lib)},
            [rg_count("frozenset", str(lib))],
            target_margin_ms=10.0,  # issue 34: D45 made a default call one rg run
            engine=[engine_count("frozenset", str(lib))],
        ),
        McpScenario(
            "survey 12 x 2, stdlib vs 24 rg --count",
            "survey",
            {"terms": list(SURVEY_TERMS), "paths": survey_paths},
            [rg_count(t, p) for t in SURVEY_TERMS for p in survey_paths],
            target_ratio=1.0,
            engine=[engine_count(t, p) for t in SURVEY_TERMS for p in survey_paths],
        ),
        McpScenario(
            "sample, 60k-match file vs rg --json",
            "sample",
            {"query": "dense", "file": str(dense)},
            [[RG, *BASE_FLAGS, "--json", "--regexp=dense", "--", str(dense)]],
            target_ratio=1.5,
        ),
        McpScenario(
            "show --line 59990, 60k-match file vs rg --json",
            "show",
            {"query": "dense", "file": str(dense), "line": 59990},
            [[RG, *BASE_FLAGS, "--json", "--regexp=dense", "--", str(dense)]],
            target_ratio=1.5,
        ),
    ]
    return [tiny, lib, dense.parent], rows


def measure(server: Server, scenario: McpScenario, repeat: int) -> McpRow:
    for _ in range(WARM_UP):
        server.call(scenario.tool, scenario.arguments)
        timed_many(scenario.baseline)
    calls, rgs, engines = [], [], []
    server_cpu = rg_cpu = 0.0
    for _ in range(repeat):
        before = server.cpu_seconds()
        calls.append(server.call(scenario.tool, scenario.arguments))
        server_cpu += server.cpu_seconds() - before
        rg = timed_many(scenario.baseline)
        rgs.append(rg.seconds)
        rg_cpu += rg.cpu_seconds
        if scenario.engine is not None:
            engines.append(timed_to_memory(scenario.engine))
    mcp_ms = statistics.median(calls) * 1e3
    rg_ms = statistics.median(rgs) * 1e3
    engine_ms = statistics.median(engines) * 1e3 if engines else None
    # Round by round (a call and its rg run met the same load), not a difference of two
    # medians drawn from separate runs: on a loaded machine rg's time swings most.
    ratio = statistics.median(c / r for c, r in zip(calls, rgs, strict=True))
    over = statistics.median(c - r for c, r in zip(calls, rgs, strict=True)) * 1e3
    if scenario.target_margin_ms is not None:
        goal, ok = f"<= rg + {scenario.target_margin_ms:.0f} ms", over <= scenario.target_margin_ms
    else:
        assert scenario.target_ratio is not None
        goal, ok = f"<= {scenario.target_ratio:.2f} x rg", ratio <= scenario.target_ratio
    cpu_over = (server_cpu - rg_cpu) / repeat * 1e3
    return McpRow(scenario.name, mcp_ms, rg_ms, ratio, over, engine_ms, goal, ok, cpu_over)


def measure_all(work: Path, repeat: int, only: Sequence[str] = ()) -> list[McpRow]:
    roots, chosen = scenarios(work)
    if only:
        chosen = [s for s in chosen if any(text in s.name for text in only)]
    server = Server(roots)
    try:
        return [measure(server, scenario, repeat) for scenario in chosen]
    finally:
        server.close()


def table(rows: list[McpRow]) -> str:
    head = (
        f"{'MCP tool call (warm, stdio)':48} {'mcp':>7} {'rg':>7} {'ratio':>6} {'over':>7} "
        f"{'engine':>7}  goal"
    )
    head += f"{'':22} {'rel over':>8} {'cpu over':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        engine = f"{r.engine_ms:7.1f}" if r.engine_ms is not None else f"{'-':>7}"
        rel = "-" if r.release_over_ms is None else f"{r.release_over_ms:.1f}"
        verdict = f"{r.goal} {'yes' if r.ok else 'NO'}"
        cpu = "-" if r.cpu_over_ms is None else f"{r.cpu_over_ms:.1f}"
        lines.append(
            f"{r.name:48} {r.mcp_ms:7.1f} {r.rg_ms:7.1f} {r.ratio:6.2f} {r.over_ms:7.1f} "
            f"{engine}  {verdict:24} {rel:>8} {cpu:>8}"
        )
    lines.append(
        "times: medians in ms; mcp: a tool call's round trip; ratio, over: per round "
        "(mcp / rg, mcp - rg), their medians; "
        "engine: the rg runs the server makes; rel over: the release's mcp - rg; "
        "cpu over: the server's CPU a call (its rg included) - rg's, mean"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", "21")))
    parser.add_argument("--json", type=Path, default=Path("bench/results/mcp.json"))
    parser.add_argument("--only", action="append", default=[], metavar="TEXT")
    # bench.run's own options (`--scenario`) may come along from `nox -s bench -- …`.
    parser.add_argument("--asrch-src", type=Path, default=None, metavar="DIR")
    parser.add_argument("--record-release", default=None, metavar="LABEL")
    args, _ = parser.parse_known_args(argv)
    if args.asrch_src is not None:
        # Another checkout's asrch (a release's), run with this interpreter.
        ASRCH[:] = [sys.executable, "-m", "asrch"]
        os.environ["PYTHONPATH"] = str(args.asrch_src.resolve() / "src")
    with tempfile.TemporaryDirectory(prefix="asrch-bench-mcp-") as tmp:
        rows = measure_all(Path(tmp), args.repeat, args.only)
    if args.record_release:
        record_release([], args.record_release, blocks={"mcp": {r.name: r.over_ms for r in rows}})
    mcp = release_blocks().get("mcp", {})
    rows = [replace(r, release_over_ms=mcp.get(r.name)) for r in rows]
    print(table(rows))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=2) + "\n")
    print(f"written: {args.json}")


if __name__ == "__main__":
    main(sys.argv[1:])
