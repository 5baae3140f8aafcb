"""`Retriever`: the Python facade over the compiled graph, returning typed results."""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from skill_retriever.config import RetrievalConfig, RetrievalContext, Route
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.rerank import Reranker, default_reranker
from skill_retriever.state import InputState
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

    @classmethod
    def from_output(cls, out: Mapping[str, Any]) -> SearchResponse:
        """From the graph's output state (``OutputState``)."""
        return cls(
            results=[SearchResult.from_state(r) for r in out.get("results", [])],
            route=out.get("route", ""),
            reranker=out.get("reranker", "none"),
            stats=dict(out.get("stats", {})),
            warnings=list(out.get("warnings", [])),
        )


_DEFAULT = object()


class Retriever:
    """Search an :class:`Index` through the retrieval graph.

    Args:
        index: the index to search.
        config: default settings; each call may override any of them.
        reranker: a :class:`Reranker`, ``None`` for no reranking, or the default
            (a cross-encoder if one loads offline, else the embedding fallback), built on
            first use.
        cache_size: answers kept for repeated queries (0 = no cache). The key holds the
            query, every setting, the filters and the index version, so any write to the
            index makes older answers unreachable (read-after-write holds).
    """

    def __init__(
        self,
        index: Index,
        config: RetrievalConfig | None = None,
        reranker: Reranker | None | object = _DEFAULT,
        *,
        cache_size: int = 1024,
    ) -> None:
        from skill_retriever.graph import graph

        if cache_size < 0:
            raise ConfigError(f"cache_size must be >= 0, got {cache_size}")
        self._cache: OrderedDict[str, SearchResponse] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
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
        return self.search_many(
            [query], k=k, budget=budget, route=route, filters=filters, kinds=kinds, principals=principals, **overrides
        )[0]

    def search_many(
        self,
        queries: Sequence[str],
        *,
        k: int | None = None,
        budget: int | None = None,
        route: Route | None = None,
        filters: Filters | Mapping[str, Any] | None = None,
        kinds: Iterable[str] | None = None,
        principals: Iterable[str] | None = None,
        **overrides: Any,
    ) -> list[SearchResponse]:
        """Several queries at once: the ones not answered from the cache are embedded in
        one batch, then each runs through the graph. Same arguments as :meth:`search`."""
        config = self.config.override(**overrides) if overrides else self.config
        spec = _filter_spec(filters, kinds, principals)
        context = self.context(config)
        keys = [self._key(q, config, spec, k, budget, route) for q in queries]
        out: list[SearchResponse | None] = [self._cached(key) for key in keys]
        todo = [i for i, hit in enumerate(out) if hit is None]
        vectors = self._batch_vectors([queries[i] for i in todo], config)
        for i, vector in zip(todo, vectors, strict=True):
            payload: InputState = {"query": queries[i], "filters": spec}
            if vector is not None:
                payload["query_vector"] = vector
            if k is not None:
                payload["k"] = k
            if budget is not None:
                payload["token_budget"] = budget
            if route is not None:
                payload["route"] = route
            version = self.index.version
            response = self._response(self.graph.invoke(payload, context=context))  # type: ignore[arg-type]
            out[i] = response
            if version == self.index.version:  # don't cache an answer that raced a write
                self._store(keys[i], response)
        return [r for r in out if r is not None]

    def _batch_vectors(self, queries: Sequence[str], config: RetrievalConfig) -> list[list[float] | None]:
        """Embed the search texts of valid queries in one call; invalid ones get None and
        fail with their own clear error inside the graph."""
        from skill_retriever.exceptions import QueryError
        from skill_retriever.phases.plan_query import clean_query, search_text_of

        if len(queries) < 2:
            return [None] * len(queries)
        texts: list[str | None] = []
        for q in queries:
            try:
                texts.append(search_text_of(clean_query(q, config.max_query_chars), config)[0])
            except QueryError:
                texts.append(None)
        valid = [t for t in texts if t is not None]
        vecs = iter(self.index.embedder.embed(valid)) if valid else iter(())
        return [None if t is None else [float(x) for x in next(vecs)] for t in texts]

    def _key(self, query: str, config: RetrievalConfig, spec: Mapping[str, Any], *rest: Any) -> str:
        # With the wall clock as "now", a time window moves: answers last one minute.
        clock = int(time.time() // 60) if config.now is None else 0
        return json.dumps(
            [query, repr(config), spec, rest, self.index.version, id(self.index), id(self._reranker), clock],
            sort_keys=True,
            default=str,
        )

    def _cached(self, key: str) -> SearchResponse | None:
        if not self._cache_size:
            return None
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is None:
                return None
            self._cache.move_to_end(key)
        # Copies: a caller who edits its answer must not edit the cache.
        return replace(
            hit, results=list(hit.results), warnings=list(hit.warnings), stats={**hit.stats, "cache": {"hit": True}}
        )

    def _store(self, key: str, response: SearchResponse) -> None:
        if not self._cache_size:
            return
        with self._cache_lock:
            self._cache[key] = response
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    @staticmethod
    def _response(out: Mapping[str, Any]) -> SearchResponse:
        return SearchResponse.from_output(out)


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
        if not isinstance(filters, Mapping):
            raise ConfigError(f"filters must be a Filters or a mapping, got {type(filters).__name__}")
        spec.update(filters)
    if kinds is not None:
        spec["kinds"] = _names(kinds, "kinds")
    if principals is not None:
        spec["principals"] = _names(principals, "principals")
    return spec


def _names(value: Iterable[str] | str, what: str) -> list[str]:
    """A list of names; one string is one name (never its characters: ``principals="alice"``
    must not become the principals a, c, e, i, l)."""
    if isinstance(value, str):
        return [value]
    try:
        names = sorted(value)
    except TypeError as exc:
        raise ConfigError(f"{what} must be a list of strings, got {value!r:.60}") from exc
    if not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{what} must be a list of strings, got {value!r:.60}")
    return names
