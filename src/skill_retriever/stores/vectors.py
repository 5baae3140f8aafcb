"""Vector search: exact cosine over a snapshot's matrix, or a Chroma server.

An index keeps every vector in ``items.sqlite`` (the source of truth) and every reader
holds its snapshot's vectors in memory anyway (the graph phases score candidates against
the query with them), so the default search is exact: one matrix-vector product, no
approximation, no second store that a crash or a second process could tear (embedded
Chroma is single-process: two processes on one folder crashed and lost vectors).

A Chroma *server* (``chroma run``) is the scale-out path: the writer mirrors vectors into
it, readers in any process or machine ask it for candidates, and the snapshot re-scores
and filters them, so an answer never holds an item or a score the snapshot does not.
Chroma's own default embedding function downloads a model (and fails offline), so its
collections are created with ours and every call passes vectors we computed. Every
request to the server is bounded by ``stores.chroma_connect.CHROMA_TIMEOUT_S`` (chromadb's
own has no bound); an https server's certificate is checked against the CAs
``stores.server_trust`` names.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from skill_retriever.exceptions import IndexCorruptError, ServerUnreachableError

# Re-exported: callers and tests long imported the server connection from here.
from skill_retriever.stores.chroma_connect import (
    check_chroma_server,
    check_chroma_url,
    chroma_client,
)
from skill_retriever.stores.chroma_embedding import ChromaEmbeddingFunction
from skill_retriever.stores.embedder import Embedder, Vectors
from skill_retriever.stores.server_errors import repair_command
from skill_retriever.stores.server_timeouts import problem_of

log = logging.getLogger("skill_retriever")

#: HNSW settings that matched exact cosine search on all 101 2Wiki queries (see
#: docs/architecture.md, Measured here); Chroma's defaults moved the top 10 on 3-8 of them.
HNSW = {"space": "cosine", "ef_search": 500, "ef_construction": 400, "max_neighbors": 32}

Metadata = Mapping[str, str | int | float | bool | list[str]]

#: Collection metadata key naming the index (``index_id`` in its manifest) that owns it.
OWNER_KEY = "skill_retriever_index"
#: Collection metadata key naming the directory (absolute, resolved) of the index that owns
#: it: a copied directory keeps its original's ``index_id``, never its directory, so this
#: tells a copy from the index it was copied from.
OWNER_DIR_KEY = "skill_retriever_index_dir"


@dataclass(frozen=True, slots=True)
class VectorHit:
    id: str
    score: float  # cosine similarity, 1 = same direction


class VectorStore(Protocol):
    """A vector index that mirrors the snapshot's vectors (a Chroma server, or any ANN
    service): the writer keeps it in step, readers ask it for candidates."""

    def upsert(self, ids: Sequence[str], vectors: Vectors, metadatas: Sequence[Metadata]) -> None: ...

    def delete(self, ids: Sequence[str]) -> None: ...

    def search_many(
        self, vectors: Vectors, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]: ...

    def all_ids_and_hashes(self) -> dict[str, str]: ...

    def count(self) -> int: ...


class OutOfStepSearch(Protocol):
    """What a reader's collection searches instead while the server holds other vectors
    than the index (``stores.remote``): the index's own, exactly; a writer's, while it
    cannot make its collections again yet (``stores.writer_search``)."""

    def out_of_step(self) -> bool: ...

    def lost(self) -> None: ...

    def search_many(
        self, vectors: Vectors, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]: ...


def _unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the server could not be reached (refused, timed out, DNS)."""
    import httpx  # chromadb depends on it

    return isinstance(exc, (OSError, httpx.TransportError))


class CollectionGone(IndexCorruptError):
    """The collection a store holds is gone from the server (deleted, or the server's data
    wiped); one of that name may exist again (``repair`` recreates it, with a new id)."""


