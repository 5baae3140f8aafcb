"""plan_query: validate the query, find entities and a time window, pick the route,
and embed the query once for every channel."""

from __future__ import annotations

import math
import threading
import unicodedata
import weakref
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime

from skill_retriever.algorithms.query_terms import (
    NameMatcher,
    classify_complexity,
    named_entities,
    query_components,
)
from skill_retriever.algorithms.relations import relation_hops
from skill_retriever.algorithms.temporal import TimeWindow, parse_time_window, strip_time_phrase
from skill_retriever.config import RetrievalConfig, RetrievalContext
from skill_retriever.exceptions import QueryError
from skill_retriever.filters import Filters
from skill_retriever.model import Node
from skill_retriever.phases._common import Update, filters_of, phase, settings
from skill_retriever.state import QueryPlan, RetrievalState
from skill_retriever.stores.index import Index

#: simple queries take the quick route, multi-hop ones the PPR route, the rest smart.
ROUTE_BY_COMPLEXITY = {"simple": "quick", "medium": "smart", "complex": "ppr"}

_matchers: weakref.WeakKeyDictionary[Index, tuple[Mapping[str, Node], NameMatcher]] = weakref.WeakKeyDictionary()
_matchers_lock = threading.Lock()


def name_matcher(index: Index) -> NameMatcher:
    """The index's item names as a matcher, rebuilt only when the node snapshot changed
    (keyed by the snapshot itself: the version moves before a write publishes)."""
    with _matchers_lock:
        nodes = index.nodes
        cached = _matchers.get(index)
        if cached is None or cached[0] is not nodes:
            cached = (nodes, NameMatcher(n.name for n in nodes.values()))
            _matchers[index] = cached
        return cached[1]


def visible_names(index: Index, text: str, filters: Filters) -> NameMatcher:
    """The item names found in ``text`` that name at least one item the caller may see.

    The matcher holds every name; a private item's name must not become an entity (nor
    change the route or the PPR alpha) for a caller who cannot see the item.
    """
    found = name_matcher(index).find(text)
    if not found or filters.is_trivial:
        return NameMatcher(found)
    return NameMatcher(
        name for name in found if any(filters.can_see(n) for n in index.nodes_named({name.casefold()}))
    )


def clean_query(query: Any, max_chars: int) -> str:
    """The query trimmed, or a QueryError that says what is wrong with it."""
    if isinstance(query, bytes):
        raise QueryError("the query is bytes; decode it to text (UTF-8) first")
    if not isinstance(query, str):
        raise QueryError(f"the query must be text, got {type(query).__name__}")
    if len(query) > max_chars and len(query.strip()) > max_chars:  # before any per-character work
        raise QueryError(
            f"the query is {len(query.strip())} characters, over the limit of {max_chars}; "
            "shorten it or raise max_query_chars"
        )
    # Control characters carry no meaning for retrieval; surrogates cannot be encoded.
    text = "".join(
        " " if unicodedata.category(c) in ("Cc", "Cs") else c for c in query
    ).strip()
    if not text:
        raise QueryError("the query is empty; ask for something, e.g. 'deploy a postgres migration'")
    if len(text) > max_chars:
        raise QueryError(
            f"the query is {len(text)} characters, over the limit of {max_chars}; "
            "shorten it or raise max_query_chars"
        )
    return text


def search_text_of(query: str, config: RetrievalConfig) -> tuple[str, TimeWindow | None]:
    """The text the channels search (the query less its time phrase) and the window."""
    now = config.now or datetime.now(UTC)
    window = parse_time_window(query, now, recent_days=config.recent_days)
    text = strip_time_phrase(query, window) if window else query
    return (text if text.strip() else query), window


@phase("plan_query", optional=False)
def plan_query(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    filters = filters_of(state)  # validate early: a bad filter is the caller's error, not a degradation
    index = runtime.context.index
    query = clean_query(state.get("query"), config.max_query_chars)
    search_text, window = search_text_of(query, config)
    names = visible_names(index, search_text, filters)
    entities = named_entities(search_text, names)
    hops = relation_hops(search_text, names.find(search_text))
    # A typed hop is a multi-hop question by definition: the PPR route walks from its far end.
    complexity = "complex" if hops else classify_complexity(search_text, entities)
    route = config.route or ROUTE_BY_COMPLEXITY[complexity]
    plan: QueryPlan = {
        "query": query,
        "search_text": search_text,
        "entities": entities,
        "complexity": complexity,
        "route": route,
        "components": query_components(search_text, config.component_min_length),
    }
    if hops:
        plan["relations"] = [
            {"name": h.name, "kind": h.kind.value, "direction": h.direction, "phrase": h.phrase} for h in hops
        ]
    if window is not None:
        plan["time_window"] = {
            "start": window.start.isoformat() if window.start else None,
            "end": window.end.isoformat() if window.end else None,
            "phrase": window.phrase,
        }
    given = state.get("query_vector")
    usable = (
        isinstance(given, (list, tuple))
        and len(given) == index.embedder.dim
        and all(isinstance(x, (int, float)) and math.isfinite(x) and abs(x) <= 1e6 for x in given)
    )  # anything else (wrong size, NaN, huge, not a list) is ignored: the query is embedded here
    vector = given if usable else index.embed_query(search_text)
    return {
        "plan": plan,
        "route": route,
        "query_vector": [float(x) for x in vector],
        "stats": {
            "plan_query": {
                "route": route,
                "complexity": complexity,
                "entities": len(entities),
                "relations": len(hops),
                "components": len(plan["components"]),
                "time_window": window.phrase if window else None,
            }
        },
    }
