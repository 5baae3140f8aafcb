"""A query as text: validated and trimmed, its time phrase found, its parts bounded.

Used by ``plan_query`` (every query) and by ``Retriever.search_many`` (which embeds the
search texts of a batch in one call before the graph runs).

Long input: a query may be up to ``max_query_chars`` characters (100,000 by default: a
real agent task in a public tool benchmark runs to 18,686). The embedding reads what the
model reads (MiniLM: the first 256 word pieces), the keyword channel the first
``keyword_query_chars``, and entities, typed hops and query components the first
``plan_query_chars``: those are phrase-level signals, and their cost grows with length.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any

from skill_retriever.algorithms.temporal import TimeWindow, parse_time_window, strip_time_phrase
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import QueryError, QueryTooLongError

__all__ = ["clean_query", "long_query_note", "search_text_of"]


def clean_query(query: Any, max_chars: int) -> str:
    """The query trimmed, or a QueryError that says what is wrong with it."""
    if isinstance(query, bytes):
        raise QueryError("the query is bytes; decode it to text (UTF-8) first")
    if not isinstance(query, str):
        raise QueryError(f"the query must be text, got {type(query).__name__}")
    if len(query) > max_chars and len(query.strip()) > max_chars:  # before any per-character work
        raise QueryTooLongError(len(query.strip()), max_chars)
    # Control characters carry no meaning for retrieval; surrogates cannot be encoded.
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cs") else c for c in query).strip()
    if not text:
        raise QueryError("the query is empty; ask for something, e.g. 'deploy a postgres migration'")
    return text


def search_text_of(query: str, config: RetrievalConfig) -> tuple[str, TimeWindow | None]:
    """The text the channels search (the query less its time phrase) and the window."""
    now = config.now or datetime.now(UTC)
    head = query[: config.plan_query_chars]
    window = parse_time_window(head, now, recent_days=config.recent_days)
    if window is None:
        return query, None
    text = strip_time_phrase(head, window) + query[config.plan_query_chars :]
    return (text if text.strip() else query), window


def keyword_text(search_text: str, config: RetrievalConfig) -> str:
    """What the keyword channel, and each ask's keyword search, read of the search text:
    its first ``keyword_query_chars`` characters."""
    return search_text[: config.keyword_query_chars]


def long_query_note(query: str, config: RetrievalConfig) -> str | None:
    """A warning for a query longer than the planning window, saying what reads what."""
    if len(query) <= config.plan_query_chars:
        return None
    return (
        f"long query ({len(query):,} characters): the embedding reads about its first 256 word "
        f"pieces, keywords its first {config.keyword_query_chars:,} characters, entities and "
        f"query components its first {config.plan_query_chars:,}"
    )
