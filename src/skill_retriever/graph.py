"""Wiring only: the retrieval graph, its routers, and the compiled ``graph``.

    plan_query → search_keywords → search_temporal → retrieve_seeds ─(after_seeds: smart|quick|ppr)┬→ expand_graph ─(after_expand)┬→ check_completeness ⇄ fill_gaps → rank_multifactor ─┐
                                                                                                   │                             └→ (quick) ──────────────────────────────────────────┤
                                                                                                   └→ run_ppr → prune_flow ─────────────────────────────────────────────────────────┤
                                                                                         fuse_rrf (one route reaches it) → cover_clauses → rerank_cross_encoder → apply_token_budget → END

The keyword and temporal channels run before the seeds, in line, not beside them: a
superstep of several nodes runs each in a thread of a pool LangGraph makes per call, and
on a busy 2-core machine the threads cost more than the overlap saved (the seed search
also slowed down beside BM25). Measured at 100k nodes / 1M edges with the routes taking
turns: p50 mostly a few % lower in line, p95 up to a third lower (docs/scaling.md).
``run_ppr`` reads the keyword channel's hits, which are there either way.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal

from langgraph.graph import END, START, StateGraph

from skill_retriever.context import RetrievalContext
from skill_retriever.graph_input import InputCheckedGraph, input_checked
from skill_retriever.input_values import retrieval_values_checked
from skill_retriever.phases import (
    after_completeness,
    apply_token_budget,
    check_completeness,
    cover_clauses,
    expand_graph,
    fill_gaps,
    fuse_rrf,
    plan_query,
    prune_flow,
    rank_multifactor,
    rerank_cross_encoder,
    retrieve_seeds,
    run_ppr,
    search_keywords,
    search_temporal,
)
from skill_retriever.state import InputState, OutputState, RetrievalState
from skill_retriever.tracing import tag_phase_nodes


def route_query(state: RetrievalState) -> Literal["smart", "ppr", "quick"]:
    """The route plan_query chose from the query's complexity (or the caller forced).

    Every route starts from the same seeds, so the branch sits after retrieve_seeds:
    smart and quick continue in expand_graph (quick with one unfiltered level), ppr in
    run_ppr.
    """
    route = state["route_taken"]
    assert route in ("smart", "ppr", "quick")
    return route  # type: ignore[return-value]


#: The branch after retrieve_seeds, by label. smart and quick share one edge, so it is
#: labelled with both: a drawing keeps one label per edge (``get_graph()``, which Studio
#: draws), and a map of each route to its node was drawn as "quick" alone, the default
#: route nowhere in the picture.
SEEDS_BRANCH: dict[Hashable, str] = {"smart, quick": "expand_graph", "ppr": "run_ppr"}
#: The branch after expand_graph, by route: smart checks completeness, quick fuses at once.
EXPAND_BRANCH: dict[Hashable, str] = {"smart": "check_completeness", "quick": "fuse_rrf"}


def after_seeds(state: RetrievalState) -> Literal["smart, quick", "ppr"]:
    """The label of `SEEDS_BRANCH` for the route taken (`route_query`)."""
    return "ppr" if route_query(state) == "ppr" else "smart, quick"


def after_expand(state: RetrievalState) -> Literal["smart", "quick"]:
    return "quick" if state["route_taken"] == "quick" else "smart"


def build_graph(
    name: str = "skill_retriever",
) -> InputCheckedGraph[RetrievalState, RetrievalContext, InputState, OutputState]:
    """Compile the retrieval graph. Stores, models and settings come in the context; a
    direct call's input key the graph does not take is refused, not dropped (`graph_input`)."""
    builder = StateGraph(
        RetrievalState, context_schema=RetrievalContext, input_schema=InputState, output_schema=OutputState
    )
    phases = (
        plan_query,
        retrieve_seeds,
        expand_graph,
        check_completeness,
        fill_gaps,
        rank_multifactor,
        run_ppr,
        prune_flow,
        search_keywords,
        search_temporal,
        fuse_rrf,  # no defer: every path is a line, so exactly one route reaches it, once
        cover_clauses,
        rerank_cross_encoder,
        apply_token_budget,
    )
    for node in phases:
        builder.add_node(node)

    builder.add_edge(START, "plan_query")
    builder.add_edge("plan_query", "search_keywords")  # in line: see the module docstring
    builder.add_edge("search_keywords", "search_temporal")
    builder.add_edge("search_temporal", "retrieve_seeds")
    builder.add_conditional_edges("retrieve_seeds", after_seeds, SEEDS_BRANCH)  # labelled by route
    builder.add_conditional_edges("expand_graph", after_expand, EXPAND_BRANCH)
    builder.add_conditional_edges(
        "check_completeness", after_completeness, {"fill_gaps": "fill_gaps", "rank_multifactor": "rank_multifactor"}
    )
    builder.add_edge("fill_gaps", "check_completeness")
    builder.add_edge("rank_multifactor", "fuse_rrf")
    builder.add_edge("run_ppr", "prune_flow")
    builder.add_edge("prune_flow", "fuse_rrf")
    builder.add_edge("fuse_rrf", "cover_clauses")
    builder.add_edge("cover_clauses", "rerank_cross_encoder")
    builder.add_edge("rerank_cross_encoder", "apply_token_budget")
    builder.add_edge("apply_token_budget", END)
    compiled = builder.compile(name=name)
    # each phase's run tagged from its start, so astream_events can filter by it (tracing)
    tag_phase_nodes(compiled.nodes, (node.__name__ for node in phases))
    # values: a bad k, route, filter, ... refused before a checkpointed thread keeps it
    # names_steps: a parent's low recursion_limit is named with the one it needs (`recursion_limit`)
    return input_checked(compiled, values=retrieval_values_checked, names_steps=True)


graph = build_graph()
