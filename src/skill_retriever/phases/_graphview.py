"""Helpers the graph phases share: id <-> matrix row, similarity to the query, masks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from skill_retriever.filters import Filters
from skill_retriever.model import Node
from skill_retriever.state import ChannelHit, RetrievalState
from skill_retriever.stores.graph import GraphMatrices
from skill_retriever.stores.index import Index

#: Coverage reads this much of an item's text (name and description come first): a
#: query costs the same whether an item is 2 KB or 2 MB long.
COVERAGE_CHARS = 20_000


def coverage_text(node: Node) -> str:
    """The part of an item that coverage checks read."""
    return node.embedding_text()[:COVERAGE_CHARS]


def query_vector(state: RetrievalState) -> NDArray[np.float32]:
    return np.asarray(state["query_vector"], dtype=np.float32)


def rows_of(gm: GraphMatrices, ids: Iterable[str]) -> list[int]:
    return [gm.index[i] for i in ids if i in gm.index]


def similarity_fn(emb: NDArray[np.float32], q: NDArray[np.float32]) -> Callable[[NDArray[np.int64]], NDArray[np.float32]]:
    """Cosine to the original query for given rows (vectors are normalised)."""
    return lambda rows: emb[np.asarray(rows, dtype=np.int64)] @ q


def visible_mask(index: Index, filters: Filters, gm: GraphMatrices) -> NDArray[np.bool_] | None:
    """Rows the caller may traverse (access only); None when all are visible."""
    return index.allowed_mask(Filters(principals=filters.principals), gm)


def admitted_ranking(index: Index, filters: Filters, scored: Sequence[tuple[str, float]], depth: int) -> list[ChannelHit]:
    """A channel's ranked list, keeping only items every filter admits, best first."""
    pred = index.allowed(filters)
    out: list[ChannelHit] = []
    for node_id, score in sorted(scored, key=lambda p: (-p[1], p[0])):
        if pred is None or pred(node_id):
            out.append({"id": node_id, "score": float(score)})
            if len(out) >= depth:
                break
    return out
