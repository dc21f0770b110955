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
    overhead: float = 0.0
    """Median bytes per answer that are no file line (headers, tables, notes, `next:`;
    for rg, the `PATH:N:` prefixes)."""
    zeros: int = 0
    """Answers with no match."""
    zero_bytes: float = 0.0
    """Their median bytes."""

    @property
    def rate(self) -> float:
        return self.found / self.tasks if self.tasks else 0.0


def summarize(policy: str, attempts: Sequence[Attempt]) -> Summary:
    """Over every task, found or not: a miss costs what was read before giving up."""
    read = [a.bytes_read for a in attempts]
    calls = [len(a.calls) for a in attempts]
    every = [c for a in attempts for c in a.calls]
    overhead = [c.bytes_read - c.code_bytes for c in every]
    zeros = [c.bytes_read for c in every if c.zero]
    return Summary(
        policy,
        len(attempts),
        sum(a.found for a in attempts),
        statistics.median(read) if read else 0.0,
        p90(read),
        sum(calls),
        statistics.median(calls) if calls else 0.0,
        statistics.median(overhead) if overhead else 0.0,
        len(zeros),
        statistics.median(zeros) if zeros else 0.0,
    )


@dataclass(frozen=True, slots=True)
class Goal:
    """Issue 25's goals for one asrch policy, against uncapped `rg -n`."""

    policy: str
    finds_as_many: bool
    """It found at least as many answers as uncapped `rg -n`."""
    median_at_most_rg: bool
    """Its median bytes per task are at most rg's."""
    p90_far_below: bool
    """Its p90 bytes per task are at most half of rg's ("far below")."""
    calls_at_most_3: bool
    """Its median calls per task are at most 3."""

    @property
    def met(self) -> bool:
        return (
            self.finds_as_many
            and self.median_at_most_rg
            and self.p90_far_below
            and self.calls_at_most_3
        )


def goal(summaries: dict[str, Summary], policy: str) -> Goal:
    mine, rg = summaries[policy], summaries["rg"]
    return Goal(
        policy,
        mine.found >= rg.found,
        mine.median_bytes <= rg.median_bytes,
        mine.p90_bytes * 2 <= rg.p90_bytes,
        mine.median_calls <= 3,
    )
