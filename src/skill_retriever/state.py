"""The typed state of the retrieval graph.

``InputState`` is what a caller passes, ``OutputState`` what comes back, ``RetrievalState``
everything in between. Only keys that several branches or rounds write have reducers
(``channel_rankings``, ``gap_rounds``, ``stats``, ``warnings``, ``dropped_ids``). Everything
here is plain JSON-able data, so checkpointers, LangGraph Server and Studio can store and
show it; the index snapshot, the resolved settings and the models travel in the context
(``skill_retriever.context``), never here.

A state outlives a run where a checkpointer keeps a thread, or a parent graph loops: the
first phase therefore starts every run afresh (`fresh_run`), and no phase writes an input
key (the route it took is ``route_taken``) except to clear ``query_vector``, which the output
carries as None so that a parent's copy is cleared too: nothing of one query reaches the next.
The query's embedding is no key at all: the query's view holds it (`QueryView.embedding`),
so streams, traces and checkpoints carry no embedding the graph made.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired

from langgraph.types import Overwrite

# typing_extensions' TypedDict: pydantic (LangGraph's input and output JSON schemas, which
# Studio and `langgraph dev` show) refuses typing's before Python 3.12.
from typing_extensions import TypedDict

from skill_retriever.config import Route


def union_ids(left: list[str] | None, right: list[str] | None) -> list[str]:
    """Reducer: the ids of both sides, each once, sorted (JSON has no sets)."""
    return sorted({*(left or ()), *(right or ())})


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


#: How a candidate reached the graph route: a dense seed, an end of a matching relation,
#: an item named in the query, the far end of a typed hop, graph expansion, gap filling.
Via = Literal["seed", "edge-seed", "entity", "fact", "relation", "expand", "gap"]


class Candidate(TypedDict):
    """An item the graph route is considering, and how it got there."""

    id: str
    similarity: float
    via: Via
    level: NotRequired[int]  # expand: the level that reached it
    component: NotRequired[str]  # gap: the query component it fills
    relation: NotRequired[str]  # relation: "KIND direction of <name>"


class TimeWindowSpec(TypedDict):
    """A time window as ``algorithms.temporal.TimeWindow.to_spec`` writes it."""

    start: str | None
    end: str | None
    phrase: str | None


class RelationHop(TypedDict):
    """A typed hop from a named item ("a service that checkout-api depends on")."""

    name: str
    kind: str
    direction: Literal["out", "in", "both"]
    phrase: str


class QueryPlan(TypedDict):
    query: str  # the query as given, trimmed (and cut to the configured length)
    search_text: str  # the query without its time phrase (what the channels search)
    entities: list[str]
    complexity: str
    route: str
    components: list[str]
    time_window: NotRequired[TimeWindowSpec]
    relations: NotRequired[list[RelationHop]]
    #: With typed hops: the search text without the names they start from, which the
    #: keyword and semantic channels search (`querytext.without_names`)
    content_text: NotRequired[str]
    #: With typed hops that lead somewhere: the kind of item the query's words ask for
    #: (`algorithms.relations.asked_kind`), which score fusion puts first
    answer_kind: NotRequired[str]


class GapRound(TypedDict):
    """One round of gap filling: components missing, how many went to the vector search,
    items added."""

    components: int
    by_vector: int
    added: int


class Fused(TypedDict):
    """One item of the fused list: its RRF score and its rank in each channel."""

    id: str
    score: float
    ranks: dict[str, int]
    rerank_score: NotRequired[float]
    order_score: NotRequired[float]  # what the list is sorted by when not the score (asks covered, rerank)


class Result(TypedDict):
    """One retrieved item, explained."""

    id: str
    kind: str
    name: str
    snippet: str
    score: float  # the score the results are ordered by (fusion, or the reranked order's)
    fusion_score: float
    rerank_score: float | None
    token_count: int
    channels: dict[str, int]  # channel -> rank (from 1)
    path: NotRequired[PathInfo]
    flags: NotRequired[list[str]]


class QueryInput(TypedDict):
    """What a caller passes; all the served graph takes (``adapters.langgraph_server``),
    which has no use for ``query_vector``."""

    query: str
    k: NotRequired[int]
    token_budget: NotRequired[int | None]
    route: NotRequired[Route | None]  # None: the router chooses (Studio offers the three)
    filters: NotRequired[FilterSpec]
    profile: NotRequired[dict[str, Any] | str]  # per-call RetrievalConfig overrides, or a profile's name


class InputState(QueryInput):
    # Precomputed (batched) embedding of this call's search text: used once, then cleared,
    # so a later query in the same thread is never searched with it.
    query_vector: NotRequired[list[float] | None]


class FitInfo(TypedDict):
    """How well the catalogue answers the query (``calibration.Fit``)."""

    confidence: float
    nothing_fits: bool
    top_similarity: float
    agree: bool


class Answer(TypedDict):
    """What a search answers. The route it took is ``route_taken``, not ``route``: an
    input key that were also an output would stay in a parent graph's state (a
    checkpointed thread, a loop) and force the next query onto this one's route."""

    results: list[Result]
    route_taken: str
    reranker: str
    fit: NotRequired[FitInfo | None]  # None (or absent): the index was never calibrated
    stats: dict[str, Any]
    warnings: list[str]


