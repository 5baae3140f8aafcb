"""fuse_rrf: Reciprocal Rank Fusion of every channel's list (k = 60; Cormack et al. 2009)."""

from __future__ import annotations

from langgraph.runtime import Runtime

from skill_retriever.algorithms.rrf import reciprocal_rank_fusion
from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, phase, settings
from skill_retriever.state import RetrievalState


@phase("fuse_rrf", optional=False)
def fuse_rrf(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    rankings = {
        ch: [h["id"] for h in hits]
        for ch, hits in (state.get("channel_rankings") or {}).items()
        if config.channel_on(ch)
    }
    weights = dict(config.channel_weights)
    relational = any(s["via"].startswith("relation:") for s in state.get("seeds", []))
    if relational and "graph" in weights:
        weights["graph"] *= config.relation_graph_boost
    fused = reciprocal_rank_fusion(rankings, k=config.rrf_k, weights=weights)
    return {
        "fused": [{"id": f.id, "score": f.score, "ranks": dict(f.ranks)} for f in fused],
        "stats": {
            "fuse_rrf": {
                "k": config.rrf_k,
                "channels": {ch: len(ids) for ch, ids in rankings.items()},
                "fused": len(fused),
                "weights": weights,
            }
        },
    }
