"""rank_multifactor: score the smart route's candidates by 0.50 semantic + 0.20 degree
centrality + 0.15 edge density + 0.15 coverage, keep the best 50 nodes and 70 edges."""

from __future__ import annotations

import numpy as np

from skill_retriever.algorithms.multifactor import (
    FactorWeights,
    multifactor_scores,
    select_subgraph,
    subgraph_degree_centrality,
    subgraph_edge_density,
)
from skill_retriever.algorithms.query_terms import coverage_of_vocabularies
from skill_retriever.calibration.long_items import LONG_ITEM_WORDS
from skill_retriever.context import QueryView
from skill_retriever.phases._helpers import admitted_ranking, query_vector, rows_of
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import RetrievalState
from skill_retriever.stores.passage_views import answer_filters


@phase(optional=True)
def rank_multifactor(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    if config.multifactor_ranking is False:  # left out of the fusion (calibration.long_items says why)
        return {"stats": {"ranking": _off_words(view)}}
    gm, emb = snap.graph, snap.embeddings
    rows = rows_of(gm, (c["id"] for c in state.get("candidates", [])))
    if not rows:
        return {"stats": {"candidates": 0}}
    sims = emb[np.asarray(rows)] @ query_vector(state, view)
    semantic = {r: float(s) for r, s in zip(rows, sims, strict=True)}
    components = state["plan"]["components"]
    cover = {
        r: coverage_of_vocabularies(components, [snap.vocabulary(snap.nodes[gm.ids[r]])]).ratio if components else 0.0
        for r in rows
    }
    # The edges the caller may see: a private neighbour counted in a candidate's edge density
    # ranked it lower, which told a public caller that hidden items hang off it.
    adjacency = snap.visible_adjacency(view.visible)
    weights = FactorWeights(config.factor_semantic, config.factor_degree, config.factor_edge_density, config.factor_coverage)
    scores = multifactor_scores(
        semantic,
        subgraph_degree_centrality(adjacency, rows),
        subgraph_edge_density(adjacency, rows, symmetric=True),  # adjacency holds every edge both ways
        cover,
        weights,
    )
    sub = adjacency[np.asarray(rows)][:, np.asarray(rows)].tocoo()
    edges = [(rows[i], rows[j]) for i, j in zip(sub.row, sub.col, strict=True) if i < j]
    kept, kept_edges = select_subgraph(scores, edges, config.keep_nodes, config.keep_edges)
    scored = [(gm.ids[r], scores[r]) for r in kept]
    update: Update = {
        "stats": {
            "candidates": len(rows),
            "kept_nodes": len(kept),
            "kept_edges": len(kept_edges),
            "weights": [weights.semantic, weights.degree, weights.edge_density, weights.coverage],
        }
    }
    if config.channel_on("graph"):
        update["channel_rankings"] = {"graph": admitted_ranking(snap, answer_filters(snap, view.filters), scored, config.channel_depth)}
    return update


def _off_words(view: QueryView) -> str:
    """Why the ranking is off and what went with it. A False the index suggests is said to
    be the index's (a caller who set the same value changed nothing, as the route says)."""
    from skill_retriever.calibration.defaults import index_defaults

    suggested = index_defaults(view.snapshot, view.filters).settings.get("multifactor_ranking", True)
    if view.config.use_calibration and suggested is False:
        why = (f"as the index suggests: most of its items run past {LONG_ITEM_WORDS} words, beyond what the "
               "embedding reads (`stats` gives the share)")
    else:
        why = f"set by the caller (the index suggests {suggested})"
    return f"off: multifactor_ranking=False, {why}; no graph channel fused, no expansion, coverage check or gap filling"
