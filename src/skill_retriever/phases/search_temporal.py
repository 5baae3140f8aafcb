"""search_temporal: when the query names a time window ("last 24h", "since 2026-11-01",
"recent"), rank the items created or updated inside it by recency (their latest time inside
it). Without a time expression the channel stays silent rather than add noise. A time it
cannot use (no item the caller may see carries a date, or none was created or updated
inside the window) is said in a warning, with the window's bounds in UTC (what "yesterday"
was read as) and, over undated documents, how to date one: the answer then ranks by the
text alone, which the asker may not expect."""

from __future__ import annotations

from skill_retriever.algorithms.temporal import TimeWindow, rank_by_recency
from skill_retriever.context import QueryView
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import RetrievalState
from skill_retriever.undated_advice import dating_advice


@phase(optional=True)
def search_temporal(state: RetrievalState, view: QueryView) -> Update:
    spec = state["plan"].get("time_window")
    if not view.config.channel_on("temporal") or spec is None:
        return {"stats": {"window": None}}
    window = TimeWindow.from_spec(spec)
    snap = view.snapshot
    pred = snap.allowed(view.filters)
    nodes = [n for n in snap.nodes.values() if pred is None or pred(n.id)]
    # Both times, as the since/until filters read them (`Filters.admits`): an item created
    # or updated inside the window is in it (an incident opened yesterday and updated today
    # is one of yesterday's), ranked by its latest time inside (`rank_by_recency` keeps it).
    items = [(n.id, t) for n in nodes for t in (n.created, n.last_changed)]
    ranked = rank_by_recency(items, window)[: view.config.channel_depth]
    update: Update = {
        "channel_rankings": {"temporal": [{"id": i, "score": 1.0 / (r + 1)} for r, i in enumerate(ranked)]},
        "stats": {"window": window.phrase, "start": spec.get("start"), "end": spec.get("end"), "hits": len(ranked)},
    }
    if not ranked and items:
        undated = [n for n in nodes if n.last_changed is None]
        why = (f"no item carries a date (created or updated){dating_advice(undated)}" if len(undated) == len(nodes)
               else "no item was created or updated inside it")
        said = f"the query names a time ({window.phrase!r}, {window.span_words()}), but {why}: it ranks by the text alone"
        update["warnings"] = [said]
    return update
