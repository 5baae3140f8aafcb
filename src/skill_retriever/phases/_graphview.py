"""Helpers the graph phases share: id <-> matrix row, similarity to the query, masks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from skill_retriever.algorithms.ppr import transition_matrix
from skill_retriever.algorithms.query_terms import text_vocabulary
from skill_retriever.filters import Filters
from skill_retriever.identity_cache import IdentityLRU
from skill_retriever.model import Node
from skill_retriever.state import ChannelHit, RetrievalState
from skill_retriever.stores.graph import GraphMatrices
from skill_retriever.stores.index import Index

#: Coverage reads this much of an item's text (name and description come first): a
#: query costs the same whether an item is 2 KB or 2 MB long.
COVERAGE_CHARS = 20_000


#: How many items' word sets the coverage checks keep. The smart route reads every
#: candidate's words up to four times per query (each completeness round and the
#: multifactor score) and would tokenise them each time (docs/scaling.md has the
#: phases before and after). A few thousand sets cover the candidates of many recent
#: queries.
VOCABULARY_CACHE_SIZE = 4096


def coverage_text(node: Node) -> str:
    """The part of an item that coverage checks read."""
    return node.embedding_text()[:COVERAGE_CHARS]


_VOCABULARIES: IdentityLRU[frozenset[str]] = IdentityLRU(VOCABULARY_CACHE_SIZE)


def coverage_vocabulary(node: Node) -> frozenset[str]:
    """The words of the part of ``node`` that coverage reads, cached per Node object (an
    updated item is a new object, so it is read afresh)."""
    return _VOCABULARIES.get_or_build(node.id, (node,), lambda: text_vocabulary(coverage_text(node)))


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


#: The adjacency and transition matrices with a caller's invisible rows cut out. Building
#: them passes over every edge, so the last few are kept per matrix snapshot and mask (the
#: index hands out one mask object per filter and snapshot).
_MASKED: IdentityLRU[tuple[sp.csr_array, sp.csr_array]] = IdentityLRU(8)


def _masked(gm: GraphMatrices, mask: NDArray[np.bool_]) -> tuple[sp.csr_array, sp.csr_array]:
    d = sp.diags_array(mask.astype(np.float64))
    adjacency = sp.csr_array(d @ gm.adjacency @ d)
    return adjacency, transition_matrix(adjacency)


def visible_matrices(gm: GraphMatrices, mask: NDArray[np.bool_] | None) -> tuple[sp.csr_array, sp.csr_array]:
    """``(adjacency, transition)`` over the rows ``mask`` lets the caller see (all when
    None): invisible nodes neither receive nor pass anything."""
    if mask is None:
        return gm.adjacency, gm.transition
    return _MASKED.get_or_build((id(gm), id(mask)), (gm, mask), lambda: _masked(gm, mask))


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
