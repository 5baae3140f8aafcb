"""RRF against hand-computed scores (Cormack, Clarke and Büttcher 2009: k = 60, ranks from 1)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skill_retriever.algorithms.rrf import FusedItem, reciprocal_rank_fusion
from skill_retriever.exceptions import ConfigError


def _scores(fused: list[FusedItem]) -> dict[str, float]:
    return {f.id: f.score for f in fused}


def test_hand_computed_two_channels() -> None:
    fused = reciprocal_rank_fusion({"dense": ["a", "b", "c"], "bm25": ["b", "a", "d"]})
    s = _scores(fused)
    assert s["a"] == pytest.approx(1 / 61 + 1 / 62, abs=0, rel=1e-15)
    assert s["b"] == pytest.approx(1 / 62 + 1 / 61, abs=0, rel=1e-15)
    assert s["c"] == pytest.approx(1 / 63, rel=1e-15)
    assert s["d"] == pytest.approx(1 / 63, rel=1e-15)
    assert dict(fused[0].ranks) in ({"dense": 1, "bm25": 2}, {"dense": 2, "bm25": 1})
    assert {f.id: dict(f.ranks) for f in fused}["d"] == {"bm25": 3}


def test_order_and_deterministic_ties() -> None:
    # a and b tie exactly (same two terms); both found by 2 channels with best rank 1 -> id.
    # c and d tie at 1/63 with one channel each and rank 3 -> id.
    fused = reciprocal_rank_fusion({"dense": ["a", "b", "c"], "bm25": ["b", "a", "d"]})
    assert [f.id for f in fused] == ["a", "b", "c", "d"]
    swapped = reciprocal_rank_fusion({"bm25": ["b", "a", "d"], "dense": ["a", "b", "c"]})
    assert [f.id for f in swapped] == ["a", "b", "c", "d"]


def test_tie_break_prefers_more_channels_then_best_rank_then_id() -> None:
    # k=1: "y" at rank 1 in one channel scores 1/2; "x" at rank 3 in two channels 2/4 = 1/2.
    fused = reciprocal_rank_fusion({"c1": ["y", "p", "x"], "c2": ["q", "r", "x"]}, k=1)
    s = _scores(fused)
    assert s["x"] == s["y"] == s["q"] == 0.5
    assert [f.id for f in fused][:3] == ["x", "q", "y"]  # two channels first; then by id
    # k=2: "zz" at ranks (1, 4) scores 1/3 + 1/6; "aa" at (2, 2) scores 1/4 + 1/4; both 1/2
    # with two channels each, so the best rank decides, against the id order.
    fused = reciprocal_rank_fusion(
        {"c1": ["zz", "aa", "f1", "f2"], "c2": ["f3", "aa", "f4", "zz"]}, k=2
    )
    s = _scores(fused)
    assert s["zz"] == s["aa"] == 0.5
    assert [f.id for f in fused][:2] == ["zz", "aa"]
    # equal score, count and rank: the id decides.
    fused = reciprocal_rank_fusion({"c1": ["z", "m"], "c2": ["n", "a"]}, k=1)
    assert [f.id for f in fused] == ["n", "z", "a", "m"]


def test_missing_item_adds_nothing() -> None:
    fused = reciprocal_rank_fusion({"c1": ["a"], "c2": ["b"], "c3": []})
    assert _scores(fused) == {"a": 1 / 61, "b": 1 / 61}


def test_duplicates_in_a_channel_count_once_and_do_not_shift_ranks() -> None:
    fused = reciprocal_rank_fusion({"c": ["a", "b", "a", "c", "b"]})
    assert {f.id: dict(f.ranks) for f in fused} == {"a": {"c": 1}, "b": {"c": 2}, "c": {"c": 3}}
    assert _scores(fused) == {"a": 1 / 61, "b": 1 / 62, "c": 1 / 63}


def test_weights() -> None:
    fused = reciprocal_rank_fusion(
        {"dense": ["a", "b"], "bm25": ["b", "a"], "recency": ["c"]},
        weights={"dense": 2.0, "recency": 0.0, "not-run": 5.0},
    )
    s = _scores(fused)
    assert s["a"] == pytest.approx(2 / 61 + 1 / 62, rel=1e-15)
    assert s["b"] == pytest.approx(2 / 62 + 1 / 61, rel=1e-15)
    assert "c" not in s  # weight 0: the channel is off, its items do not appear
    assert all("recency" not in f.ranks for f in fused)
    assert [f.id for f in fused] == ["a", "b"]


def test_k_and_limit() -> None:
    fused = reciprocal_rank_fusion({"c": ["a", "b", "c"]}, k=1, limit=2)
    assert [(f.id, f.score) for f in fused] == [("a", 1 / 2), ("b", 1 / 3)]
    assert reciprocal_rank_fusion({"c": ["a"]}, limit=0) == []
    assert reciprocal_rank_fusion({}) == []


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_bad_k(k: object) -> None:
    with pytest.raises(ConfigError, match="k must be a positive integer"):
        reciprocal_rank_fusion({"c": ["a"]}, k=k)  # type: ignore[arg-type]


@pytest.mark.parametrize("w", [-0.1, math.nan, math.inf])
def test_bad_weight(w: float) -> None:
    with pytest.raises(ConfigError, match="weight for channel 'c'"):
        reciprocal_rank_fusion({"c": ["a"]}, weights={"c": w})


def test_bad_limit() -> None:
    with pytest.raises(ConfigError, match="limit"):
        reciprocal_rank_fusion({"c": ["a"]}, limit=-1)


def test_ranks_are_read_only() -> None:
    fused = reciprocal_rank_fusion({"c": ["a"]})
    with pytest.raises(TypeError):
        fused[0].ranks["c"] = 5  # type: ignore[index]


_ids = st.sampled_from([f"d{i}" for i in range(12)])
_rankings = st.dictionaries(
    st.sampled_from(["dense", "bm25", "ppr", "recency"]), st.lists(_ids, max_size=15), max_size=4
)


@given(_rankings, st.integers(min_value=1, max_value=100))
def test_score_is_the_exact_sum_over_channels(rankings: dict[str, list[str]], k: int) -> None:
    fused = reciprocal_rank_fusion(rankings, k=k)
    expected: dict[str, dict[str, int]] = {}
    for channel, items in rankings.items():
        unique = list(dict.fromkeys(items))
        for pos, item in enumerate(unique, start=1):
            expected.setdefault(item, {})[channel] = pos
    assert {f.id: dict(f.ranks) for f in fused} == expected
    for f in fused:
        assert f.score == math.fsum(1 / (k + r) for r in expected[f.id].values())
    scores = [f.score for f in fused]
    assert scores == sorted(scores, reverse=True)


@given(
    st.lists(st.integers(min_value=1, max_value=50), min_size=2, max_size=4),
    st.data(),
    st.integers(min_value=1, max_value=100),
)
def test_more_channels_at_the_same_ranks_rank_higher(
    ranks: list[int], data: st.DataObject, k: int
) -> None:
    # "many" is found by every channel c at rank ranks[c]; "few" by a strict, non-empty
    # subset of those channels' copies, at the same ranks.
    subset = data.draw(st.sets(st.integers(0, len(ranks) - 1), min_size=1, max_size=len(ranks) - 1))
    rankings: dict[str, list[str]] = {}
    for c, r in enumerate(ranks):
        rankings[f"c{c}"] = [f"f{c}_{i}" for i in range(r - 1)] + ["many"]
        if c in subset:
            rankings[f"c{c}_copy"] = [f"g{c}_{i}" for i in range(r - 1)] + ["few"]
    fused = reciprocal_rank_fusion(rankings, k=k)
    s = _scores(fused)
    assert s["many"] == math.fsum(1 / (k + r) for r in ranks)
    assert s["few"] == math.fsum(1 / (k + ranks[c]) for c in sorted(subset))
    order = [f.id for f in fused]
    assert order.index("many") < order.index("few")
