"""Clusters of nearby matches, pages of clusters, and merged snippet windows (pure)."""

from collections.abc import Iterable, Sequence
from typing import NamedTuple, TypeVar

from asrch.domain.limits import CLUSTER_GAP

T = TypeVar("T")


class Cluster(NamedTuple):
    """Matching lines `first..last` whose neighbours are at most CLUSTER_GAP apart."""

    first: int
    last: int
    hits: int


def cluster_hits(numbers: Iterable[int], gap: int = CLUSTER_GAP) -> list[Cluster]:
    """Group ascending matching line numbers: a step of at most `gap` stays in a cluster.

    10, 12, 14 is one cluster; 10, 13 are two (D18).
    """
    clusters: list[Cluster] = []
    first = last = hits = 0
    for n in numbers:
        if hits and n - last <= gap:
            last, hits = n, hits + 1
            continue
        if hits:
            clusters.append(Cluster(first=first, last=last, hits=hits))
        first = last = n
        hits = 1
    if hits:
        clusters.append(Cluster(first=first, last=last, hits=hits))
    return clusters


def page_count(items: int, per_page: int) -> int:
    """Pages needed for `items`; an empty result still has its one (empty) page."""
    return max(1, -(-items // per_page))


def page_of(items: Sequence[T], page: int, per_page: int) -> list[T]:
    """Page `page` (from 1) of `items`; past the end it is empty."""
    start = (page - 1) * per_page
    return list(items[start : start + per_page])


def merge_windows(
    centers: Iterable[int], before: int, after: int, *, first: int = 1, last: int | None = None
) -> list[tuple[int, int]]:
    """Windows `[c - before, c + after]` clipped to the file, overlapping or adjacent merged."""
    windows: list[tuple[int, int]] = []
    for c in sorted(centers):
        start = max(first, c - before)
        end = c + after if last is None else min(last, c + after)
        if windows and start <= windows[-1][1] + 1:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows
