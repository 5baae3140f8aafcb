"""cover_clauses: a request that chains several asks gets a top that answers each.

"Check the altitude of flight ABC1234. Then fetch robot RBT5678's data; finally run task
T987 on it" asks for three tools. The fused list follows the query as a whole, and on a
catalogue with many near-duplicates (four thousand tools in seal-tools, a dozen of them
about robots) its top ten fills with variations on the ask that dominates. Here the query
is split into its asks (``algorithms.clauses``), each ask gets its own keyword search
(BM25: no model call), and the list is rebuilt by xQuAD over the asks
(``algorithms.diversify``, λ = ``clause_coverage``): an item gains from the asks the items
above it leave open. An item only an ask's search found may enter the list; every filter
applies to those searches as to the keyword channel, so nothing hidden enters.

It runs before the reranker: the asks decide which items reach the top ``k``, a
cross-encoder then orders them. One ask (most queries): nothing changes.

Measured on the eight judged catalogue sets (``skill-retriever benchmark --only
skills,toolret --max-queries 500``): see ``calibration.defaults``, which turns it on for a
component or tool catalogue.
"""

from __future__ import annotations

from skill_retriever.algorithms.clauses import query_clauses
from skill_retriever.algorithms.diversify import xquad
from skill_retriever.context import QueryView
from skill_retriever.phases._phase import Update, phase
from skill_retriever.querytext import keyword_text
from skill_retriever.state import Fused, RetrievalState

#: The rank channel name an item found by an ask's own search carries in ``channels``.
CLAUSES = "clauses"


@phase(optional=True)
def cover_clauses(state: RetrievalState, view: QueryView) -> Update:
    config = view.config
    lam = config.clause_coverage or 0.0
    fused = state.get("fused", [])
    if lam <= 0 or not fused:
        return {"stats": {"off": True}}
    if not config.channel_on("keyword"):
        return {"stats": {"off": True, "why": "the keyword channel, which searches each ask, is off"}}
    clauses = query_clauses(keyword_text(state["plan"]["search_text"], config))
    if len(clauses) < 2:
        return {"stats": {"clauses": len(clauses)}}
    snap = view.snapshot
    aspects = [
        {h.id: h.score for h in snap.search_keywords(clause, config.clause_hits, view.filters)} for clause in clauses
    ]
    best_rank: dict[str, int] = {}
    for aspect in aspects:
        for rank, item in enumerate(aspect, 1):
            best_rank[item] = min(rank, best_rank.get(item, rank))
    by_id = {f["id"]: f for f in fused}
    out: list[Fused] = []
    # Greedy over what can be delivered (and reranked); the rest by its gain after that.
    depth = max(config.k, config.rerank_top_n or 0)
    for item, gain in xquad([(f["id"], f["score"]) for f in fused], aspects, lam, depth):
        f = by_id.get(item) or Fused(id=item, score=0.0, ranks={})
        ranks = dict(f["ranks"]) | ({CLAUSES: best_rank[item]} if item in best_rank else {})
        out.append(Fused(**{**f, "ranks": ranks, "order_score": gain}))
    top = {f["id"] for f in fused[: config.k]}
    return {
        "fused": out,
        "stats": {
            "clauses": len(clauses),
            "lambda": lam,
            "entered_top_k": sum(1 for f in out[: config.k] if f["id"] not in top),
            "new_items": len(out) - len(fused),
        },
    }
