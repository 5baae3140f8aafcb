"""Vector search behind a small protocol; Chroma is the default implementation.

Chroma's own default embedding function downloads a model (and fails offline), so every
collection here is created with our embedding function and every add and query passes
vectors that we computed: the query is embedded once per search, by us.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from skill_retriever.stores.embedder import Embedder, Vectors

log = logging.getLogger("skill_retriever")

#: HNSW settings that matched exact cosine search on all 101 2Wiki queries (DESIGN.md);
#: Chroma's defaults moved the top 10 on 3-8 of them.
HNSW = {"space": "cosine", "ef_search": 500, "ef_construction": 400, "max_neighbors": 32}

Metadata = Mapping[str, str | int | float | bool | list[str]]


@dataclass(frozen=True, slots=True)
class VectorHit:
    id: str
    score: float  # cosine similarity, 1 = same direction


class VectorStore(Protocol):
    """What the retrieval phases need from a vector index; one per collection of items.

    This is the boundary where another engine plugs in (a Chroma server or a distributed
    Chroma, or any ANN service): the phases only call these methods.
    """

    def upsert(self, ids: Sequence[str], vectors: Vectors, metadatas: Sequence[Metadata]) -> None: ...

    def delete(self, ids: Sequence[str]) -> None: ...

    def search_many(
        self,
        vectors: Vectors,
        k: int,
        *,
        where: Mapping[str, Any] | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[list[VectorHit]]: ...

    def vectors(self, ids: Sequence[str]) -> dict[str, Vectors]: ...

    def all_ids_and_hashes(self) -> dict[str, str]: ...

    def count(self) -> int: ...


class ChromaEmbeddingFunction:
    """Adapter that lets Chroma call our embedder (never its own default)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    def __call__(self, input: Sequence[str]) -> list[Any]:  # noqa: A002 - Chroma's name
        return list(self._embedder.embed(list(input)))

    def embed_query(self, input: Sequence[str]) -> list[Any]:  # noqa: A002
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
    def build_from_config(config: dict[str, Any]) -> "ChromaEmbeddingFunction":
        from skill_retriever.stores.embedder import SentenceTransformerEmbedder

        return ChromaEmbeddingFunction(SentenceTransformerEmbedder(config.get("model", "")))


def make_chroma_client(path: Path | None = None, url: str | None = None) -> Any:
    """An embedded ``PersistentClient`` at ``path``, or an ``HttpClient`` for a server URL."""
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False, allow_reset=False)
    if url:
        from urllib.parse import urlparse

        u = urlparse(url if "://" in url else f"http://{url}")
        return chromadb.HttpClient(
            host=u.hostname or "localhost", port=u.port or 8000, ssl=u.scheme == "https", settings=settings
        )
    assert path is not None
    return chromadb.PersistentClient(path=str(path), settings=settings)


class ChromaVectorStore:
    """One Chroma collection with cosine HNSW and our embedding function."""

    def __init__(self, client: Any, name: str, embedder: Embedder) -> None:
        self._col = client.get_or_create_collection(
            name,
            embedding_function=ChromaEmbeddingFunction(embedder),  # type: ignore[arg-type]
            configuration={"hnsw": HNSW},
        )

    def upsert(self, ids: Sequence[str], vectors: Vectors, metadatas: Sequence[Metadata]) -> None:
        # Chroma caps one request's size; stay well below it.
        step = 2000
        for i in range(0, len(ids), step):
            self._col.upsert(
                ids=list(ids[i : i + step]),
                embeddings=np.asarray(vectors[i : i + step], dtype=np.float32),
                metadatas=[dict(m) for m in metadatas[i : i + step]],
            )

    def delete(self, ids: Sequence[str]) -> None:
        step = 2000
        for i in range(0, len(ids), step):
            self._col.delete(ids=list(ids[i : i + step]))

    def search_many(
        self,
        vectors: Vectors,
        k: int,
        *,
        where: Mapping[str, Any] | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[list[VectorHit]]:
        """One nearest-neighbour list per row of ``vectors``, in a single request.

        Chroma answers an ``n_results`` above the collection's size (or the filter's
        match count) with what it has, so no ``count()`` round trip precedes the query:
        at 100k items dropping it took a Chroma search from 14.2 to 5.8 ms p50
        (``dense.chroma_search`` in docs/bench/million_edges.{before,after}.json).
        """
        batch = np.asarray(vectors, dtype=np.float32)
        if batch.ndim != 2:
            raise ValueError(f"vectors must be a 2-d array (one row per query), got shape {batch.shape}")
        if k <= 0 or batch.shape[0] == 0 or (ids is not None and not ids):
            return [[] for _ in range(batch.shape[0])]
        from chromadb.errors import InternalError  # chromadb is loaded: the collection exists

        query = functools.partial(
            self._col.query,
            query_embeddings=batch,
            n_results=k,
            where=dict(where) if where else None,
            ids=list(ids) if ids is not None else None,
            include=["distances"],
        )
        try:
            res = query()
        except InternalError as exc:
            # Embedded Chroma can fail a query that races a concurrent delete of a hit
            # ("Error finding id"): the HNSW index still lists the id, the record store
            # no longer has it (seen in tests/reliability/test_concurrency.py). The write
            # has landed by the time we ask again; a second failure is real.
            log.info("vector search raced a write (%s); retrying once", exc)
            time.sleep(0.01)
            res = query()
        out: list[list[VectorHit]] = []
        for row_ids, row_dist in zip(res["ids"], res["distances"] or [], strict=True):
            hits = [VectorHit(i, 1.0 - float(d)) for i, d in zip(row_ids, row_dist, strict=True)]
            # HNSW returns ties in arbitrary order, and a server sends float32: order by the
            # score to 6 decimals, then id, so the same index answers the same way anywhere.
            hits.sort(key=lambda h: (-round(h.score, 6), h.id))
            out.append(hits)
        return out

    def vectors(self, ids: Sequence[str]) -> dict[str, Vectors]:
        out: dict[str, Vectors] = {}
        step = 5000
        for i in range(0, len(ids), step):
            got = self._col.get(ids=list(ids[i : i + step]), include=["embeddings"])
            for j, e in zip(got["ids"], got["embeddings"], strict=True):
                out[j] = np.asarray(e, dtype=np.float32)
        return out

    def all_ids_and_hashes(self) -> dict[str, str]:
        out: dict[str, str] = {}
        total = self.count()
        step = 5000
        for off in range(0, total, step):
            got = self._col.get(include=["metadatas"], limit=step, offset=off)
            for i, m in zip(got["ids"], got["metadatas"], strict=True):
                out[i] = str((m or {}).get("hash", ""))
        return out

    def count(self) -> int:
        return int(self._col.count())
