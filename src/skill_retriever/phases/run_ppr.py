"""run_ppr: Personalized PageRank from the seeds, with adaptive alpha (0.9 for a specific
query with a named entity and <= 3 seeds, 0.6 for a broad one with > 5 seeds, 0.85
otherwise); scores below 0.001 are dropped."""

from __future__ import annotations

import numpy as np
from langgraph.runtime import Runtime

from skill_retriever.algorithms.ppr import adaptive_alpha, personalized_pagerank, top_scores
from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, filters_of, phase, settings
from skill_retriever.phases._graphview import rows_of, visible_mask, visible_matrices
from skill_retriever.state import RetrievalState

MAX_KEPT = 1000  # PPR scores carried in the state (the tail adds nothing to a ranking)


@phase("run_ppr", optional=True)
def run_ppr(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    index = runtime.context.index
    gm, _ = index.matrices()
    seeds = state.get("seeds", [])
    rows = rows_of(gm, (s["id"] for s in seeds))
    if not rows:
        return {"ppr_scores": {}, "stats": {"run_ppr": {"seeds": 0}}}
    p = np.zeros(len(gm.ids))
    for s, r in zip(seeds, rows, strict=False):
        p[r] += max(float(s["similarity"]), 0.01)
    mask = visible_mask(index, filters_of(state), gm)
    # Access control before any maths: invisible nodes neither receive nor pass mass.
    _, transition = visible_matrices(gm, mask)
    if mask is not None:
        p = p * mask
        if not p.any():
            return {"ppr_scores": {}, "stats": {"run_ppr": {"seeds": 0}}}
    alpha = adaptive_alpha(
        bool(state["plan"]["entities"]), len(rows), config.alpha_specific, config.alpha_broad, config.alpha_default
    )
    scores = personalized_pagerank(transition, p, alpha=alpha, tol=config.ppr_tol, max_iter=config.ppr_max_iter)
    kept = top_scores(scores, config.ppr_min_score, limit=MAX_KEPT)
    return {
        "alpha": alpha,
        "ppr_scores": {gm.ids[r]: float(s) for r, s in kept},
        "stats": {
            "run_ppr": {
                "seeds": len(rows),
                "alpha": alpha,
                "min_score": config.ppr_min_score,
                "nodes_scored": len(kept),
            }
        },
    }
