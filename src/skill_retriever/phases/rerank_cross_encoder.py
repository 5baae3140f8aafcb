"""rerank_cross_encoder: reorder the top N fused items by the reranker's score. It never
adds or drops an item: the order of the rest is left as fusion made it."""

from __future__ import annotations

from langgraph.runtime import Runtime

from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, phase, settings
from skill_retriever.state import RetrievalState


@phase("rerank_cross_encoder", optional=True)
def rerank_cross_encoder(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    reranker = runtime.context.reranker
    fused = list(state.get("fused", []))
    if not config.rerank or reranker is None or not fused:
        return {"reranker": "none", "stats": {"rerank_cross_encoder": {"reranker": "none"}}}
    nodes = runtime.context.index.nodes
    head, tail = fused[: config.rerank_top_n], fused[config.rerank_top_n :]
    # An item deleted while this query ran has no text to score: it keeps its place
    # after the reranked ones (the budget phase drops it).
    gone = [f for f in head if f["id"] not in nodes]
    head = [f for f in head if f["id"] in nodes]
    tail = gone + tail
    scores = reranker.score(state["plan"]["search_text"], [nodes[f["id"]].embedding_text() for f in head])
    # New dicts, never the state's own: a reranker that fails half-way (or returns the
    # wrong number of scores) must leave no rerank_score behind on the fused items.
    head = [{**item, "rerank_score": float(score)} for item, score in zip(head, scores, strict=True)]
    head.sort(key=lambda f: -f["rerank_score"])  # stable: ties keep the fusion order
    return {
        "fused": head + tail,
        "reranker": reranker.name,
        "stats": {"rerank_cross_encoder": {"reranker": reranker.name, "reranked": len(head)}},
    }
