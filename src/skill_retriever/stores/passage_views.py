"""What a graph walk over a passage corpus reads from one snapshot, cached on the snapshot.

Each view is built on first use and kept with :meth:`IndexSnapshot.memo`, so like every
derived view it can never be stale: a write publishes a new snapshot with empty caches.

* `answer_filters`: what a channel may return (entities and facts only when asked for);
* `passage_counts`: for each entity, how many passages it is joined to (the inverse of
  HippoRAG's node specificity, ``algorithms.restart.specificity``);
* `walk_adjacency`: the visible adjacency, with or without the SAME_AS edges
  (``ingest.synonyms``), so one index answers both sides of the synonym ablation;
* `fact_links`: for a fact node, the entities it names other than its passage's subject;
* `proper_name_ids`: the entities and passages a query names as proper names;
* `search_within`: an exact search over only the rows a filter admits (`search_facts`:
  the facts nearest a query);
* `relation_kinds`: the edge kinds a typed hop could follow here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from skill_retriever.algorithms.restart import proper_names
from skill_retriever.algorithms.tokenize import fold_accents
from skill_retriever.filters import Filters
from skill_retriever.model import ANSWER_KINDS, EdgeKind, NodeKind
from skill_retriever.stores.exact_search import top_k
from skill_retriever.stores.graph import build_matrices
from skill_retriever.stores.kind_counts import kind_counts
from skill_retriever.stores.snapshot import IndexSnapshot, masked_adjacency
from skill_retriever.stores.snapshot_search import ordered
from skill_retriever.stores.vectors import VectorHit


def passage_counts(snap: IndexSnapshot) -> NDArray[np.float64]:
    """Per row of ``snap.graph``: for an entity, how many passages share an edge with it;
    0 for every other node."""

    def build() -> NDArray[np.float64]:
        gm = snap.graph
        kinds = [snap.nodes[i].kind for i in gm.ids]
        passages = np.fromiter((k == NodeKind.PASSAGE for k in kinds), dtype=np.float64, count=len(kinds))
        linked = sp.csr_array(gm.adjacency, copy=True)
        linked.data[:] = 1.0
        counts = np.asarray(linked @ passages, dtype=np.float64)
        counts[np.fromiter((k != NodeKind.ENTITY for k in kinds), dtype=bool, count=len(kinds))] = 0.0
        return counts

    return snap.memo("passage_counts", None, build)


def walk_adjacency(snap: IndexSnapshot, filters: Filters, synonyms: bool = True) -> sp.csr_array:
    """The adjacency the walk takes over what the caller may see; ``synonyms=False``
    leaves the SAME_AS edges out (same rows as ``snap.graph``)."""
    if synonyms or not snap.memo("has_same_as", None, lambda: any(e.kind == EdgeKind.SAME_AS
                                                                   for e in snap.edges.values())):
        return snap.visible_adjacency(filters)

    def build() -> sp.csr_array:
        gm = build_matrices(snap.graph.ids, (e for e in snap.edges.values() if e.kind != EdgeKind.SAME_AS))
        mask = snap.allowed_mask(filters.visibility())
        return gm.adjacency if mask is None else masked_adjacency(gm.adjacency, mask)

    return snap.memo("walk_without_synonyms", filters.visibility().principals, build, 4)


def proper_name_ids(snap: IndexSnapshot, query: str, found: Sequence[str] = ()) -> list[str]:
    """Nodes (not facts) whose name the query writes as a proper name
    (``algorithms.restart.proper_names``), accents ignored on both sides: a query typed
    without them ("Aschenbrodel") still names the passage "Aschenbrödel".

    Args:
        snap: The snapshot.
        query: The query text.
        found: Names found in the query already (the planner's entities: capitalised
            words too, such as "Greenfield" in "Greenfield-Central").
    """

    by_name = snap.names.by_folded  # built with the planner's matcher, in one pass
    text = fold_accents(query)
    names = proper_names(text, [*snap.names.folded_matcher.find(text), *(fold_accents(f) for f in found)])
    return list(dict.fromkeys(i for name in names for i in by_name.get(name.casefold(), ())))


def search_within(snap: IndexSnapshot, qvec: NDArray[np.float32], k: int, filters: Filters) -> list[VectorHit]:
    """``snap.search_nodes`` over only the rows ``filters`` admit, kept as one matrix per
    filter: a search for passages in a corpus of passages, entities and facts multiplies
    a tenth of the rows. Same answer, same order (score to 6 decimals, then id); access
    labels, missing vectors or a vector server take the general path."""
    mask = snap.allowed_mask(filters)
    if mask is None or snap.has_access_labels or not _all_vectors(snap):
        return snap.search_nodes(qvec, k, filters)

    def build() -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        rows = np.flatnonzero(mask)
        return rows, np.ascontiguousarray(snap.embeddings[rows])

    rows, matrix = snap.memo("rows_within", filters, build, 4)
    ids = snap.graph.ids
    hits = [VectorHit(ids[rows[r]], s) for r, s in top_k(matrix, qvec.reshape(1, -1), k)[0]]
    return ordered(hits)


def _all_vectors(snap: IndexSnapshot) -> bool:
    return snap.memo("all_vectors", None, lambda: snap.vector_ids()[0] == frozenset(snap.nodes))


def search_facts(snap: IndexSnapshot, qvec: NDArray[np.float32], k: int, visible: Filters) -> list[VectorHit]:
    """The ``k`` facts nearest the query that the caller may see."""
    return search_within(snap, qvec, k, dataclasses.replace(visible, kinds=frozenset({NodeKind.FACT.value})))


def relation_kinds(snap: IndexSnapshot) -> frozenset[EdgeKind]:
    """Edge kinds that may join two items a query can name: every kind, unless the index
    holds facts (scaffolding, whose PART_OF edges are no relation), where the edges are
    read once. A typed hop over any other kind finds nothing here."""
    if not kind_counts(snap).get(NodeKind.FACT.value):
        return frozenset(EdgeKind)
    return snap.memo("relation_kinds", None, lambda: frozenset(
        e.kind for e in snap.edges.values()
        if snap.nodes[e.source].kind != NodeKind.FACT and snap.nodes[e.target].kind != NodeKind.FACT))


def answer_filters(snap: IndexSnapshot, filters: Filters) -> Filters:
    """``filters`` for what a channel may return: in a passage corpus (one that holds
    facts), a caller who names no kinds gets every kind that can be an answer
    (`model.ANSWER_KINDS`): no facts, which are sentences of a passage (the passage is the
    answer), and no entities, a few words each. Elsewhere an ``entity`` node may be a
    user's own item, so nothing is taken out."""
    if filters.kinds is not None or not kind_counts(snap).get(NodeKind.FACT.value):
        return filters
    return dataclasses.replace(filters, kinds=ANSWER_KINDS)


def fact_links(snap: IndexSnapshot, fact_id: str) -> tuple[str, ...]:
    """The entities a fact names, without the subject of its passage (``attrs["subject"]``):
    the fact itself leads there; the others are where a second hop goes."""
    subject = snap.nodes[fact_id].attrs.get("subject")
    return tuple(e.target for e in snap.out_edges(fact_id, EdgeKind.MENTIONS) if e.target != subject)


__all__ = [
    "answer_filters", "fact_links", "passage_counts", "proper_name_ids", "relation_kinds", "search_facts", "search_within",
    "walk_adjacency",
]
