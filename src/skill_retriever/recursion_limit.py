"""How many steps the retrieval graph takes, and LangGraph's recursion error saying it.

LangGraph's ``recursion_limit`` (default 25) bounds the supersteps of one run, and a parent
graph passes its own to every graph it runs as a node or from a node: a parent made with
``with_config(recursion_limit=10)`` failed the retrieval graph with "Recursion limit of 10
reached", which named neither the subgraph nor the limit it needs. Each phase is one
superstep. The longest route is the smart one with its gap-filling round (which runs at most
once: `phases.check_completeness`), `MOST_STEPS` nodes: plan_query, search_keywords,
search_temporal, retrieve_seeds, expand_graph, check_completeness, fill_gaps,
check_completeness, rank_multifactor, fuse_rrf, cover_clauses, rerank_cross_encoder,
apply_token_budget. LangGraph counts the input as a step too, so a run needs a limit one
over that (``tests/adapters/test_graph_recursion_limit.py`` runs it at the limit and under).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from langgraph.errors import GraphRecursionError

__all__ = ["MIN_RECURSION_LIMIT", "MOST_STEPS", "recursion_said", "recursion_said_async"]

MOST_STEPS = 13
MIN_RECURSION_LIMIT = MOST_STEPS + 1

RECURSION_HINT = (
    f"The retrieval graph takes up to {MOST_STEPS} steps (the smart route with gap filling) and runs under "
    "the recursion_limit its caller's config sets (a parent graph passes its own to the graphs it runs): "
    f"give that a recursion_limit of {MIN_RECURSION_LIMIT} or more (LangGraph's default is 25)"
)


def _said(exc: GraphRecursionError) -> GraphRecursionError:
    first = str(exc).split("\n", 1)[0]  # LangGraph's own line first; its troubleshooting link dropped
    return GraphRecursionError(f"{first} {RECURSION_HINT}")


def recursion_said(chunks: Iterator[Any]) -> Iterator[Any]:
    """``chunks`` (a run's stream), its recursion error naming the limit the graph needs."""
    try:
        yield from chunks
    except GraphRecursionError as exc:
        raise _said(exc) from exc


async def recursion_said_async(chunks: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """`recursion_said` for ``astream``."""
    try:
        async for chunk in chunks:
            yield chunk
    except GraphRecursionError as exc:
        raise _said(exc) from exc
