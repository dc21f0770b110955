"""Reading the function around a hit (issue 30, D46), after the hit is found.

Agents that found the answer line went on to read the definition around it, with `sed`
windows that were too wide or too short (a third call). Each arm here reads on from the
line its finding call showed (`Attempt.hit`), with real processes:

- the asrch agent: one `asrch show FILE --line N --scope`, the innermost definition
  around line N (whole up to 60 lines; longer: its first line, N±5 and its last line);
- rg + sed: `sed -n 'N-10,N+30p' FILE` (41 lines, the middle of what agents typed), then,
  while the answer's first or last line is not printed, 40 more lines on that side, at
  most 3 windows in all.

A reading *covers* the answer when its first and last lines were printed (the reader
knows where the definition starts and ends, and has the hit); *whole* when every line
of the answer was. Scored apart from finding: the found/bytes/calls goal is unchanged.
"""

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.context.answers import Location
from bench.context.policies import Attempt, _run

SED_BEFORE = 10
SED_AFTER = 30
SED_MORE = 40
SED_WINDOWS = 3
NUMBERED = re.compile(r"^(\d+)[:=-]", re.M)


@dataclass(frozen=True, slots=True)
class Reading:
    calls: int
    bytes_read: int
    covers: bool
    whole: bool


def _judge(location: Location, printed: set[int], calls: int, size: int) -> Reading:
    lines = set(range(location.start, location.end + 1))
    covers = location.start in printed and location.end in printed
    return Reading(calls, size, covers, lines <= printed)


def read_with_scope(
    asrch: Sequence[str], tree: Path, location: Location, hit: tuple[str, int]
) -> Reading:
    """One `show FILE --line N --scope`; the lines it printed are its `N-`/`N:` lines
    (its `N=` scope lines name definitions around the answer, not the answer's lines)."""
    path, line = hit
    _, raw = _run([*asrch, "show", path, "--line", str(line), "--scope"], tree)
    text = raw.decode("utf-8", "replace")
    printed = {int(m[1]) for m in NUMBERED.finditer(text) if not m[0].endswith("=")}
    return _judge(location, printed, 1, len(raw))


def read_with_sed(tree: Path, location: Location, hit: tuple[str, int]) -> Reading:
    """`sed -n 'A,Bp'` windows from the hit, widened toward the side still missing."""
    path, line = hit
    first, last = max(1, line - SED_BEFORE), line + SED_AFTER
    printed: set[int] = set()
    size = calls = 0
    window = (first, last)
    while calls < SED_WINDOWS:
        _, raw = _run(["sed", "-n", f"{window[0]},{window[1]}p", path], tree)
        calls += 1
        size += len(raw)
        printed.update(range(window[0], window[0] + raw.count(b"\n")))
        if location.start < first and location.start not in printed:
            window = (max(1, first - SED_MORE), first - 1)
            first = window[0]
        elif location.end not in printed and raw.count(b"\n") == window[1] - window[0] + 1:
            window = (last + 1, last + SED_MORE)
            last = window[1]
        else:
            break
    return _judge(location, printed, calls, size)


def readings(
    asrch: Sequence[str], tree: Path, location: Location, agent: Attempt, rg: Attempt
) -> dict[str, Reading | None]:
    """Each arm's reading from its own hit (None: it found nothing to read from)."""
    same = posixpath.normpath
    return {
        "asrch show --scope": None
        if agent.hit is None or same(agent.hit[0]) != location.path
        else read_with_scope(asrch, tree, location, agent.hit),
        "sed windows": None
        if rg.hit is None or same(rg.hit[0]) != location.path
        else read_with_sed(tree, location, rg.hit),
    }
