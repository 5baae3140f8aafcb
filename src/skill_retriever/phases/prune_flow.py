"""prune_flow: keep only the reliable paths from the seeds to the best PPR endpoints
(PathRAG-style: <= 8 endpoints, <= 10 paths, reliability = mean PPR of the path's nodes
>= 0.01). The graph channel ranks the kept nodes by PPR; each carries its path."""

from __future__ import annotations

from langgraph.runtime import Runtime

from skill_retriever.algorithms.flow_pruning import prune_flow as prune
from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, filters_of, phase, settings
from skill_retriever.phases._graphview import (
    admitted_ranking,
    rows_of,
    visible_mask,
    visible_matrices,
)
from skill_retriever.state import PathInfo, RetrievalState


@phase("prune_flow", optional=True)
def prune_flow(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    index = runtime.context.index
    filters = filters_of(state)
    gm, _ = index.matrices()
    ppr = state.get("ppr_scores", {})
    if not ppr:
        return {"stats": {"prune_flow": {"raw_nodes": 0, "kept_nodes": 0}}}
    seed_rows = rows_of(gm, (s["id"] for s in state.get("seeds", [])))
    adjacency, _ = visible_matrices(gm, visible_mask(index, filters, gm))
    flow = prune(
        adjacency,
        seed_rows,
        # .get: an id scored by run_ppr may have left the graph since (a concurrent delete).
        {row: s for i, s in ppr.items() if (row := gm.index.get(i)) is not None},
        max_endpoints=config.flow_max_endpoints,
        max_paths=config.flow_max_paths,
        threshold=config.flow_reliability_threshold,
        max_hops=config.flow_max_hops,
        symmetric=True,  # GraphMatrices.adjacency holds every edge both ways (the mask keeps that)
        # Endpoints among what the caller asked for (kinds, tags, time): the graph
        # channel lists the best of those, reached through whatever lies between.
        endpoint_mask=index.allowed_mask(filters, gm),
    )
    paths: dict[str, PathInfo] = {}
    for path in flow.paths:
        ids = [gm.ids[r] for r in path.nodes]
        for cut in range(1, len(ids)):
            target = ids[cut]
            if target not in paths or paths[target]["reliability"] < path.reliability:
                paths[target] = {"nodes": ids[: cut + 1], "reliability": path.reliability}
    scored = [(gm.ids[r], ppr.get(gm.ids[r], 0.0)) for r in flow.nodes]
    update: Update = {
        "paths": paths,
        "stats": {
            "prune_flow": {
                "raw_nodes": len(ppr),
                "kept_nodes": len(flow.nodes),
                "endpoints": len(flow.endpoints),
                "paths": len(flow.paths),
                "threshold": config.flow_reliability_threshold,
            }
        },
    }
    if config.channel_on("graph"):
        update["channel_rankings"] = {"graph": admitted_ranking(index, filters, scored, config.channel_depth)}
    return update
