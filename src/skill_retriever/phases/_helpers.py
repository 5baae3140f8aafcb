"""Small helpers the graph phases share: ids to matrix rows, similarity to the query, and
a channel's ranked list cut to what the filters admit."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from skill_retriever.filters import Filters
from skill_retriever.state import ChannelHit, RetrievalState
from skill_retriever.stores.graph import GraphMatrices
from skill_retriever.stores.snapshot import IndexSnapshot


def query_vector(state: RetrievalState) -> NDArray[np.float32]:
    return np.asarray(state["vector"], dtype=np.float32)


def rows_of(gm: GraphMatrices, ids: Iterable[str]) -> list[int]:
    return [gm.index[i] for i in ids if i in gm.index]


def similarity_fn(emb: NDArray[np.float32], q: NDArray[np.float32]) -> Callable[[NDArray[np.int64]], NDArray[np.float32]]:
    """Cosine to the original query for given rows (vectors are normalised)."""
    return lambda rows: emb[np.asarray(rows, dtype=np.int64)] @ q


def admitted_ranking(
    snapshot: IndexSnapshot, filters: Filters, scored: Sequence[tuple[str, float]], depth: int
) -> list[ChannelHit]:
    """A channel's ranked list, keeping only items every filter admits, best first."""
    pred = snapshot.allowed(filters)
    out: list[ChannelHit] = []
    for node_id, score in sorted(scored, key=lambda p: (-p[1], p[0])):
        if pred is None or pred(node_id):
            out.append({"id": node_id, "score": float(score)})
            if len(out) >= depth:
                break
    return out
