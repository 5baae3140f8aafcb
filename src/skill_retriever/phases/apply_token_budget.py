"""apply_token_budget: cut to k, then drop the lowest-ranked items until the sum of their
tiktoken counts fits the budget; build the explained results."""

from __future__ import annotations

from langgraph.runtime import Runtime

from skill_retriever.algorithms.budget import pack_to_budget, token_counter
from skill_retriever.config import RetrievalContext
from skill_retriever.phases._common import Update, phase, settings
from skill_retriever.state import Result, RetrievalState


def snippet(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


@phase("apply_token_budget", optional=False)
def apply_token_budget(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    nodes = runtime.context.index.nodes
    count = token_counter(config.encoding)
    top = [f for f in state.get("fused", []) if f["id"] in nodes][: config.k]
    tokens = {f["id"]: count(nodes[f["id"]].embedding_text()) for f in top}
    cut = pack_to_budget([f["id"] for f in top], tokens, config.token_budget)
    kept = set(cut.kept)
    paths = state.get("paths", {})
    results: list[Result] = []
    for f in top:
        if f["id"] not in kept:
            continue
        node = nodes[f["id"]]
        result: Result = {
            "id": node.id,
            "kind": node.kind.value,
            "name": node.name,
            "snippet": snippet(node.description or node.text, config.snippet_chars),
            "fusion_score": float(f["score"]),
            "rerank_score": f.get("rerank_score"),
            "token_count": tokens[node.id],
            "channels": dict(f["ranks"]),
        }
        if node.id in paths:
            result["path"] = paths[node.id]
        results.append(result)
    return {
        "results": results,
        "stats": {
            "apply_token_budget": {
                "budget": config.token_budget,
                "total_tokens": cut.total_tokens,
                "kept": len(cut.kept),
                "dropped": len(cut.dropped),
            }
        },
    }
