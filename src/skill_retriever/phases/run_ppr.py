"""run_ppr: Personalized PageRank from the seeds, with adaptive alpha (0.9 for a specific
query with a named entity and <= 3 seeds, 0.6 for a broad one with > 5 seeds, 0.85
otherwise); scores below 0.001 are dropped."""

from __future__ import annotations

import numpy as np

from skill_retriever.algorithms.ppr import adaptive_alpha, personalized_pagerank, top_scores
from skill_retriever.context import QueryView
from skill_retriever.phases._helpers import rows_of
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import RetrievalState

MAX_KEPT = 1000  # PPR scores carried in the state (the tail adds nothing to a ranking)


@phase(optional=True)
def run_ppr(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    gm = snap.graph
    seeds = state.get("seeds", [])
    rows = rows_of(gm, (s["id"] for s in seeds))
    if not rows:
        return {"ppr_scores": {}, "stats": {"seeds": 0}}
    p = np.zeros(len(gm.ids))
    for s in seeds:
        p[gm.index[s["id"]]] += max(float(s["similarity"]), 0.01)
    mask = snap.allowed_mask(view.visible)
    # Access control before any maths: invisible nodes neither receive nor pass mass.
    _, transition = snap.visible_matrices(view.filters)
    if mask is not None:
        p = p * mask
        if not p.any():
            return {"ppr_scores": {}, "stats": {"seeds": 0}}
    alpha = adaptive_alpha(
        bool(state["plan"]["entities"]), len(rows), config.alpha_specific, config.alpha_broad, config.alpha_default
    )
    scores = personalized_pagerank(transition, p, alpha=alpha, tol=config.ppr_tol, max_iter=config.ppr_max_iter)
    kept = top_scores(scores, config.ppr_min_score, limit=MAX_KEPT)
    return {
        "alpha": alpha,
        "ppr_scores": {gm.ids[r]: float(s) for r, s in kept},
        "stats": {"seeds": len(rows), "alpha": alpha, "min_score": config.ppr_min_score, "nodes_scored": len(kept)},
    }
