"""`Retriever`: the Python facade over the compiled graph, returning typed results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from skill_retriever.config import RetrievalConfig, RetrievalContext, Route
from skill_retriever.filters import Filters
from skill_retriever.rerank import Reranker, default_reranker
from skill_retriever.state import InputState, OutputState
from skill_retriever.stores.index import Index


@dataclass(frozen=True)
class SearchResult:
    """One retrieved item with the scores and evidence that put it there."""

    id: str
    kind: str
    name: str
    snippet: str
    fusion_score: float
    rerank_score: float | None
    token_count: int
    channels: Mapping[str, int]
    path: tuple[str, ...] = ()
    path_reliability: float | None = None
    flags: tuple[str, ...] = ()

    @classmethod
    def from_state(cls, r: Mapping[str, Any]) -> SearchResult:
        path = r.get("path") or {}
        return cls(
            id=r["id"],
            kind=r["kind"],
            name=r["name"],
            snippet=r["snippet"],
            fusion_score=r["fusion_score"],
            rerank_score=r.get("rerank_score"),
            token_count=r["token_count"],
            channels=dict(r["channels"]),
            path=tuple(path.get("nodes", ())),
            path_reliability=path.get("reliability"),
            flags=tuple(r.get("flags", ())),
        )


@dataclass(frozen=True)
class SearchResponse:
    results: list[SearchResult]
    route: str
    reranker: str
    stats: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.results]


_DEFAULT = object()


class Retriever:
    """Search an :class:`Index` through the retrieval graph.

    Args:
        index: the index to search.
        config: default settings; each call may override any of them.
        reranker: a :class:`Reranker`, ``None`` for no reranking, or the default
            (a cross-encoder if one loads offline, else the embedding fallback), built on
            first use.
    """

    def __init__(self, index: Index, config: RetrievalConfig | None = None, reranker: Reranker | None | object = _DEFAULT) -> None:
        from skill_retriever.graph import graph

        self.index = index
        self.config = config or RetrievalConfig()
        self._reranker = reranker
        self.graph = graph

    @property
    def reranker(self) -> Reranker | None:
        if self._reranker is _DEFAULT:
            self._reranker = default_reranker(self.index.embedder)
        return self._reranker  # type: ignore[return-value]

    def context(self, config: RetrievalConfig | None = None) -> RetrievalContext:
        cfg = config or self.config
        return RetrievalContext(index=self.index, config=cfg, reranker=self.reranker if cfg.rerank else None)

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        budget: int | None = None,
        route: Route | None = None,
        filters: Filters | Mapping[str, Any] | None = None,
        kinds: Iterable[str] | None = None,
        principals: Iterable[str] | None = None,
        **overrides: Any,
    ) -> SearchResponse:
        """Retrieve for ``query``. ``overrides`` are RetrievalConfig fields for this call
        (e.g. ``channels={"temporal": False}``, ``rerank=False``, ``rrf_k=30``)."""
        config = self.config.override(**overrides) if overrides else self.config
        payload: InputState = {"query": query, "filters": _filter_spec(filters, kinds, principals)}
        if k is not None:
            payload["k"] = k
        if budget is not None:
            payload["token_budget"] = budget
        if route is not None:
            payload["route"] = route
        out: OutputState = self.graph.invoke(payload, context=self.context(config))  # type: ignore[assignment]
        return SearchResponse(
            results=[SearchResult.from_state(r) for r in out.get("results", [])],
            route=out.get("route", ""),
            reranker=out.get("reranker", "none"),
            stats=dict(out.get("stats", {})),
            warnings=list(out.get("warnings", [])),
        )


def _filter_spec(
    filters: Filters | Mapping[str, Any] | None, kinds: Iterable[str] | None, principals: Iterable[str] | None
) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if isinstance(filters, Filters):
        for name in ("kinds", "tags", "principals"):
            value = getattr(filters, name)
            if value is not None:
                spec[name] = sorted(value)
        for name in ("since", "until"):
            value = getattr(filters, name)
            if isinstance(value, datetime):
                spec[name] = value.isoformat()
    elif filters is not None:
        spec.update(filters)
    if kinds is not None:
        spec["kinds"] = sorted(kinds)
    if principals is not None:
        spec["principals"] = sorted(principals)
    return spec