class OutputState(Answer):
    """What the graph answers: the answer, and ``query_vector`` always None. A parent
    graph that shares the key (a checkpointed thread, a loop) keeps an input until
    something writes it: without this write, a vector given with one query searched
    every later query of the thread that gave none."""

    query_vector: NotRequired[list[float] | None]


class RetrievalState(InputState):
    route_taken: str  # the route of this run (the router reads it)
    pin: str  # the key of this query's pinned snapshot and settings in the context
    plan: QueryPlan
    seeds: list[Candidate]
    relational: bool  # a typed hop resolved to visible items: the graph walk starts there
    candidates: list[Candidate]
    coverage: float
    missing_components: list[str]
    gap_rounds: Annotated[list[GapRound], operator.add]
    ppr_scores: dict[str, float]
    alpha: float
    paths: dict[str, PathInfo]
    channel_rankings: Annotated[dict[str, list[ChannelHit]], merge_dicts]
    # The semantic search against the query alone, when feedback moved the channel's own
    # (retrieve_seeds): what "nothing fits" reads, as its calibration measured it.
    semantic_before_feedback: list[ChannelHit]
    fused: list[Fused]
    results: list[Result]
    reranker: str
    fit: FitInfo | None  # None: the index was never calibrated
    stats: Annotated[dict[str, Any], merge_dicts]
    warnings: Annotated[list[str], operator.add]
    # Ids a run resumed on a changed index dropped (`phases._helpers.held_only`): several
    # phases may drop the same one; the last phase counts them once, in one warning.
    dropped_ids: Annotated[list[str], union_ids]


def fresh_run() -> dict[str, Any]:
    """What the first phase writes besides its own keys, so that no key of an earlier run
    in the same thread reaches this one: a reducer key is overwritten (`Overwrite` passes
    its reducer by), every other key the phases write is emptied. (``plan``, ``pin``,
    ``route_taken``, ``stats`` and ``warnings`` the first phase writes itself.)"""
    return {
        "query_vector": None,
        "seeds": [],
        "relational": False,
        "candidates": [],
        "coverage": 1.0,
        "missing_components": [],
        "semantic_before_feedback": [],
        "gap_rounds": Overwrite([]),
        "ppr_scores": {},
        "alpha": 0.0,
        "paths": {},
        "channel_rankings": Overwrite({}),
        "fused": [],
        "results": [],
        "reranker": "none",  # until the rerank phase says what ran
        "fit": None,
        "dropped_ids": Overwrite([]),
    }
