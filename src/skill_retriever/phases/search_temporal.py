"""search_temporal: when the query names a time window ("last 24h", "since 2026-11-01",
"recent"), rank the items inside it by recency (updated, else created). Without a time
expression the channel stays silent rather than add noise."""

from __future__ import annotations

from datetime import datetime

from langgraph.runtime import Runtime

from skill_retriever.algorithms.temporal import TimeWindow, rank_by_recency
from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, filters_of, phase, settings
from skill_retriever.state import RetrievalState


@phase("search_temporal", optional=True)
def search_temporal(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    spec = state["plan"].get("time_window")
    if not config.channel_on("temporal") or spec is None:
        return {"stats": {"search_temporal": {"window": None}}}
    window = TimeWindow(
        start=datetime.fromisoformat(spec["start"]) if spec.get("start") else None,
        end=datetime.fromisoformat(spec["end"]) if spec.get("end") else None,
        phrase=spec.get("phrase") or "",
    )
    index = runtime.context.index
    pred = index.allowed(filters_of(state))
    items = ((n.id, n.last_changed) for n in index.nodes.values() if pred is None or pred(n.id))
    ranked = rank_by_recency(items, window)[: config.channel_depth]
    return {
        "channel_rankings": {"temporal": [{"id": i, "score": 1.0 / (r + 1)} for r, i in enumerate(ranked)]},
        "stats": {"search_temporal": {"window": window.phrase, "hits": len(ranked)}},
    }
