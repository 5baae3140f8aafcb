"""The names of the retrieval graph's phases, for settings keyed by phase
(``RetrievalConfig.phase_timeouts``) to be checked against without importing the graph,
which imports the settings. tests/test_api_fix_retriever_inputs.py holds this list
against the compiled graph's nodes, so the two cannot drift apart."""

from __future__ import annotations

__all__ = ["PHASES"]

#: In the order a search runs them (the smart route; `graph` has the wiring).
PHASES: tuple[str, ...] = (
    "plan_query",
    "search_keywords",
    "search_temporal",
    "retrieve_seeds",
    "expand_graph",
    "check_completeness",
    "fill_gaps",
    "rank_multifactor",
    "run_ppr",
    "prune_flow",
    "fuse_rrf",
    "cover_clauses",
    "rerank_cross_encoder",
    "apply_token_budget",
)