class ChromaVectorStore:
    """One Chroma collection with cosine HNSW and our embedding function.

    ``create=False`` (a reader) only opens an existing collection (chromadb's
    ``NotFoundError`` when there is none); a writer creates it, marked with ``owner`` and
    ``owner_dir`` (an existing collection keeps its marks: Chroma ignores the metadata of
    ``get_or_create_collection`` then, and :meth:`claim` changes them).
    A server that cannot be reached raises :class:`ServerUnreachableError`, a collection
    deleted behind the store's back :class:`CollectionGone`, naming ``url`` and what to do
    (``index_dir``); a
    reader's store (one with a :attr:`fallback`) searches in memory instead while its
    collection is gone, and looks it up again by name (:meth:`count_found`).
    """

    def __init__(
        self,
        client: Any,
        name: str,
        embedder: Embedder,
        *,
        create: bool = True,
        owner: str | None = None,
        owner_dir: str | None = None,
        url: str = "",
        index_dir: str = "<index>",
    ) -> None:
        self.name, self.url, self.index_dir = name, url, index_dir
        #: Set on a reader's collections: searched instead while the server is out of step.
        self.fallback: OutOfStepSearch | None = None
        self._client, self._ef = client, ChromaEmbeddingFunction(embedder)
        with self._reaching():
            if create:
                meta = {OWNER_KEY: owner, **({OWNER_DIR_KEY: owner_dir} if owner_dir else {})} if owner else None
                self._col = client.get_or_create_collection(
                    name, embedding_function=self._ef, configuration={"hnsw": HNSW}, metadata=meta
                )
            else:
                self._col = client.get_collection(name, embedding_function=self._ef)

    @contextmanager
    def _reaching(self) -> Iterator[None]:
        from chromadb.errors import NotFoundError

        try:
            yield
        except NotFoundError as exc:
            if not hasattr(self, "_col"):
                raise
            raise CollectionGone(
                f"the collection {self.name} is gone from the Chroma server at {self.url or 'the server'} ({exc}); "
                f"if `skill-retriever move-to-server` moved {self.index_dir} after this search's snapshot was taken, search again "
                f"(an open index follows the move at its next snapshot); else copy the vectors there again with "
                f"`{repair_command(self.index_dir, self.url)}`"
            ) from exc
        except Exception as exc:
            if not _unreachable(exc):
                raise
            problem = problem_of(self.url or "", exc)
            raise ServerUnreachableError(
                f"the Chroma server at {self.url or 'the configured URL'} cannot be reached: {problem.what}; {problem.todo}"
            ) from exc

    @property
    def owner(self) -> str | None:
        """The ``index_id`` of the index that owns this collection (None: unmarked)."""
        found = (self._col.metadata or {}).get(OWNER_KEY)
        return str(found) if found else None

    @property
    def owner_dir(self) -> str | None:
        """The directory of the index that owns this collection (None: marked before
        collections recorded it, or unmarked)."""
        found = (self._col.metadata or {}).get(OWNER_DIR_KEY)
        return str(found) if found else None

    @property
    def dimension(self) -> int | None:
        """The vector length the collection was fixed to at its first write (None: empty), as fetched."""
        found = self._col.get_model().dimension
        return int(found) if found else None

    def claim(self, owner: str, owner_dir: str) -> None:
        """Mark the collection as the index ``owner``'s, kept in the directory ``owner_dir``
        (without chromadb's legacy ``hnsw:`` keys, which it refuses to be sent again)."""
        kept = {k: v for k, v in (self._col.metadata or {}).items() if not k.startswith("hnsw:")}
        with self._reaching():
            self._col.modify(metadata={**kept, OWNER_KEY: owner, OWNER_DIR_KEY: owner_dir})

    def upsert(self, ids: Sequence[str], vectors: Vectors, metadatas: Sequence[Metadata]) -> None:
        step = 2000  # Chroma caps one request's size; stay well below it
        with self._reaching():
            for i in range(0, len(ids), step):
                self._col.upsert(
                    ids=list(ids[i : i + step]),
                    embeddings=np.asarray(vectors[i : i + step], dtype=np.float32),
                    metadatas=[dict(m) for m in metadatas[i : i + step]],
                )

    def delete(self, ids: Sequence[str]) -> None:
        step = 2000
        with self._reaching():
            for i in range(0, len(ids), step):
                self._col.delete(ids=list(ids[i : i + step]))

    def search_many(
        self, vectors: Vectors, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]:
        """One nearest-neighbour list per row of ``vectors``, in a single request (no
        ``count()`` round trip first: Chroma answers an ``n_results`` above its size with
        what it has)."""
        fallback = self.fallback
        if fallback is not None and fallback.out_of_step():
            return fallback.search_many(vectors, k, where=where, ids=ids)
        batch = np.asarray(vectors, dtype=np.float32)
        if batch.ndim != 2:
            raise ValueError(f"vectors must be a 2-d array (one row per query), got shape {batch.shape}")
        if k <= 0 or batch.shape[0] == 0 or (ids is not None and not ids):
            return [[] for _ in range(batch.shape[0])]
        args = {"query_embeddings": batch, "n_results": k, "where": dict(where) if where else None,
                "ids": list(ids) if ids is not None else None}
        try:
            res = self._query(args)
        except ServerUnreachableError as exc:
            if not callable(went_down := getattr(fallback, "down", None)):  # no fallback: nothing to search instead
                raise
            went_down(exc)  # the index's own vectors until the next look (stores.server_down, stores.writer_search)
            return fallback.search_many(vectors, k, where=where, ids=ids)  # type: ignore[union-attr]
        except CollectionGone:
            if fallback is None:
                raise
            # Gone from a server that was wiped (or the collection deleted): the check looks
            # the collection up again by name, and judges a new one (`repair` made it) as it
            # judges any; until one holds the index's vectors, this searches them in memory.
            # A writer's fallback makes the collections again (``stores.writer_search``).
            fallback.lost()
            if fallback.out_of_step():
                return fallback.search_many(vectors, k, where=where, ids=ids)
            self._find_again()  # the one made again has another id
            res = self._query(args)
        return [
            [VectorHit(i, 1.0 - float(d)) for i, d in zip(row_ids, row_dist, strict=True)]
            for row_ids, row_dist in zip(res["ids"], res["distances"] or [], strict=True)
        ]

    def _query(self, args: Mapping[str, Any]) -> Any:
        """One ``query`` request on the collection held now (:meth:`count_found` may replace it)."""
        from chromadb.errors import InternalError

        query = functools.partial(self._col.query, **args, include=["distances"])
        with self._reaching():
            try:
                return query()
            except InternalError as exc:
                # Chroma can fail a query that races a concurrent delete of a hit ("Error
                # finding id"); the write has landed by the time we ask again.
                log.info("vector search raced a write (%s); retrying once", exc)
                time.sleep(0.01)
                return query()

    def _find_again(self) -> None:
        """Hold the collection of this name the server has now (CollectionGone: none)."""
        with self._reaching():
            self._col = self._client.get_collection(self.name, embedding_function=self._ef)

    def count_found(self) -> int | None:
        """:meth:`count`, looking the collection up again by name when the one this store
        holds is gone (a wiped server that ``repair`` refilled holds a new collection of
        that name, under another id); None while there is none."""
        from chromadb.errors import NotFoundError

        try:
            return self.count()
        except CollectionGone:
            with self._reaching():
                try:
                    col = self._client.get_collection(self.name, embedding_function=self._ef)
                except NotFoundError:
                    return None
            log.info("[skill_retriever][index] the collection %s on %s was made again (another id)", self.name, self.url)
            self._col = col
            return self.count()

    def all_ids_and_hashes(self) -> dict[str, str]:
        out: dict[str, str] = {}
        total, step = self.count(), 5000
        with self._reaching():
            for off in range(0, total, step):
                got = self._col.get(include=["metadatas"], limit=step, offset=off)
                for i, m in zip(got["ids"], got["metadatas"], strict=True):
                    out[i] = str((m or {}).get("hash", ""))
        return out

    def count(self) -> int:
        with self._reaching():
            return int(self._col.count())


__all__ = [
    "HNSW",
    "OWNER_DIR_KEY",
    "OWNER_KEY",
    "ChromaVectorStore",
    "CollectionGone",
    "OutOfStepSearch",
    "VectorHit",
    "VectorStore",
    "check_chroma_server",
    "check_chroma_url",
    "chroma_client",
]
