"""xQuAD over a request's asks (algorithms.diversify)."""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.diversify import xquad


def test_without_asks_or_weight_the_order_is_kept() -> None:
    ranking = [("a", 3.0), ("b", 2.0), ("c", 1.0)]
    assert [d for d, _ in xquad(ranking, [], 0.5)] == ["a", "b", "c"]
    assert [d for d, _ in xquad(ranking, [{"c": 1.0}, {"a": 1.0}], 0.0)] == ["a", "b", "c"]
    assert xquad([], [], 0.5) == []


def test_an_item_for_an_ask_still_open_passes_near_duplicates_of_a_covered_one() -> None:
    # a1..a3 answer ask 1 and fuse high; b answers ask 2 and fuses low.
    ranking = [("a1", 1.0), ("a2", 0.95), ("a3", 0.9), ("b", 0.5)]
    asks = [{"a1": 9.0, "a2": 8.5, "a3": 8.0}, {"b": 4.0}]
    order = [d for d, _ in xquad(ranking, asks, 0.5)]
    assert order[:2] == ["a1", "b"] and order[2:] == ["a2", "a3"]
    # A weak weight on the asks lets the fused order win.
    assert [d for d, _ in xquad(ranking, asks, 0.1)] == ["a1", "a2", "a3", "b"]


def test_an_item_only_an_ask_found_may_enter_and_gains_never_rise() -> None:
    # After a1 answers ask 1, the item only ask 2 found (gain 0.5 / 2) passes the weak rest.
    ranking = [("a1", 1.0), ("a2", 0.4), ("a3", 0.3)]
    asks = [{"a1": 5.0, "a2": 4.0}, {"new": 2.0}]
    out = xquad(ranking, asks, 0.5)
    assert [d for d, _ in out][:2] == ["a1", "new"]
    assert sorted(d for d, _ in out) == ["a1", "a2", "a3", "new"]
    gains = [g for _, g in out]
    assert gains == sorted(gains, reverse=True)
    assert gains[0] == pytest.approx(0.5 * 1.0 + 0.5 * 0.5 * 1.0)  # best fused, best of ask 1


def test_ties_keep_the_ranking_order_and_negative_scores_count_as_zero() -> None:
    ranking = [("x", 1.0), ("y", 1.0), ("z", -2.0)]
    assert [d for d, _ in xquad(ranking, [{"q": 0.0}], 0.5)] == ["x", "y", "z", "q"]


def test_below_the_greedy_depth_the_rest_follows_by_gain_and_scores_still_fall() -> None:
    ranking = sorted([(f"a{i}", 1.0 - i / 20) for i in range(12)] + [("b", 0.5)], key=lambda p: -p[1])
    asks = [{f"a{i}": 5.0 - i / 10 for i in range(12)}, {"b": 3.0, "new": 2.0}]
    whole = xquad(ranking, asks, 0.5)
    cut = xquad(ranking, asks, 0.5, depth=3)
    assert [d for d, _ in cut[:3]] == [d for d, _ in whole[:3]] == ["a0", "b", "a1"]
    assert sorted(d for d, _ in cut) == sorted(d for d, _ in whole)
    gains = [g for _, g in cut]
    assert gains == sorted(gains, reverse=True)
    assert xquad(ranking, asks, 0.5, depth=0) == sorted(xquad(ranking, asks, 0.5, depth=0), key=lambda p: -p[1])


def test_relevances_are_scaled_by_the_best_so_an_unfound_item_stays_at_zero() -> None:
    from skill_retriever.algorithms.normalise import by_max

    assert by_max([0.0, 2.0, 4.0]).tolist() == [0.0, 0.5, 1.0]
    assert by_max([0.0, 0.0]).tolist() == [0.0, 0.0] and by_max([]).tolist() == []
