"""`Retriever`: the one door into the retrieval graph, sync and async, with typed results.

Every adapter (the LangChain retriever, the agent tool, the bigtool functions, the MCP
server, the CLI) searches through a `Retriever`, so they all share its rules: settings
resolved once per call, the caller's principals, a pinned snapshot, the answer cache.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Self

from langchain_core.runnables import RunnableConfig

from skill_retriever.answer_cache import AnswerCache, answer_key
from skill_retriever.config import RetrievalConfig, Route
from skill_retriever.context import RetrievalContext
from skill_retriever.dated_items import carries_dates
from skill_retriever.exceptions import ConfigError, RetrieverClosedError
from skill_retriever.filters import Filters
from skill_retriever.open_handle import OpenHandle
from skill_retriever.rerank import Reranker, default_reranker
from skill_retriever.rerank_wanted import reranks
from skill_retriever.responses import SearchResponse, SearchResult
from skill_retriever.result_reasons import explained
from skill_retriever.retriever_args import (
    DEFAULT_RERANKER,
    Default,
    cache_size_of,
    check_config,
    check_graph,
    check_index,
    check_reranker,
    check_run_config,
    in_order,
    names,
    no_search_only,
    search_texts,
    text_query,
    whole,
)
from skill_retriever.retriever_warm_up import warm_up
from skill_retriever.state import InputState
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot
from skill_retriever.uncalibrated import uncalibrated_note


@dataclass(frozen=True)
class _Call:
    """One search call, resolved: the payload, the context that pins its snapshot, and
    the cache key (which names that snapshot, so no answer outlives a write)."""

    payload: InputState
    context: RetrievalContext
    key: str


class Retriever(OpenHandle):
    """Search an :class:`Index` through the retrieval graph.

    Args:
        index: The index to search.
        config: Default settings; each call may override any of them.
        reranker: A :class:`Reranker` (an object with a ``name`` and ``score(query,
            texts)``, e.g. ``CrossEncoderReranker("cross-encoder/ms-marco-MiniLM-L6-v2")``
            or ``EmbeddingReranker(index.embedder)``), ``None`` for no reranking, or
            `DEFAULT_RERANKER`: a cross-encoder when one loads offline
            (``rerank.default_reranker``), else none. A model name is not taken: wrap it
            in ``CrossEncoderReranker(name)``, which loads it (and fails) at once.
        cache_size: Answers kept for repeated queries (0 = no cache). The key holds the
            query, every setting, the filters and the snapshot the answer came from, so
            no answer is served once a later write has returned.
        principals: The caller's access principals for every call that does not name its
            own (None = anonymous: public items only; ``["*"]`` sees everything).
        graph: The compiled retrieval graph to run (default ``skill_retriever.graph.graph``;
            e.g. one compiled with another name by ``build_graph``).

    Raises:
        ConfigError: An argument of the wrong kind (a path for the index, a dict for the
            config, a string or a number for the reranker, a cache size that is not a whole
            number of 0 or more, a graph with no ``invoke``).
    """

    _reopen = "Retriever(Index.open(path))"  # in another process (`OpenHandle`: no pickling)
    _copy_shares = "and its answer cache and models, but not its closed state"  # `OpenHandle.__copy__`
    _copy_instead = ", or make another over the same index: Retriever(retriever.index, retriever.config, ...)"

    def __init__(
        self,
        index: Index,
        config: RetrievalConfig | None = None,
        reranker: Reranker | Default | None = DEFAULT_RERANKER,
        *,
        cache_size: int = 1024,
        principals: Iterable[str] | None = None,
        graph: Any = None,
    ) -> None:
        from skill_retriever.graph import graph as compiled

        check_index(index)
        check_config(config)
        size = cache_size_of(cache_size)
        check_reranker(reranker)
        check_graph(graph)
        self._answers = AnswerCache(size)
        self.index = index
        self.config = config or RetrievalConfig()
        self.principals = None if principals is None else names(principals, "principals")
        self._reranker: Reranker | Default | None = reranker
        self._loads_reranker = isinstance(reranker, Default)  # the model is its own, to let go at close
        self.graph = graph if graph is not None else compiled
        self._closed = False

    @property
    def reranker(self) -> Reranker | None:
        """The reranker searches use (`DEFAULT_RERANKER` is resolved here, once)."""
        self._check_open()
        if isinstance(self._reranker, Default):
            self._reranker = default_reranker()
        return self._reranker

    # -- closing ----------------------------------------------------------------------
    def close(self) -> None:
        """Let go of what this retriever loaded itself: the default reranker's model and
        the answer cache. The index, and a reranker passed in, are the caller's and stay
        open (close the index with ``index.close()`` or its own ``with``). Closing again
        does nothing; any use after it raises `RetrieverClosedError`."""
        self._closed = True
        if self._loads_reranker:
            self._reranker = DEFAULT_RERANKER
        self._answers = AnswerCache(0)

    @property
    def closed(self) -> bool:
        """Whether `close` was called (a ``with`` block's end calls it)."""
        return self._closed

    def __repr__(self) -> str:  # loads no reranker: names the one it has
        if self._closed:
            return f"<Retriever over {self.index!r}: closed>"
        ranker = self._reranker
        said = ("the default, not loaded yet" if isinstance(ranker, Default) else
                "none" if ranker is None else str(getattr(ranker, "name", type(ranker).__name__)))
        return f"<Retriever over {self.index!r}, reranker: {said}>"

    def __enter__(self) -> Self:
        self._check_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RetrieverClosedError(
                f"this Retriever was closed; make a new one: Retriever(index), the index at {self.index.path} open"
            )

    def context(self, config: RetrievalConfig | None = None) -> RetrievalContext:
        """A context for running the compiled graph yourself (``graph.invoke(state,
        context=...)``, ``graph.stream``): this retriever's index, settings and reranker.
        Each run pins the snapshot current when it starts."""
        self._check_open()
        cfg = config or self.config
        return RetrievalContext(index=self.index, config=cfg, reranker=self.reranker if reranks(cfg) else None)

    def warm_up(self) -> dict[str, float]:
        """Do now what the first search would otherwise pay for: load the embedding model
        (and the cross-encoder, if any), build the snapshot's derived views, load the
        token counter's encoding and run one search through the graph. Servers call it at
        start-up, in the background; an asyncio one before it takes requests, as those loads
        hold the GIL and would stall its event loop in a first `asearch`.

        Returns:
            Seconds spent per step (``model``, ``views``, ``tokenizer``, ``search``).
        """
        self._check_open()

        def search() -> None:
            call = self._prepare(["warm up"], 1, None, None, None, None, ["*"], {})[0]
            self.graph.invoke(call.payload, context=call.context)  # not cached: no one asked

        return warm_up(self.index, self.config.encoding, lambda: self.reranker, search)

    # -- searching --------------------------------------------------------------------
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
        run_config: RunnableConfig | None = None,
        snapshot: IndexSnapshot | None = None,
        **overrides: Any,
    ) -> SearchResponse:
        """Retrieve for ``query``.

        Args:
            query: What to find.
            k: How many results (default ``config.k``).
            budget: Token budget of the results (default ``config.token_budget``: none).
                Results are kept best first while they fit, and the first that does not
                fit ends the answer; ``budget_fill=True`` skips it and packs the next
                ones that fit instead. ``warnings`` says what the budget dropped.
            route: Force a route (smart, ppr, quick).
            filters: A :class:`Filters` or its JSON form (``kinds``, ``tags``,
                ``principals``, ``since``, ``until``).
            kinds, principals: Shortcuts for those filters (one string is one name).
            run_config: A LangChain ``RunnableConfig`` (callbacks, tags): the phases nest
                under the caller's trace.
            snapshot: The snapshot of this index to read (default: the current one). Pin
                one with ``index.snapshot()`` to build more from the answer (full texts,
                sources) of the very version the search read, whatever writes land meanwhile.
            overrides: RetrievalConfig fields for this call, e.g. ``channels={"temporal":
                False}``, ``rerank=False``, ``rrf_k=30``, ``budget_fill=True`` (see
                ``budget``), ``drop_flagged=True`` (results whose text looks like an
                instruction to a model, see `SearchResult.flags`, are dropped before the
                cut to ``k``, so clean ones take their places; by default they are kept,
                flagged), ``phase_timeouts={"rerank_cross_encoder": 0.5}``.

        Returns:
            A :class:`SearchResponse`: ``results`` best first, and ``warnings`` to show
            the caller (what the budget dropped, a phase that failed and was skipped,
            "nothing fits", filters that admit nothing, an index never calibrated, whose
            ``nothing_fits`` is then always False).

        Raises:
            QueryError: The query is unusable (empty, too long, not text).
            ConfigError: A bad argument or setting: ``k`` below 1, a negative budget, an
                unknown kind, filter, setting or phase name, a value of the wrong type.
            SkillRetrieverError: A required phase failed (an optional one is skipped,
                and ``warnings`` says so).
        """
        text_query(query, self.config)
        check_run_config(run_config)
        call = self._prepare([query], k, budget, route, filters, kinds, principals, overrides, snapshot)[0]
        return self._run(call, run_config)

    async def asearch(
        self,
        query: str,
        *,
        k: int | None = None,
        budget: int | None = None,
        route: Route | None = None,
        filters: Filters | Mapping[str, Any] | None = None,
        kinds: Iterable[str] | None = None,
        principals: Iterable[str] | None = None,
        run_config: RunnableConfig | None = None,
        snapshot: IndexSnapshot | None = None,
        **overrides: Any,
    ) -> SearchResponse:
        """:meth:`search` for asyncio (the phases run in LangGraph's executor threads). The
        first search of a process loads the model in code that holds the GIL: `warm_up` first."""
        text_query(query, self.config)
        check_run_config(run_config)
        call = self._prepare([query], k, budget, route, filters, kinds, principals, overrides, snapshot)[0]
        hit = self._answers.get(call.key)
        if hit is not None:
            return explained(hit, call.payload, call.context)
        out = await self.graph.ainvoke(call.payload, config=run_config, context=call.context)
        return self._finish(call, out)

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
        one batch, then each runs through the graph. Same arguments as :meth:`search`, but
        ``snapshot`` and ``run_config``: the batch reads the index's current snapshot, one for all.

        Every query is checked before any is searched: one bad query costs no work, and no
        answer is computed only to be lost with the error.

        Returns:
            One :class:`SearchResponse` per query, in the order of ``queries``.

        Raises:
            QueryError: A query is unusable (empty, too long, not text, a date that does not
                exist); the message names it by position, e.g. "query 2 of 3: the query is
                empty", and no query of the batch was searched.
            ConfigError: ``queries`` is one string, or has no order (a set, a mapping).
        """
        no_search_only(overrides)
        calls = self._prepare(in_order(queries), k, budget, route, filters, kinds, principals, overrides)
        snap = calls[0].context.snapshot if calls else None  # one for the batch (`_prepare`)
        texts = search_texts([(c.payload["query"], c.context.config) for c in calls],
                             dated=snap is not None and carries_dates(snap, Filters.from_spec(calls[0].payload.get("filters"))))
        todo = [(c, t) for c, t in zip(calls, texts, strict=True) if not self._answers.holds(c.key)]
        if len(todo) > 1:
            self._embed_batch(todo)
        return [self._run(c, None) for c in calls]

    # -- the parts of a call ----------------------------------------------------------
    def _prepare(
        self,
        queries: list[str],
        k: int | None,
        budget: int | None,
        route: Route | None,
        filters: Filters | Mapping[str, Any] | None,
        kinds: Iterable[str] | None,
        principals: Iterable[str] | None,
        overrides: dict[str, Any],
        snapshot: IndexSnapshot | None = None,
    ) -> list[_Call]:
        self._check_open()
        changes = dict(overrides)
        if k is not None:
            changes["k"] = whole(k)
        if budget is not None:
            changes["token_budget"] = whole(budget)
        if route is not None:
            changes["route"] = route
        config = self.config.override(**changes) if changes else self.config
        spec = self._filter_spec(filters, kinds, principals)
        Filters.from_spec(spec)  # a bad filter fails here, before any work
        if snapshot is None:
            snapshot = self.index.snapshot()
        elif not isinstance(snapshot, IndexSnapshot) or snapshot.path != self.index.path:
            raise ConfigError("snapshot must be one this retriever's index gave (index.snapshot())")
        context = RetrievalContext(
            index=self.index, config=config, reranker=self.reranker if reranks(config) else None, snapshot=snapshot,
            read_configurable=False,  # its settings are the call's, which its answer cache is keyed by
        )
        return [
            _Call({"query": q, "filters": spec}, context, answer_key(q, config, spec, snapshot, self.index, self._reranker))  # type: ignore[typeddict-item]
            for q in queries
        ]

    def _run(self, call: _Call, run_config: RunnableConfig | None) -> SearchResponse:
        hit = self._answers.get(call.key)
        if hit is not None:
            return explained(hit, call.payload, call.context)
        return self._finish(call, self.graph.invoke(call.payload, config=run_config, context=call.context))

    def _finish(self, call: _Call, out: Mapping[str, Any]) -> SearchResponse:
        assert call.context.snapshot is not None
        snapshot = call.context.snapshot
        response = SearchResponse.from_output(out, snapshot.version_for(Filters.from_spec(call.payload.get("filters"))))
        judged = response.fit is not None or not response.results
        if note := uncalibrated_note(snapshot, call.context.config, self.index.embedder, judged):
            response = replace(response, warnings=[*response.warnings, note])
        # An index run under way says so until its process ends, which no stored state
        # records (`run_marks.run_state`): such an answer is not kept. Nor one whose vectors
        # were searched in memory for want of its Chroma server: `repair` fills the server
        # without a new version, so the key would serve it, and its warning, ever after.
        if not snapshot.unfinished_runs and not snapshot.search_notes():
            self._answers.put(call.key, response)
        return explained(response, call.payload, call.context)  # after the store: the cache holds no snapshot

    def _embed_batch(self, texts: Sequence[tuple[_Call, str]]) -> None:
        """Embed the search texts of checked queries (`search_texts`) in one call."""
        vectors = self.index.embedder.embed([t for _, t in texts])
        for (c, _), v in zip(texts, vectors, strict=True):
            c.payload["query_vector"] = [float(x) for x in v]

    def _filter_spec(
        self, filters: Filters | Mapping[str, Any] | None, kinds: Iterable[str] | None, principals: Iterable[str] | None
    ) -> dict[str, Any]:
        spec: dict[str, Any] = {}
        if isinstance(filters, Filters):
            spec = filters.to_spec()
        elif filters is not None:
            if not isinstance(filters, Mapping):
                raise ConfigError(f"filters must be a Filters or a mapping, got {type(filters).__name__}")
            spec.update(filters)
        if kinds is not None:
            spec["kinds"] = names(kinds, "kinds", beside=spec)
        if principals is not None:
            spec["principals"] = names(principals, "principals", beside=spec)
        elif "principals" not in spec and self.principals is not None:
            spec["principals"] = list(self.principals)
        return spec


__all__ = ["DEFAULT_RERANKER", "Retriever", "SearchResponse", "SearchResult"]
