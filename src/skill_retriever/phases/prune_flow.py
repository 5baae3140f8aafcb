"""prune_flow: keep only the reliable paths from the seeds to the best PPR endpoints
(PathRAG-style: <= 8 endpoints, <= 10 paths, reliability = mean PPR of the path's nodes
>= 0.01). The graph channel ranks the kept nodes by PPR; each carries its path, never one
that starts at the node's own name (its title entity: `reached_via.real_paths`).
``flow_max_paths=0``, ``flow_max_endpoints=0`` or ``flow_max_hops=0`` switches pruning off:
the channel ranks every node the walk scored, and no item carries a path (before, a 0 kept
no path, and the channel held the walk's seeds alone)."""

from __future__ import annotations

import numpy as np

from skill_retriever.algorithms.flow_pruning import prune_flow as prune
from skill_retriever.context import QueryView
from skill_retriever.phases._helpers import admitted_ranking, rows_of
from skill_retriever.phases._phase import Update, phase
from skill_retriever.phases.run_ppr import GRAPH_OFF
from skill_retriever.reached_via import real_paths
from skill_retriever.state import PathInfo, RetrievalState
from skill_retriever.stores.passage_views import answer_filters, walk_adjacency

#: The counts that bound what pruning keeps: any at 0 keeps no path, so it switches pruning off.
_COUNTS = ("flow_max_paths", "flow_max_endpoints", "flow_max_hops")


@phase(optional=True)
def prune_flow(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    if not config.channel_on("graph"):
        return {"stats": {"skipped": GRAPH_OFF}}
    gm = snap.graph
    ppr = state.get("ppr_scores", {})
    if not ppr:
        return {"stats": {"raw_nodes": 0, "kept_nodes": 0}}
    answers = answer_filters(snap, view.filters)  # facts are never an answer unless asked for
    if off := [name for name in _COUNTS if getattr(config, name) == 0]:  # a setting's 0 is its step off
        ranking = admitted_ranking(snap, answers, list(ppr.items()), config.channel_depth)
        return {"channel_rankings": {"graph": ranking},
                "stats": {"skipped": f"{'=0, '.join(off)}=0: the graph channel ranks every node the walk scored",
                          "raw_nodes": len(ppr), "ranked": len(ranking)}}
    adjacency = walk_adjacency(snap, view.filters, config.synonyms is not False)  # the walk run_ppr took
    seeds = [s["id"] for s in state.get("seeds", []) if s["id"] in gm.index]
    scores = np.zeros(len(gm.ids))
    scores[[gm.index[i] for i in ppr]] = list(ppr.values())
    flow = prune(
        adjacency,
        rows_of(gm, seeds),
        scores,
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

    def shortest(goal: str, starts: list[str], hops: int) -> list[str]:
        only = np.zeros(len(gm.ids), dtype=bool)
        only[gm.index[goal]] = True
        found = prune(adjacency, rows_of(gm, starts), scores, max_endpoints=1, max_paths=1, threshold=0.0,
                      max_hops=hops, symmetric=True, endpoint_mask=only)
        return [gm.ids[r] for r in found.paths[0].nodes] if found.paths else []

    def search(target: str, starts: list[str], own: str) -> PathInfo | None:
        # The walk's own search again, from the seeds that do not bear the target's name.
        # First to the seed of its own name (the target's title entity, which carried it
        # most of its score): the fact or passage that names it is the hop. Else to the
        # target itself, by whatever else leads there.
        nodes = shortest(own, starts, config.flow_max_hops - 1)
        nodes = nodes + [target] if nodes and target not in nodes else shortest(target, starts, config.flow_max_hops)
        reliability = float(scores[rows_of(gm, nodes)].mean()) if nodes else 0.0
        ok = nodes and reliability >= config.flow_reliability_threshold
        return {"nodes": nodes, "reliability": reliability} if ok else None

    paths = real_paths(paths, snap.nodes, seeds, search)
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
    update["channel_rankings"] = {"graph": admitted_ranking(snap, answers, scored, config.channel_depth)}
    return update
