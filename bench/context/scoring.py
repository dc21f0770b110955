"""Per-policy summaries: success rate, median and 90th-percentile bytes, calls."""

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bench.context.policies import Attempt


def p90(values: Sequence[int]) -> int:
    """The nearest-rank 90th percentile: the smallest value at least 90% of them reach."""
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[math.ceil(0.9 * len(ordered)) - 1]


@dataclass(frozen=True, slots=True)
class Summary:
    policy: str
    tasks: int
    found: int
    median_bytes: float
    p90_bytes: int
    calls: int
    median_calls: float

    @property
    def rate(self) -> float:
        return self.found / self.tasks if self.tasks else 0.0


def summarize(policy: str, attempts: Sequence[Attempt]) -> Summary:
    """Over every task, found or not: a miss costs what was read before giving up."""
    read = [a.bytes_read for a in attempts]
    calls = [len(a.calls) for a in attempts]
    return Summary(
        policy,
        len(attempts),
        sum(a.found for a in attempts),
        statistics.median(read) if read else 0.0,
        p90(read),
        sum(calls),
        statistics.median(calls) if calls else 0.0,
    )


@dataclass(frozen=True, slots=True)
class Goal:
    finds_as_many: bool
    """asrch found at least as many answers as uncapped `rg -n`."""
    tenth_of_bytes: bool
    """asrch's median bytes are at most a tenth of uncapped `rg -n`'s."""
    beats_caps: bool
    """asrch found more answers than `rg -n` under each cap (the `rg …` rows)."""

    @property
    def met(self) -> bool:
        return self.finds_as_many and self.tenth_of_bytes and self.beats_caps


def goal(summaries: dict[str, Summary]) -> Goal:
    asrch, rg = summaries["asrch"], summaries["rg"]
    capped = [s for name, s in summaries.items() if name.startswith("rg ")]
    return Goal(
        asrch.found >= rg.found,
        asrch.median_bytes * 10 <= rg.median_bytes,
        all(asrch.found > s.found for s in capped),
    )
