"""The embedding function Chroma collections are created with: ours, never Chroma's own
default (which downloads a model, and fails offline). Every call passes vectors we
computed, so Chroma calls it only to check the collection's configuration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skill_retriever.stores.embedder import Embedder

__all__ = ["ChromaEmbeddingFunction"]


class ChromaEmbeddingFunction:
    """Adapter that lets Chroma call our embedder (never its own default)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    def __call__(self, input: Sequence[str]) -> list[Any]:
        return list(self._embedder.embed(list(input)))

    def embed_query(self, input: Sequence[str]) -> list[Any]:
        return self(input)

    @staticmethod
    def name() -> str:
        return "skill_retriever"

    def is_legacy(self) -> bool:
        return False

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine"]

    def get_config(self) -> dict[str, Any]:
        return {"model": self._embedder.name}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> ChromaEmbeddingFunction:
        from skill_retriever.stores.embedder import SentenceTransformerEmbedder

        return ChromaEmbeddingFunction(SentenceTransformerEmbedder(config.get("model", "")))
