"""Clustering, paging and window merging with plain values."""

from asrch.domain.clusters import Cluster, cluster_hits, merge_windows, page_count, page_of


def spans(numbers: list[int]) -> list[tuple[int, int, int]]:
    return [(c.first, c.last, c.hits) for c in cluster_hits(numbers)]


def test_gap_two_joins_gap_three_splits() -> None:
    assert spans([10, 12, 14]) == [(10, 14, 3)]
    assert spans([10, 13]) == [(10, 10, 1), (13, 13, 1)]


def test_fixture_clusters() -> None:
    hits = [3, 5, 8, 14, 16, 18, 25, 30, 31, 40, 50, 52]
    assert spans(hits) == [
        (3, 5, 2),
        (8, 8, 1),
        (14, 18, 3),
        (25, 25, 1),
        (30, 31, 2),
        (40, 40, 1),
        (50, 52, 2),
    ]


def test_no_hits_no_clusters() -> None:
    assert cluster_hits([]) == []


def test_single_and_adjacent() -> None:
    assert cluster_hits([7]) == [Cluster(first=7, last=7, hits=1)]
    assert spans([1, 2, 3, 4]) == [(1, 4, 4)]


def test_paging() -> None:
    assert page_count(0, 3) == 1
    assert page_count(7, 3) == 3
    assert page_count(6, 3) == 2
    items = list(range(7))
    assert page_of(items, 1, 3) == [0, 1, 2]
    assert page_of(items, 3, 3) == [6]
    assert page_of(items, 4, 3) == []


def test_merge_overlapping_and_adjacent() -> None:
    assert merge_windows([5, 9], 2, 2) == [(3, 11)]  # 3-7 and 7-11 overlap
    assert merge_windows([5, 10], 2, 2) == [(3, 12)]  # 3-7 and 8-12 touch
    assert merge_windows([5, 11], 2, 2) == [(3, 7), (9, 13)]


def test_merge_clips_to_file() -> None:
    assert merge_windows([1], 2, 2) == [(1, 3)]
    assert merge_windows([10], 2, 2, last=10) == [(8, 10)]
    assert merge_windows([4, 4], 0, 0) == [(4, 4)]
