"""prune_flow: keep only the reliable paths from the seeds to the best PPR endpoints
(PathRAG-style: <= 8 endpoints, <= 10 paths, reliability = mean PPR of the path's nodes
>= 0.01). The graph channel ranks the kept nodes by PPR; each carries its path."""

from __future__ import annotations

from skill_retriever.algorithms.flow_pruning import prune_flow as prune
from skill_retriever.context import QueryView
from skill_retriever.phases._helpers import admitted_ranking, rows_of
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import PathInfo, RetrievalState
from skill_retriever.stores.passage_views import answer_filters, walk_adjacency


@phase(optional=True)
def prune_flow(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    gm = snap.graph
    ppr = state.get("ppr_scores", {})
    if not ppr:
        return {"stats": {"raw_nodes": 0, "kept_nodes": 0}}
    adjacency = walk_adjacency(snap, view.filters, config.synonyms is not False)  # the walk run_ppr took
    answers = answer_filters(snap, view.filters)  # facts are never an answer unless asked for
    flow = prune(
        adjacency,
        rows_of(gm, (s["id"] for s in state.get("seeds", []))),
        {gm.index[i]: s for i, s in ppr.items()},
        max_endpoints=config.flow_max_endpoints,
        max_paths=config.flow_max_paths,
        threshold=config.flow_reliability_threshold,
        max_hops=config.flow_max_hops,
        symmetric=True,  # GraphMatrices.adjacency holds every edge both ways (the mask keeps that)
        # Endpoints among what the caller asked for (kinds, tags, time): the graph
        # channel lists the best of those, reached through whatever lies between.
        endpoint_mask=snap.allowed_mask(answers),
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
            "raw_nodes": len(ppr),
            "kept_nodes": len(flow.nodes),
            "endpoints": len(flow.endpoints),
            "paths": len(flow.paths),
            "threshold": config.flow_reliability_threshold,
        },
    }
    if config.channel_on("graph"):
        update["channel_rankings"] = {"graph": admitted_ranking(snap, answers, scored, config.channel_depth)}
    return update
