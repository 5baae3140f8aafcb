"""Ranking metrics, as plain functions over one query's ranked ids and its judgments.

Definitions (each pinned by a hand-computed test in ``tests/bench/test_metrics.py``):

* ``recall_at_k`` -- HippoRAG's passage recall: the share of a query's gold items found
  in the top ``k`` (duplicates in the gold list count once). Averaged over queries by
  the caller.
* ``mrr`` -- reciprocal rank of the first item with grade >= 1 in the ranked list
  (0 when none is there). The lists evaluated here are cut at 10, so this is MRR@10.
* ``ndcg_at_k`` -- graded nDCG with linear gain, ``DCG = Σ_i grade_i / log2(i + 1)``
  over ranks ``i = 1..k``, divided by the DCG of the ideal ordering of all judged
  grades (Järvelin and Kekäläinen 2002; the gain ``trec_eval`` and BEIR use).
* ``completeness_at_k`` -- 1 when every relevant item is in the top ``k``, else 0
  (what an agent that must call every needed tool needs).

A query with no relevant item has no defined recall, nDCG or completeness; the
functions return ``None`` for it and :func:`mean` skips ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

Judgments = Mapping[str, int] | Iterable[str]

__all__ = ["completeness_at_k", "grades", "mean", "mrr", "ndcg_at_k", "recall_at_k"]


def grades(relevant: Judgments) -> dict[str, int]:
    """Judgments as ``id -> grade``; a plain list of ids means grade 1 each. Grades <= 0
    are dropped (not relevant)."""
    if isinstance(relevant, Mapping):
        return {str(k): int(v) for k, v in relevant.items() if int(v) > 0}
    return {str(i): 1 for i in relevant}


def _dedup(ranked: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(ranked))


def recall_at_k(ranked: Sequence[str], relevant: Judgments, k: int) -> float | None:
    """Share of the relevant ids found in the top ``k`` of ``ranked``."""
    gold = grades(relevant)
    if not gold:
        return None
    top = set(_dedup(ranked)[:k])
    return sum(1 for g in gold if g in top) / len(gold)


def mrr(ranked: Sequence[str], relevant: Judgments) -> float | None:
    """1 / rank of the first relevant id (grade >= 1); 0.0 when none is ranked."""
    gold = grades(relevant)
    if not gold:
        return None
    for rank, item in enumerate(_dedup(ranked), 1):
        if item in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: Judgments, k: int) -> float | None:
    """Graded nDCG@k with linear gain and ``log2(rank + 1)`` discount."""
    gold = grades(relevant)
    if not gold:
        return None
    dcg = sum(gold.get(item, 0) / math.log2(rank + 1) for rank, item in enumerate(_dedup(ranked)[:k], 1))
    ideal = sorted(gold.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal, 1))
    return dcg / idcg


def completeness_at_k(ranked: Sequence[str], relevant: Judgments, k: int) -> float | None:
    """1.0 when all relevant ids are in the top ``k``, else 0.0."""
    gold = grades(relevant)
    if not gold:
        return None
    top = set(_dedup(ranked)[:k])
    return 1.0 if all(g in top for g in gold) else 0.0


def mean(values: Iterable[float | None]) -> float | None:
    """Mean of the defined values; None when there is none."""
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None
