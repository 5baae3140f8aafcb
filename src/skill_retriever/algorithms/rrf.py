"""Reciprocal Rank Fusion (RRF).

Cormack, G. V., Clarke, C. L. A. and Büttcher, S. (2009). "Reciprocal rank fusion
outperforms Condorcet and individual rank learning methods." SIGIR '09, 758-759.
https://doi.org/10.1145/1571941.1572114

``score(d) = Σ_c w_c / (k + rank_c(d))`` with ``k = 60`` and ranks starting at 1; a
document missing from a channel adds nothing for that channel. The paper's form has
``w_c = 1``; per-channel weights are the common weighted variant, and ``w_c = 0``
switches a channel off entirely (its items neither score nor appear).

Duplicates inside one channel count once: a channel's ranks are positions in its list
with later repeats removed, so ``["a", "b", "a", "c"]`` ranks ``a=1, b=2, c=3``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from skill_retriever.exceptions import ConfigError

__all__ = ["FusedItem", "reciprocal_rank_fusion"]

#: The constant of the paper; it damps the weight of the very top ranks.
DEFAULT_K = 60


@dataclass(frozen=True)
class FusedItem:
    """One fused result.

    Attributes:
        id: The item's id.
        score: Its RRF score, ``Σ_c w_c / (k + rank_c)``, summed exactly (``math.fsum``).
        ranks: Channel name -> the 1-based rank the channel gave the item (read-only).
    """

    id: str
    score: float
    ranks: Mapping[str, int]


def _dedup_ranks(items: Sequence[str]) -> dict[str, int]:
    ranks: dict[str, int] = {}
    for item in items:
        if item not in ranks:
            ranks[item] = len(ranks) + 1
    return ranks


def _check_args(k: int, weights: Mapping[str, float], limit: int | None) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
        raise ConfigError(f"RRF k must be a positive integer (the paper uses 60), got {k!r}")
    for channel, w in weights.items():
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not (0.0 <= w < math.inf):
            raise ConfigError(
                f"RRF weight for channel {channel!r} must be a finite number >= 0 "
                f"(0 switches the channel off), got {w!r}"
            )
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ConfigError(f"RRF limit must be None or an integer >= 0, got {limit!r}")


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[str]],
    k: int = DEFAULT_K,
    weights: Mapping[str, float] | None = None,
    limit: int | None = None,
) -> list[FusedItem]:
    """Fuse several ranked lists into one with Reciprocal Rank Fusion.

    Args:
        rankings: Channel name -> item ids, best first. Empty lists are fine.
        k: The RRF constant, a positive integer.
        weights: Channel name -> weight >= 0; a channel not named weighs 1.0, a weight
            for a channel not in ``rankings`` is ignored, and 0 switches a channel off.
        limit: Keep at most this many results; None keeps all.

    Returns:
        Fused items by score, highest first. Equal scores are ordered by the number of
        channels that found the item (more first), then its best rank (lower first),
        then its id, so the order never depends on the mapping's iteration order.

    Raises:
        ConfigError: ``k`` is not a positive integer, a weight is negative or not finite,
            or ``limit`` is negative.
    """
    weights = {} if weights is None else weights
    _check_args(k, weights, limit)
    found: dict[str, dict[str, int]] = {}
    for channel, items in rankings.items():
        if weights.get(channel, 1.0) == 0:
            continue
        for item, rank in _dedup_ranks(items).items():
            found.setdefault(item, {})[channel] = rank

    fused = [
        FusedItem(
            id=item,
            score=math.fsum(float(weights.get(c, 1.0)) / (k + r) for c, r in ranks.items()),
            ranks=MappingProxyType(ranks),
        )
        for item, ranks in found.items()
    ]
    fused.sort(key=lambda f: (-f.score, -len(f.ranks), min(f.ranks.values()), f.id))
    return fused if limit is None else fused[:limit]
