"""search_keywords: the BM25 channel, filtered before it ranks."""

from __future__ import annotations

from langgraph.runtime import Runtime

from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, filters_of, phase, settings
from skill_retriever.state import RetrievalState


@phase("search_keywords", optional=True)
def search_keywords(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    if not config.channel_on("keyword"):
        return {"stats": {"search_keywords": {"off": True}}}
    hits = runtime.context.index.search_keywords(state["plan"]["search_text"], config.channel_depth, filters_of(state))
    return {
        "channel_rankings": {"keyword": [{"id": h.id, "score": h.score} for h in hits]},
        "stats": {"search_keywords": {"hits": len(hits)}},
    }
