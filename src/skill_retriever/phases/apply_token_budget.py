"""apply_token_budget: cut to k, then drop the lowest-ranked items until the sum of their
tiktoken counts fits the budget; build the explained results.

Each result carries ``flags``: why its text looks like an instruction to the model
(`skill_retriever.safety.injection`), empty when it does not. With ``drop_flagged`` the
flagged items are dropped before the cut to k, so clean items take their places."""

from __future__ import annotations

import threading
from typing import Any

from langgraph.runtime import Runtime

from skill_retriever.algorithms.budget import pack_to_budget, token_counter
from skill_retriever.config import RetrievalContext
from skill_retriever.model import Node
from skill_retriever.phases._common import Update, phase, settings
from skill_retriever.safety.injection import scan_node, visible_text
from skill_retriever.state import Result, RetrievalState


def snippet(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text`` on one line, without invisible characters.

    Only a window of the text is read, so a megabyte-long item costs what a short one does.
    """
    window = visible_text(text[: max(limit, 1) * 8 + 64])
    flat = " ".join(window.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


_TOKENS: dict[tuple[str, str], int] = {}
_TOKENS_LOCK = threading.Lock()
TOKEN_CACHE_SIZE = 100_000


def token_count(node: Node, encoding: str) -> int:
    """tiktoken count of what the caller would load, cached by content hash (counting a
    megabyte-long item takes seconds; hashing it, milliseconds)."""
    key = (encoding, node.content_hash())
    found = _TOKENS.get(key)
    if found is None:
        found = token_counter(encoding)(node.embedding_text())
        with _TOKENS_LOCK:
            if len(_TOKENS) >= TOKEN_CACHE_SIZE:
                _TOKENS.clear()
            _TOKENS[key] = found
    return found


@phase("apply_token_budget", optional=False)
def apply_token_budget(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    nodes = runtime.context.index.nodes
    token_counter(config.encoding)  # a bad encoding name fails here, clearly
    present = (f for f in state.get("fused", []) if f["id"] in nodes)
    flags: dict[str, tuple[str, ...]] = {}
    top: list[dict[str, Any]] = []
    dropped_flagged = 0
    for f in present:
        found = scan_node(nodes[f["id"]])
        if found and config.drop_flagged:
            dropped_flagged += 1
            continue
        flags[f["id"]] = found
        top.append(f)
        if len(top) >= config.k:
            break
    tokens = {f["id"]: token_count(nodes[f["id"]], config.encoding) for f in top}
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
            "flags": list(flags[node.id]),
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
                "flagged": sum(1 for r in results if r["flags"]),
                "dropped_flagged": dropped_flagged,
            }
        },
    }
