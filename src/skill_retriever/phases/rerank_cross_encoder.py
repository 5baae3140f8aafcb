"""rerank_cross_encoder: reorder the top N fused items by the reranker's score. It never
adds or drops an item: the order of the rest is left as fusion made it.

Two modes. ``replace`` orders the top N by the reranker's score alone (what a real
cross-encoder earns; the default for one). ``blend`` fuses the fusion order and the
reranker's order with RRF, so a weaker reranker refines the order instead of overriding
it: the default for the embedding fallback, a bi-encoder whose order alone would undo
what fusion found. `skill-retriever benchmark` reports "full" and "full+rerank" side by
side on every set (the README's Results), which is where to judge either mode."""

from __future__ import annotations

from skill_retriever.algorithms.rrf import reciprocal_rank_fusion
from skill_retriever.context import QueryView
from skill_retriever.phases._helpers import query_vector
from skill_retriever.phases._phase import Update, phase
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.rerank_wanted import reranks
from skill_retriever.state import Fused, RetrievalState


@phase(optional=True)
def rerank_cross_encoder(state: RetrievalState, view: QueryView) -> Update:
    config, reranker, snap = view.config, view.reranker, view.snapshot
    fused = list(state.get("fused", []))
    # rerank_top_n=0 reranks nothing (`rerank_top_n or k` read it as unset and reranked k)
    if not reranks(config) or reranker is None or not fused:
        return {"reranker": "none", "stats": {"reranker": "none"}}
    top_n = config.k if config.rerank_top_n is None else config.rerank_top_n
    head, tail = fused[:top_n], fused[top_n:]
    texts = [snap.nodes[f["id"]].embedding_text() for f in head]
    if isinstance(reranker, EmbeddingReranker):
        # Items that fit one window already have their vector in the index: reuse it.
        stored = [snap.node_vector(f["id"]) for f in head]
        scores = reranker.score(state["plan"]["search_text"], texts, stored=stored, query_vector=query_vector(state, view))
    else:
        scores = reranker.score(state["plan"]["search_text"], texts)
    # New dicts, never the state's own: a reranker that fails half-way (or returns the
    # wrong number of scores) must leave no rerank_score behind on the fused items.
    head = [Fused(**{**item, "rerank_score": float(score)}) for item, score in zip(head, scores, strict=True)]
    mode = config.rerank_mode
    if mode == "auto":
        mode = "blend" if isinstance(reranker, EmbeddingReranker) else "replace"
    if mode == "replace":
        head.sort(key=lambda f: -f["rerank_score"])  # stable: ties keep the fusion order
        head = [Fused(**{**f, "order_score": f["rerank_score"]}) for f in head]
    else:
        by_rerank = sorted(head, key=lambda f: -f["rerank_score"])  # stable: ties keep the fusion order
        blended = {
            f.id: f.score
            for f in reciprocal_rank_fusion(
                {"fusion": [f["id"] for f in head], "rerank": [f["id"] for f in by_rerank]}, k=config.rrf_k
            )
        }
        # equal blends keep the fusion order
        head = [
            Fused(**{**f, "order_score": blended[f["id"]]})
            for _, f in sorted(enumerate(head), key=lambda p: (-blended[p[1]["id"]], p[0]))
        ]
    return {
        "fused": head + tail,
        "reranker": reranker.name,
        "stats": {"reranker": reranker.name, "reranked": len(head), "mode": mode},
    }
