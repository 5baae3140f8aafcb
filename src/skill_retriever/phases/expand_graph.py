"""expand_graph: grow the seeds along the graph, level by level, keeping neighbours that
stay similar to the original query (smart route: 3 levels, thresholds 0.5/0.35/0.2; quick
route: one level, no similarity filter)."""

from __future__ import annotations

from skill_retriever.algorithms.expansion import expand
from skill_retriever.context import QueryView
from skill_retriever.phases._helpers import admitted_ranking, query_vector, rows_of, similarity_fn
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import Candidate, RetrievalState
from skill_retriever.stores.passage_views import answer_filters


@phase(optional=True)
def expand_graph(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    quick = state["route_taken"] == "quick"
    if not quick and config.multifactor_ranking is False:
        # Only the smart route's ranking reads these candidates, and it is left out of the
        # fusion (rank_multifactor says why): nothing to expand for.
        return {"stats": {"mode": "smart", "skipped": "multifactor_ranking=False: no ranking reads the candidates"}}
    gm, emb = snap.graph, snap.embeddings
    seeds = state.get("seeds", [])
    sim = similarity_fn(emb, query_vector(state, view))
    off = config.expand_max_nodes == 0  # no neighbour per level: the candidates are the seeds
    levels = [] if off else expand(
        gm.adjacency,
        rows_of(gm, (s["id"] for s in seeds)),
        sim,
        thresholds=config.expand_thresholds[:1] if quick else config.expand_thresholds,
        max_nodes_per_level=config.expand_max_nodes,
        max_edges_per_level=config.expand_max_edges,
        use_filter=not quick,
        allowed=snap.allowed_mask(view.visible),
        symmetric=True,  # GraphMatrices.adjacency holds every edge both ways
    )
    candidates: dict[str, Candidate] = {s["id"]: s for s in seeds}
    for level in levels:
        if not level.nodes:
            continue
        scores = sim(list(level.nodes))  # type: ignore[arg-type]
        for row, score in zip(level.nodes, scores, strict=True):
            node_id = gm.ids[row]
            candidates.setdefault(
                node_id, {"id": node_id, "similarity": float(score), "via": "expand", "level": level.level}
            )
    update: Update = {
        "candidates": list(candidates.values()),
        "stats": {
            "mode": "quick" if quick else "smart",
            "levels": [len(lv.nodes) for lv in levels],
            "edges": [len(lv.edges) for lv in levels],
            "thresholds": [lv.threshold for lv in levels],
            "candidates": len(candidates),
            **({"skipped": "expand_max_nodes=0: no neighbour added, the seeds alone"} if off else {}),
        },
    }
    if quick and config.channel_on("graph"):
        scored = [(c["id"], c["similarity"]) for c in candidates.values()]
        update["channel_rankings"] = {"graph": admitted_ranking(snap, answer_filters(snap, view.filters), scored, config.channel_depth)}
    return update
