"""Whether a search reranks anything, read alike where the reranker is loaded
(`context`, `retriever`) and where it runs (`phases.rerank_cross_encoder`): a reranker
loaded for a search that reranks nothing costs a model load (a cross-encoder: seconds)
and changes no answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skill_retriever.config import RetrievalConfig

__all__ = ["reranks"]


def reranks(config: RetrievalConfig) -> bool:
    """``rerank`` on and ``rerank_top_n`` not 0 (0 reranks nothing; None, the ``k`` delivered)."""
    return config.rerank and config.rerank_top_n != 0
