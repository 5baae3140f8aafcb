"""Explicit diversification over a query's sub-queries: xQuAD (Santos, Macdonald and
Ounis 2010, "Exploiting query reformulations for web search result diversification",
WWW).

The ranking is rebuilt greedily; each pick is the item with the highest gain::

    gain(d) = (1 - λ) · rel(d) + λ · Σ_i P(q_i) · rel_i(d) · Π_{s picked} (1 - rel_i(s))

``rel(d)`` is the item's score in the ranking scaled to [0, 1] (0 for an item only a
sub-query found), ``rel_i(d)`` its score for sub-query ``i`` scaled to [0, 1], and
``P(q_i)`` uniform. The product is how much of sub-query ``i`` the picks so far leave
open: once an item answers an ask, the next pick gains from the asks still open. No
item's gain can rise as picks are made, so the gains of the picks, in order, never rise:
they are the new ranking's scores. Below ``depth`` picks the rest follow by their gain
once the top is chosen, each at most the last pick's: the order still matches the scores,
and a long list costs one pass instead of a greedy step per item.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from skill_retriever.algorithms.normalise import by_max

__all__ = ["xquad"]


def xquad(
    ranking: Sequence[tuple[str, float]],
    aspects: Sequence[Mapping[str, float]],
    lam: float,
    depth: int | None = None,
) -> list[tuple[str, float]]:
    """``(id, gain)`` best first: every item of ``ranking`` (``(id, score >= 0)``, best
    first) and of ``aspects`` (per sub-query ``id -> score >= 0``, any scale), reordered
    so the top covers the aspects. Ties keep the order of ``ranking``, then of the aspects.
    With no aspects or ``lam`` 0 the ranking's order is kept. ``depth`` (None: every
    item) is how many items are picked greedily."""
    ids = list(dict.fromkeys([d for d, _ in ranking] + [d for a in aspects for d in a]))
    if not ids:
        return []
    at = {d: i for i, d in enumerate(ids)}
    base = np.zeros(len(ids))
    for d, s in ranking:
        base[at[d]] = max(float(s), 0.0)
    rel = by_max(base)
    table = np.zeros((len(aspects), len(ids)))
    for row, aspect in enumerate(aspects):
        for d, s in aspect.items():
            table[row, at[d]] = max(float(s), 0.0)
        table[row] = by_max(table[row])
    share = 1.0 / len(aspects) if aspects else 0.0
    still_open = np.ones(len(aspects))
    left = np.ones(len(ids), dtype=bool)
    out: list[tuple[str, float]] = []
    for _ in range(len(ids) if depth is None else min(depth, len(ids))):
        gain = (1.0 - lam) * rel + lam * share * (still_open @ table)
        gain[~left] = -np.inf
        best = int(np.argmax(gain))  # the first of equal gains: the ranking's order
        out.append((ids[best], float(gain[best])))
        left[best] = False
        still_open *= 1.0 - table[:, best]
    gain = (1.0 - lam) * rel + lam * share * (still_open @ table)
    rest = np.flatnonzero(left)
    rest = rest[np.argsort(-gain[rest], kind="stable")]  # equal gains: the ranking's order
    return out + [(ids[i], float(gain[i])) for i in rest]
