"""Pseudo-relevance feedback for the semantic channel: move the query vector toward the
items a first keyword + semantic fusion ranks best, then search again.

An embedding model reads a window of its text (all-MiniLM-L6-v2: 256 word pieces, about
190 English words), so a skill of 1,500 word pieces is searched by its name, description
and first paragraphs only; BM25 reads all of it. Where most items run past the window,
the semantic channel misses what the keyword channel sees, and a request that describes
a situation ("patients waiting for triage nurses and beds") can rank the item that holds
the answer in its body below items whose opening merely sounds alike. The items both
channels together rank first are better evidence of what the request is about than its
own words: their vectors, added to the query's, pull the second search toward items like
them (Rocchio 1971, "Relevance feedback in information retrieval", The SMART Retrieval
System; dense-vector PRF as in Li et al. 2023, "Pseudo relevance feedback with deep
language models and dense retrievers: successes and pitfalls", TOIS)::

    q' = (q + w · mean(v_1..v_n)) / |q + w · mean(v_1..v_n)|

where v_1..v_n are the unit vectors of the ``n`` best items of the first fusion. The
first search, against ``q`` alone, still seeds the graph and decides "nothing fits"
(calibrated on it: ``calibration.fit``); only the semantic channel's list is the second
search's. Where it is on, and the measurements that chose it: ``calibration.defaults``.

Tried and left out (December 2026, skills dev, a scratch patch of the keyword channel):
the same feedback items expanding the keyword channel's query too (RM3-like, Lavrenko &
Croft 2001: the items' 5-20 terms of highest frequency x idf not already in the query,
mixed in at 0.15-0.3 of the query's BM25, from 1-3 items). Recall@10 rose a little and
nDCG@10 and MRR fell every way: the words a long skill repeats are its topic's, not the
request's, and BM25 already reads all of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from skill_retriever.algorithms.score_fusion import score_fusion

__all__ = ["feedback_items", "rocchio"]


def feedback_items(
    keyword: Sequence[tuple[str, float]], semantic: Sequence[tuple[str, float]], n: int
) -> list[str]:
    """The ``n`` best items of the score fusion (`score_fusion`) of a keyword and a
    semantic list, each ``(id, score)`` best first; none when either list is empty: the
    feedback is the two channels' joint evidence, and one channel alone would only
    repeat what it already ranked."""
    if n <= 0 or not keyword or not semantic:
        return []
    fused = score_fusion({"keyword": keyword, "semantic": semantic})
    return [f.id for f in fused[:n]]


def rocchio(query: NDArray[np.float32], feedback: NDArray[np.float32], weight: float) -> NDArray[np.float32]:
    """``query`` moved toward the mean of the rows of ``feedback`` by ``weight``, unit length.

    Args:
        query: The query's unit vector, shape ``(d,)``.
        feedback: The feedback items' unit vectors, shape ``(n, d)``; no rows = ``query``.
        weight: How far the mean pulls (0 = the query unchanged).
    """
    if weight < 0:
        raise ValueError(f"weight must be >= 0, got {weight}")
    query = np.asarray(query, dtype=np.float32)
    if feedback.shape[0] == 0 or weight == 0:
        return query
    moved = query + np.float32(weight) * np.asarray(feedback, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(moved))
    # A mean exactly opposite the query cancels it: nothing to move toward, keep the query.
    return query if norm < 1e-6 else (moved / norm).astype(np.float32)
