"""run_ppr: Personalized PageRank from the seeds, with adaptive alpha (0.9 for a specific
query with a named entity and <= 3 seeds, 0.6 for a broad one with > 5 seeds, 0.85
otherwise); scores below 0.001 are dropped.

The restart vector (``algorithms.restart``) is the seeds' weights, each entity's times its
specificity (``specificity``), plus, when asked, every passage's own evidence: its cosine
to the query (``ppr_dense_weight``) and its BM25 hit (``ppr_keyword_weight``, from the
keyword channel, which ran before the seeds). The walk crosses SAME_AS edges unless
``synonyms`` is off."""

from __future__ import annotations

import numpy as np

from skill_retriever.algorithms.ppr import adaptive_alpha, top_scores
from skill_retriever.algorithms.ppr_ranked import ranked_pagerank
from skill_retriever.algorithms.restart import restart_vector, specificity
from skill_retriever.context import QueryView
from skill_retriever.model import SCAFFOLD_KINDS
from skill_retriever.phases._helpers import query_vector, rows_of
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import RetrievalState
from skill_retriever.stores.passage_views import passage_counts, walk_adjacency
from skill_retriever.stores.walks import walk_of

MAX_KEPT = 1000  # PPR scores carried in the state (the tail adds nothing to a ranking)
GRAPH_OFF = "the graph channel is off (weight 0): nothing reads the walk"


@phase(optional=True)
def run_ppr(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    if not config.channel_on("graph"):  # the walk's only reader: its paths would explain what counted for nothing
        return {"ppr_scores": {}, "stats": {"skipped": GRAPH_OFF}}
    gm = snap.graph
    seeds = state.get("seeds", [])
    rows = rows_of(gm, (s["id"] for s in seeds))
    if not rows:
        return {"ppr_scores": {}, "stats": {"seeds": 0}}
    weights: dict[int, float] = {}
    for s in seeds:
        row = gm.index[s["id"]]
        weights[row] = weights.get(row, 0.0) + max(float(s["similarity"]), 0.01)
    dense_weight, keyword_weight = config.ppr_dense_weight or 0.0, config.ppr_keyword_weight or 0.0
    p = restart_vector(
        len(gm.ids), weights,
        _dense(view, query_vector(state, view)) if dense_weight > 0 else None, dense_weight,
        # The keyword list's first `fusion_depth` hits: a longer list (a k past it) would
        # spread the restart over more items and move the whole walk.
        {gm.index[h["id"]]: h["score"] for h in state.get("channel_rankings", {}).get("keyword", [])[: view.fusion_depth]
         if h["id"] in gm.index} if keyword_weight > 0 else None, keyword_weight,
    )
    added = int(np.count_nonzero(p)) - len(weights)  # nodes the passages' own evidence restarts at, for the stats
    lowered = 0  # restart weights specificity lowered, for the stats
    if config.specificity:
        factor = specificity(passage_counts(snap), config.specificity)
        lowered = int(np.count_nonzero((factor < 1.0) & (p > 0)))
        p *= factor
    mask = snap.allowed_mask(view.visible)
    # Access control before any maths: invisible nodes neither receive nor pass mass.
    adjacency = walk_adjacency(snap, view.filters, config.synonyms is not False)
    if mask is not None:
        p = p * mask
        if not p.any():
            return {"ppr_scores": {}, "stats": {"seeds": 0}}
    alpha = adaptive_alpha(
        bool(state["plan"]["entities"]), len(rows), config.alpha_specific, config.alpha_broad, config.alpha_default
    )
    # On the walk of that matrix, prepared once per snapshot (stores.walks), from a
    # warm start, to networkx's L1 rule (or, with ppr_settle, once the ranks settle).
    top = len(rows) + max(config.flow_max_endpoints, config.k)
    # networkx's stop is "L1 change below N * tol": N counted over the nodes the caller may
    # see, else how long the walk ran (its iterations stat, its scores) told how many they may not.
    tol = config.ppr_tol if mask is None else config.ppr_tol * float(mask.sum()) / max(len(mask), 1)
    ranked = ranked_pagerank(walk_of(snap, adjacency, config.ppr_tol), p, alpha, top, config.ppr_settle, tol,
                             config.ppr_max_iter)
    scores, steps = ranked.scores, ranked.iterations
    kept = top_scores(scores, config.ppr_min_score, limit=MAX_KEPT)
    return {
        "alpha": alpha,
        "ppr_scores": {gm.ids[r]: float(s) for r, s in kept},
        "stats": {"seeds": len(rows), "alpha": alpha, "min_score": config.ppr_min_score, "nodes_scored": len(kept),
                  "iterations": steps, "settled": ranked.settled,
                  "specificity": config.specificity, "specific_seeds": lowered,
                  "dense_weight": dense_weight, "keyword_weight": keyword_weight, "restart_added": added},
    }


def _dense(view: QueryView, qvec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows the caller asked for that are not scaffolding, and their cosine to the query."""
    snap, f = view.snapshot, view.filters

    def rows() -> tuple[np.ndarray, np.ndarray]:
        allowed = snap.allowed(f)
        nodes = snap.nodes
        picked = np.fromiter((r for r, i in enumerate(snap.graph.ids) if nodes[i].kind not in SCAFFOLD_KINDS
                              and (allowed is None or allowed(i))), dtype=np.int64)
        return picked, np.ascontiguousarray(snap.embeddings[picked])  # no gather per query

    picked, matrix = snap.memo("dense_restart_rows", f, rows, 4)
    return picked, matrix @ qvec
