"""The typed state of the retrieval graph.

``InputState`` is what a caller passes, ``OutputState`` what comes back, ``RetrievalState``
everything in between. Only keys that parallel branches write have reducers
(``channel_rankings``, ``stats``, ``warnings``). Everything here is plain JSON-able data,
so checkpointers, LangGraph Server and Studio can store and show it; stores and models
travel in the context (``RetrievalContext``), never here.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired, TypedDict


def merge_dicts(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Reducer: later writers add keys; a key written twice keeps the later value."""
    return {**(left or {}), **(right or {})}


class FilterSpec(TypedDict, total=False):
    """JSON form of :class:`skill_retriever.filters.Filters`."""

    kinds: list[str]
    tags: list[str]
    principals: list[str]
    since: str
    until: str


class ChannelHit(TypedDict):
    id: str
    score: float


class PathInfo(TypedDict):
    nodes: list[str]
    reliability: float


class Candidate(TypedDict):
    """An item the graph route is considering, and how it got there."""

    id: str
    similarity: float
    via: str  # "seed", "edge-seed", "entity", "expand:1", "gap:<component>", ...


class QueryPlan(TypedDict):
    query: str  # the query as given, trimmed
    search_text: str  # the query without its time phrase (what the channels search)
    entities: list[str]
    complexity: str
    route: str
    components: list[str]
    time_window: NotRequired[dict[str, str | None]]
    # typed hops from a named item ("a service that checkout-api depends on"): name, kind,
    # direction ("out", "in", "both") and the phrase that asked for it
    relations: NotRequired[list[dict[str, str]]]


class Result(TypedDict):
    """One retrieved item, explained."""

    id: str
    kind: str
    name: str
    snippet: str
    fusion_score: float
    rerank_score: float | None
    token_count: int
    channels: dict[str, int]  # channel -> rank (from 1)
    path: NotRequired[PathInfo]
    flags: NotRequired[list[str]]


class InputState(TypedDict):
    query: str
    k: NotRequired[int]
    token_budget: NotRequired[int | None]
    route: NotRequired[str | None]
    filters: NotRequired[FilterSpec]
    profile: NotRequired[dict[str, Any]]  # per-call RetrievalConfig overrides
    query_vector: NotRequired[list[float]]  # precomputed (batched) embedding of the search text


class OutputState(TypedDict):
    results: list[Result]
    route: str
    reranker: str
    stats: dict[str, Any]
    warnings: list[str]


class RetrievalState(InputState):
    plan: QueryPlan
    route: str  # type: ignore[misc]  # narrowed: always set after plan_query
    query_vector: list[float]
    seeds: list[Candidate]
    candidates: list[Candidate]
    coverage: float
    missing_components: list[str]
    iterations: int
    ppr_scores: dict[str, float]
    alpha: float
    paths: dict[str, PathInfo]
    channel_rankings: Annotated[dict[str, list[ChannelHit]], merge_dicts]
    fused: list[dict[str, Any]]
    results: list[Result]
    reranker: str
    stats: Annotated[dict[str, Any], merge_dicts]
    warnings: Annotated[list[str], operator.add]
