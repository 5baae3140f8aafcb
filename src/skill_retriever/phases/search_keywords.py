"""search_keywords: the BM25 channel, filtered before it ranks; with a time window in the
query, the window's own best matches join it (`window_hits`)."""

from __future__ import annotations

from skill_retriever.algorithms.fixed_depth import searched_past_depth
from skill_retriever.context import QueryView
from skill_retriever.phases._phase import Update, phase
from skill_retriever.phases.window_hits import window_filters, with_window_hits
from skill_retriever.querytext import keyword_text
from skill_retriever.state import RetrievalState


@phase(optional=True)
def search_keywords(state: RetrievalState, view: QueryView) -> Update:
    config = view.config
    if not config.channel_on("keyword"):
        return {"stats": {"off": True}}
    plan = state["plan"]
    text = keyword_text(plan.get("content_text", plan["search_text"]), config)  # a typed hop's start name left out
    # The first `fusion_depth` hits exactly as a search that deep finds them (ties at its
    # cut included), whatever k asks past it: a larger k only appends (algorithms.fixed_depth).
    hits = searched_past_depth(lambda n: view.snapshot.search_keywords(text, n, view.filters),
                               view.fusion_depth, config.channel_depth)
    if (inside := window_filters(plan, view.filters)) is not None:  # the window's own best matches too
        found = view.snapshot.search_keywords(text, view.fusion_depth, inside)
        hits = with_window_hits(hits, found, lambda h: h.id, lambda h: h.score)
    return {
        "channel_rankings": {"keyword": [{"id": h.id, "score": h.score} for h in hits]},
        "stats": {"hits": len(hits)},
    }
