"""Score fusion that reads each channel's confidence from its own scores, per query.

RRF (``algorithms.rrf``) looks only at ranks, so a channel that cannot tell its items
apart for this query (a flat list: the first ten scores all about the same) counts as
much as one that points at one item clearly. On catalogues where one channel is far
weaker, equal-weight RRF lands between the two and loses to the stronger channel alone
(on the benchmark's tool sets, 2-9 points nDCG@10). Here each channel's scores are
min-max normalised over its own list (CombSUM with min-max normalisation: Fox & Shaw
1994, "Combination of multiple searches", TREC-2; Lee 1997, "Analyses of multiple
evidence combination", SIGIR; Bruch et al. 2023, "An analysis of fusion functions for
hybrid retrieval", TOIS), and each channel is weighted, for this query, by how far its
best score stands out from the rest of its top ten::

    peak_c = (s_1 - mean(s_1..s_10)) / s_1        (0 = flat, near 1 = one clear best)
    norm_c(d) = (s_c(d) - s_c,last) / (s_c,1 - s_c,last)
    score(d) = Σ_c w_c · (peak_c / max_c' peak_c') · norm_c(d)

Why min-max and not division by the best score: dividing by the best leaves each list's
weakest item wherever its channel's scale puts it (a cosine list and a BM25 list end at
different fractions of their best, a short graph list often at half of it), so the
channels' tails counted unequally below the top few. Min-max puts every channel's weakest
listed item at 0, the same as an item the channel did not list. Measured on the
benchmark's eight catalogue sets, the default search, the normalisation the only change
(``skill-retriever benchmark --only skills,toolret --max-queries 500``; dividing by the
best at commit 9b05971, min-max at d871cb8), nDCG@10: skills dev 73.8 -> 75.2, metatool
66.4 -> 66.8, restbench-spotify 61.9 -> 62.9, restbench-tmdb 45.3 -> 45.3, seal-tools
85.9 -> 86.5, stabletoolbench 68.2 -> 69.5, traject-bench 54.8 -> 54.4, ultratool 77.7
-> 77.4; Completeness@10 on the seven tool sets: 79.0 -> 79.0, 31.6 -> 35.1, 20.0 ->
20.0, 70.0 -> 73.4, 62.2 -> 63.0, 11.6 -> 11.0, 82.8 -> 83.6.

A list without scores (the "named" list: items whose identifier the query writes out)
counts as fully confident. Ranks are kept for the explanation of each result.

Tried and left out (December 2026, on skills dev, metatool, seal-tools and restbench-tmdb):
weighting each channel by how far its best score stands above what the calibration's
off-topic probes get in this index (`calibration.fit`; a keyword null drawn the same way),
alone or times the peakedness. On the skills catalogue every query's best score clears the
probes' in both channels, so both weights sit near 1 and cannot choose between them (no
variant passed the peakedness alone there); where they did vary they lost on restbench-tmdb.
A per-query weight needs a reference nearer real queries than off-topic probes.

Tried and left out after the fusion (December 2026, skills dev and metatool, scratch
patches of the fused list's top 60), each label-free: copies of one component
(`components.dedup` groups) pulled up to just below their best-ranked member, or listed
right after it; items of the plugin the top hits come from raised by those hits' scores
(a cluster prior, as in Diaz 2005's score regularisation); each kind's scores normalised
by that kind's best (skills dev's top tens hold more skills than its judgments, which
hold more agents). None moved skills dev's nDCG@10 by a point; the plugin prior changed
sign with its weight, and each would be chosen on the very queries that judge it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from types import MappingProxyType

from skill_retriever.algorithms.normalise import minmax
from skill_retriever.algorithms.rrf import FusedItem

__all__ = ["PEAK_DEPTH", "listed_first", "peakedness", "score_fusion"]

#: How many of a channel's top scores its peakedness compares the best with.
PEAK_DEPTH = 10
#: A channel whose list is perfectly flat still keeps this share of its weight.
MIN_PEAK = 1e-3


def peakedness(scores: Sequence[float], depth: int = PEAK_DEPTH) -> float:
    """How far the best of ``scores`` (best first) stands out from its top ``depth``:
    ``(s_1 - mean) / s_1`` in [0, 1]; 1 for a single score or none positive."""
    top = [s for s in scores[:depth]]
    if len(top) < 2 or top[0] <= 0:
        return 1.0
    return max(0.0, (top[0] - math.fsum(top) / len(top)) / top[0])


def score_fusion(
    rankings: Mapping[str, Sequence[tuple[str, float | None]]],
    weights: Mapping[str, float] | None = None,
    confident: Collection[str] = (),
) -> list[FusedItem]:
    """Fuse channels by their min-max normalised scores, each weighted by its peakedness.

    Args:
        rankings: Channel -> ``(id, score)`` pairs, best first; a score of None (a list
            without scores) counts as 1 for every item and as fully confident.
        weights: Channel -> base weight >= 0 (1.0 when not named; 0 switches it off).
        confident: Channels that count as fully confident whatever the shape of their
            scores (evidence the query itself asked for, such as a typed hop's walk).

    Returns:
        Fused items by score, highest first; ties by the number of channels that found
        the item, its best rank, then its id.
    """
    weights = weights or {}
    peaks: dict[str, float] = {}
    normed: dict[str, dict[str, float]] = {}
    ranks: dict[str, dict[str, int]] = {}
    for channel, hits in rankings.items():
        if weights.get(channel, 1.0) <= 0 or not hits:
            continue
        scores = [s for _, s in hits]
        if any(s is None for s in scores):
            peaks[channel] = 1.0
            values = [1.0] * len(hits)
        else:
            numeric = [float(s) for s in scores if s is not None]
            peaks[channel] = 1.0 if channel in confident else max(MIN_PEAK, peakedness(numeric))
            values = minmax(numeric, flat=1.0).tolist()  # a lone or flat list counts fully
        mine = normed.setdefault(channel, {})
        for rank, ((item, _), value) in enumerate(zip(hits, values, strict=True), 1):
            if item not in mine:
                mine[item] = value
                ranks.setdefault(item, {})[channel] = rank
    top_peak = max(peaks.values(), default=1.0)
    fused = [
        FusedItem(
            id=item,
            score=math.fsum(
                weights.get(c, 1.0) * (peaks[c] / top_peak) * normed[c][item] for c in item_ranks
            ),
            ranks=MappingProxyType(item_ranks),
        )
        for item, item_ranks in ranks.items()
    ]
    fused.sort(key=lambda f: (-f.score, -len(f.ranks), min(f.ranks.values()), f.id))
    return fused


def listed_first(fused: Sequence[FusedItem], channels: Collection[str]) -> list[FusedItem]:
    """``fused`` in tiers: the items that more of ``channels`` list come first, each tier in
    its own order (:func:`tiered`)."""
    return tiered(fused, lambda f: sum(c in f.ranks for c in channels))


def tiered(fused: Sequence[FusedItem], level: Callable[[FusedItem], int]) -> list[FusedItem]:
    """``fused`` in tiers, the higher ``level`` first, each tier in its own order. Each
    tier's scores are raised by one amount, just enough to put its weakest item above the
    best of the tiers below, so the scores still follow the order (a later phase that
    sorts by score keeps it)."""
    tiers: dict[int, list[FusedItem]] = {}
    for f in fused:
        tiers.setdefault(level(f), []).append(f)
    out: list[FusedItem] = []
    below = -math.inf  # the best score of the tiers placed so far (all lower)
    for count in sorted(tiers):
        tier = tiers[count]
        worst = min(f.score for f in tier)
        lift = 0.0 if worst > below else below - worst + 1e-9 * max(1.0, abs(below))  # strictly above
        out[:0] = [FusedItem(id=f.id, score=f.score + lift, ranks=f.ranks) for f in tier]
        below = max(f.score for f in out[: len(tier)])
    return out
