"""Refusing, before a run, the input values its first phase would refuse.

A checkpointed thread keeps a run's input from the moment the run starts, and a failed run
keeps it on purpose (``invoke(None, config)`` resumes it as it was asked). A value refused
inside the run (``k=0``, an unknown route or kind, a negative budget) therefore stayed in
the thread, and every later call that left that key out failed with the same error, naming
a value it never gave. `graph_input.InputCheckedGraph` runs these checks on a direct call's
input before the run, so a refused input never reaches the thread; the first phase still
checks the state itself, whatever the call (a parent's state, a ``Send``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext, resolve
from skill_retriever.filters import Filters
from skill_retriever.querytext import clean_query

__all__ = ["retrieval_values_checked"]


def retrieval_values_checked(given: Mapping[str, Any], context: Any) -> None:
    """Refuse a retrieval graph input's bad ``query``, ``k``, ``token_budget``, ``route``,
    ``profile`` or ``filters`` in the words its first phase (``plan_query``) uses.

    Raises:
        ConfigError: A bad setting, profile or filter.
        QueryError: A query that is not text, is empty, or is too long.
    """
    base = context.config if isinstance(context, RetrievalContext) else RetrievalConfig()
    settings = resolve(base, given)
    Filters.from_spec(given.get("filters"))
    if given.get("query") is not None:  # None: a thread's own query (or the missing-key error)
        clean_query(given["query"], settings.max_query_chars)
