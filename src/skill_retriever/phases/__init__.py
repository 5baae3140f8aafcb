"""One module per LangGraph node, named after it. Each is a thin ``(state, runtime) -> dict``
adapter over the plain functions in ``skill_retriever.algorithms``."""

from skill_retriever.phases.apply_token_budget import apply_token_budget
from skill_retriever.phases.check_completeness import (
    after_completeness,
    check_completeness,
    fill_gaps,
)
from skill_retriever.phases.cover_clauses import cover_clauses
from skill_retriever.phases.expand_graph import expand_graph
from skill_retriever.phases.fuse_rrf import fuse_rrf
from skill_retriever.phases.plan_query import plan_query
from skill_retriever.phases.prune_flow import prune_flow
from skill_retriever.phases.rank_multifactor import rank_multifactor
from skill_retriever.phases.rerank_cross_encoder import rerank_cross_encoder
from skill_retriever.phases.retrieve_seeds import retrieve_seeds
from skill_retriever.phases.run_ppr import run_ppr
from skill_retriever.phases.search_keywords import search_keywords
from skill_retriever.phases.search_temporal import search_temporal

__all__ = [
    "after_completeness",
    "apply_token_budget",
    "check_completeness",
    "cover_clauses",
    "expand_graph",
    "fill_gaps",
    "fuse_rrf",
    "plan_query",
    "prune_flow",
    "rank_multifactor",
    "rerank_cross_encoder",
    "retrieve_seeds",
    "run_ppr",
    "search_keywords",
    "search_temporal",
]
