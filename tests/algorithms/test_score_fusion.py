"""Score fusion: min-max normalised scores, each channel weighted by how clearly its best item
stands out for this query; a flat channel barely moves the order, a list without scores
counts fully."""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.normalise import minmax
from skill_retriever.algorithms.score_fusion import listed_first, peakedness, score_fusion


def min_max(scores: list[float]) -> list[float]:
    """How score fusion normalises a channel's list (a lone or flat list counts fully)."""
    return [float(x) for x in minmax(scores, flat=1.0)]


def test_peakedness() -> None:
    assert peakedness([1.0, 1.0, 1.0]) == 0.0
    assert peakedness([1.0, 0.0, 0.0, 0.0]) == pytest.approx(0.75)
    assert peakedness([0.8]) == 1.0 and peakedness([]) == 1.0 and peakedness([0.0, 0.0]) == 1.0
    assert peakedness([4.0, 2.0] + [0.0] * 20, depth=2) == pytest.approx(0.25)


def test_min_max() -> None:
    assert min_max([4.0, 2.0, 0.0]) == pytest.approx([1.0, 0.5, 0.0])
    assert min_max([0.9, 0.6, 0.3]) == pytest.approx([1.0, 0.5, 0.0])  # a cosine list's floor is not 0
    assert min_max([0.4]) == [1.0] and min_max([0.5, 0.5]) == [1.0, 1.0]
    assert min_max([0.2, -0.1]) == pytest.approx([1.0, 0.0])  # negative cosines too


def test_hand_computed_scores() -> None:
    # keyword: peak (2 - 3.5/3)/2 = 5/12; semantic: peak (0.9 - 0.4)/0.9 = 5/9 -> the top
    # peak, so keyword counts (5/12)/(5/9) = 0.75 of it. Min-max: a 1, b 1/3, d 0; b 1, c 1/3, e 0.
    fused = score_fusion({"keyword": [("a", 2.0), ("b", 1.0), ("d", 0.5)],
                          "semantic": [("b", 0.9), ("c", 0.3), ("e", 0.0)]})
    scores = {f.id: f.score for f in fused}
    assert scores["a"] == pytest.approx(0.75)
    assert scores["b"] == pytest.approx(0.75 / 3 + 1.0)
    assert scores["c"] == pytest.approx(1 / 3)
    assert scores["d"] == scores["e"] == 0.0  # a list's weakest item counts as if unlisted
    assert [f.id for f in fused] == ["b", "a", "c", "d", "e"]
    assert dict(fused[0].ranks) == {"keyword": 2, "semantic": 1}


def test_a_flat_channel_barely_moves_the_order() -> None:
    flat = [(f"x{i}", 0.50 - i * 0.0001) for i in range(10)]
    sharp = [("y0", 10.0)] + [(f"y{i}", 2.0 - i * 0.1) for i in range(1, 10)] + [("floor", 0.5)]
    fused = score_fusion({"semantic": flat, "keyword": sharp})
    assert [f.id for f in fused[:10]] == ["y0"] + [f"y{i}" for i in range(1, 10)]
    assert [f.id for f in fused[10:19]] == [f"x{i}" for i in range(9)]  # still there, in their order


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
    assert asked[0].score == pytest.approx(1.0 + min_max([0.9, 0.2, 0.1])[1] * peakedness([0.9, 0.2, 0.1]))


def test_listed_first_lifts_a_channels_items_above_the_rest_and_keeps_scores_in_order() -> None:
    fused = score_fusion({
        "graph": [("end-1", 1.0), ("end-2", 0.05), ("end-3", 0.0)],
        "keyword": [("noise", 5.0), ("end-2", 4.0), ("other", 1.0)],
    })
    assert [f.id for f in fused][:3] == ["end-1", "noise", "end-2"]  # a text match between the ends
    lifted = listed_first(fused, {"graph"})
    assert [f.id for f in lifted] == ["end-1", "end-2", "end-3", "noise", "other"]
    scores = [f.score for f in lifted]
    assert scores == sorted(scores, reverse=True) and scores[2] > scores[3]  # a later sort keeps it
    before = {f.id: f.score for f in fused}
    assert len({round(f.score - before[f.id], 12) for f in lifted[:3]}) == 1  # one lift: their order stays
    assert [f.score for f in lifted[3:]] == [before["noise"], before["other"]]
    # Already first, or nothing listed: unchanged.
    assert listed_first(lifted, {"graph"}) == lifted
    assert listed_first(fused, {"temporal"}) == list(fused)


def test_listed_first_puts_what_more_of_the_channels_list_first() -> None:
    fused = score_fusion({
        "graph": [("hop-old", 1.0), ("hop-new", 0.5)],
        "temporal": [("hop-new", None), ("new", None)],
        "keyword": [("noise", 9.0), ("new", 1.0)],
    })
    tiers = listed_first(fused, {"graph", "temporal"})
    assert [f.id for f in fused][-2:] == ["noise", "hop-old"]  # the walk's first end below a text match
    # Both lists, then one of them (in fused order), then neither.
    assert [f.id for f in tiers] == ["hop-new", "new", "hop-old", "noise"]
    scores = [f.score for f in tiers]
    assert scores == sorted(scores, reverse=True)
