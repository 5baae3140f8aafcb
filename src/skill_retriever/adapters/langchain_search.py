"""How the LangChain faces run a search: the ``Retriever`` behind an index, the search
with a caller's LangChain ``config`` (so the phases nest under its trace), the snapshot an
answer was read from, and one result as a ``Document``. ``adapters.langchain`` builds the
retriever and the agent tool on these."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.documents import Document
from langchain_core.runnables import RunnableConfig

from skill_retriever.config import Route
from skill_retriever.ingest.document_sections import read_from
from skill_retriever.retriever import Retriever, SearchResponse, SearchResult
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

log = logging.getLogger("skill_retriever")

__all__ = [
    "arun_search",
    "as_retriever",
    "asearch_with_snapshot",
    "documents_of",
    "run_search",
    "search_with_snapshot",
    "to_document",
]


def as_retriever(index_or_retriever: Index | Retriever, **kwargs: Any) -> Retriever:
    """A :class:`Retriever` facade over an index (or the facade itself, unchanged)."""
    if isinstance(index_or_retriever, Retriever):
        return index_or_retriever
    if isinstance(index_or_retriever, Index):
        return Retriever(index_or_retriever, **kwargs)
    raise TypeError(f"expected an Index or a Retriever, got {type(index_or_retriever).__name__}")


def run_search(
    retriever: Retriever,
    query: str,
    *,
    k: int | None = None,
    token_budget: int | None = None,
    route: Route | None = None,
    filters: Mapping[str, Any] | None = None,
    kinds: Iterable[str] | None = None,
    config: RunnableConfig | None = None,
    **overrides: Any,
) -> SearchResponse:
    """``Retriever.search`` with a LangChain ``config`` (callbacks, tags, metadata), so the
    phases nest under the caller's trace. Adds nothing else: the Retriever's rules (its
    principals, the answer cache) hold here too."""
    return retriever.search(
        query, k=k, budget=token_budget, route=route, filters=filters, kinds=kinds, run_config=config, **overrides
    )


async def arun_search(
    retriever: Retriever,
    query: str,
    *,
    k: int | None = None,
    token_budget: int | None = None,
    route: Route | None = None,
    filters: Mapping[str, Any] | None = None,
    kinds: Iterable[str] | None = None,
    config: RunnableConfig | None = None,
    **overrides: Any,
) -> SearchResponse:
    """Async :func:`run_search`."""
    return await retriever.asearch(
        query, k=k, budget=token_budget, route=route, filters=filters, kinds=kinds, run_config=config, **overrides
    )


def search_with_snapshot(
    retriever: Retriever, query: str, **kwargs: Any
) -> tuple[SearchResponse, IndexSnapshot]:
    """:func:`run_search` on a snapshot pinned first, returned with the answer: what is
    built from the answer (full texts, sources, path names) is then of the same version
    as its scores and snippets, however many writes land meanwhile."""
    snapshot = retriever.index.snapshot()
    return run_search(retriever, query, snapshot=snapshot, **kwargs), snapshot


async def asearch_with_snapshot(
    retriever: Retriever, query: str, **kwargs: Any
) -> tuple[SearchResponse, IndexSnapshot]:
    """Async :func:`search_with_snapshot`."""
    snapshot = retriever.index.snapshot()
    return await arun_search(retriever, query, snapshot=snapshot, **kwargs), snapshot


def to_document(result: SearchResult, snapshot: IndexSnapshot, response: SearchResponse) -> Document:
    """One result as a ``Document``: full text as content, evidence as metadata.

    ``snapshot`` must be the one the search read (:func:`search_with_snapshot`): a later
    one may hold another version of the item, or none.
    """
    node = snapshot.nodes.get(result.id)
    text = node.embedding_text() if node is not None else result.snippet
    metadata: dict[str, Any] = {
        "id": result.id,
        "kind": result.kind,
        "name": result.name,
        **(read_from(node) if node is not None else {"source": ""}),
        "snippet": result.snippet,
        "fusion_score": result.fusion_score,
        "rerank_score": result.rerank_score,
        "token_count": result.token_count,
        "channels": dict(result.channels),
        "path": list(result.path),
        "path_reliability": result.path_reliability,
        "route": response.route,
        "reranker": response.reranker,
        # The answer's, repeated on each document as route is: what the token budget
        # dropped, a phase that failed, "nothing fits" (a list of documents has no
        # metadata of its own; documents_of also logs them).
        "warnings": list(response.warnings),
        "nothing_fits": response.nothing_fits,
    }
    if result.flags:
        metadata["flags"] = list(result.flags)
    return Document(id=result.id, page_content=text, metadata=metadata)


def documents_of(response: SearchResponse, snapshot: IndexSnapshot) -> list[Document]:
    """The answer as ``Document``\\ s, its warnings logged on the ``skill_retriever``
    logger at WARNING: a retriever returns only documents, so fewer of them than ``k``
    (the token budget dropped the rest) or none at all must be said somewhere a caller
    sees without asking; each document also carries them (:func:`to_document`)."""
    for warning in response.warnings:
        log.warning("[skill_retriever][langchain] %s", warning)
    return [to_document(r, snapshot, response) for r in response.results]
