"""search_temporal: when the query names a time window ("last 24h", "since 2026-11-01",
"recent"), rank the items inside it by recency (the later of updated and created). Without a time
expression the channel stays silent rather than add noise."""

from __future__ import annotations

from skill_retriever.algorithms.temporal import TimeWindow, rank_by_recency
from skill_retriever.context import QueryView
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import RetrievalState


@phase(optional=True)
def search_temporal(state: RetrievalState, view: QueryView) -> Update:
    spec = state["plan"].get("time_window")
    if not view.config.channel_on("temporal") or spec is None:
        return {"stats": {"window": None}}
    window = TimeWindow.from_spec(spec)
    snap = view.snapshot
    pred = snap.allowed(view.filters)
    # ``last_changed``: the later of the two timestamps, as the since/until filters read it.
    items = ((n.id, n.last_changed) for n in snap.nodes.values() if pred is None or pred(n.id))
    ranked = rank_by_recency(items, window)[: view.config.channel_depth]
    return {
        "channel_rankings": {"temporal": [{"id": i, "score": 1.0 / (r + 1)} for r, i in enumerate(ranked)]},
        "stats": {"window": window.phrase, "hits": len(ranked)},
    }
