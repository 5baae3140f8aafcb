"""Score fusion: max-normalised scores, each channel weighted by how clearly its best item
stands out for this query; a flat channel barely moves the order, a list without scores
counts fully."""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.score_fusion import peakedness, score_fusion


def test_peakedness() -> None:
    assert peakedness([1.0, 1.0, 1.0]) == 0.0
    assert peakedness([1.0, 0.0, 0.0, 0.0]) == pytest.approx(0.75)
    assert peakedness([0.8]) == 1.0 and peakedness([]) == 1.0 and peakedness([0.0, 0.0]) == 1.0
    assert peakedness([4.0, 2.0] + [0.0] * 20, depth=2) == pytest.approx(0.25)


def test_hand_computed_scores() -> None:
    # keyword: peak (2 - 1.5)/2 = 0.25; semantic: peak (0.9 - 0.6)/0.9 = 1/3 -> the top peak
    fused = score_fusion({"keyword": [("a", 2.0), ("b", 1.0)], "semantic": [("b", 0.9), ("c", 0.3)]})
    scores = {f.id: f.score for f in fused}
    kw, sem = 0.25 / (1 / 3), 1.0
    assert scores["a"] == pytest.approx(kw * 1.0)
    assert scores["b"] == pytest.approx(kw * 0.5 + sem * 1.0)
    assert scores["c"] == pytest.approx(sem * (0.3 / 0.9))
    assert [f.id for f in fused] == ["b", "a", "c"]
    assert dict(fused[0].ranks) == {"keyword": 2, "semantic": 1}


def test_a_flat_channel_barely_moves_the_order() -> None:
    flat = [(f"x{i}", 0.50 - i * 0.0001) for i in range(10)]
    sharp = [("y0", 10.0)] + [(f"y{i}", 1.0) for i in range(1, 10)]
    fused = score_fusion({"semantic": flat, "keyword": sharp})
    assert [f.id for f in fused[:10]] == ["y0"] + [f"y{i}" for i in range(1, 10)]
    assert [f.id for f in fused[10:]] == [f"x{i}" for i in range(10)]  # still there, in their order


def test_weights_and_lists_without_scores() -> None:
    fused = score_fusion({"keyword": [("a", 3.0), ("b", 1.0)], "named": [("b", None)]}, {"keyword": 1.0, "named": 2.0})
    assert fused[0].id == "b"  # the named item, fully confident and weighted twice
    assert score_fusion({"keyword": [("a", 3.0)]}, {"keyword": 0.0}) == []
    assert score_fusion({}) == []


def test_a_confident_channel_keeps_its_full_weight_however_flat() -> None:
    flat_graph = [("walked-to", 1.0), ("next", 0.98)]  # peak 0.01: nearly off on its own
    sharp = [("guess", 0.9), ("walked-to", 0.2), ("other", 0.1)]
    plain = score_fusion({"graph": flat_graph, "semantic": sharp})
    assert plain[0].id == "guess"
    asked = score_fusion({"graph": flat_graph, "semantic": sharp}, confident={"graph"})
    assert asked[0].id == "walked-to"
    assert asked[0].score == pytest.approx(1.0 + (0.2 / 0.9) * peakedness([0.9, 0.2, 0.1]))
