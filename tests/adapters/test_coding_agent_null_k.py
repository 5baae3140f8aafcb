"""A null ``k`` in the coding agent's input is the agent's default, 5 (README), as a null
``kinds`` and ``budget_fill`` are theirs and a null ``k`` is the search tool's and
`SkillRetriever`'s default. A walkthrough sent ``{"task": ..., "k": null}`` (what a client
or a model filling every key sends) and got 10 skills: the agents passed the null on, and
the retrieval graph read it as RetrievalConfig's k. Both agents, the sample index, real
LangGraph."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.stores.index import Index

TASK = "add tracing to a fastapi service"


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))


@pytest.fixture(params=["wrapper", "subgraph"])
def built(request: pytest.FixtureRequest, coding_agent: ModuleType, ctx: RetrievalContext) -> Any:
    if request.param == "wrapper":
        return coding_agent.build_agent_with_wrapper_node(retrieval=ctx)
    return coding_agent.build_agent_with_subgraph_node()


def test_a_null_k_is_the_agents_default(built: Any, ctx: RetrievalContext, coding_agent: ModuleType) -> None:
    left_out = built.invoke({"task": TASK, "token_budget": None}, context=ctx)
    null = built.invoke({"task": TASK, "k": None, "token_budget": None}, context=ctx)
    assert len(left_out["skills"]) == coding_agent.DEFAULT_K == 5
    assert [s["id"] for s in null["skills"]] == [s["id"] for s in left_out["skills"]]


def test_the_input_schema_offers_null_for_k(coding_agent: ModuleType) -> None:
    k = coding_agent.graph.get_input_jsonschema()["properties"]["k"]
    assert {"type": "null"} in k["anyOf"]


@pytest.mark.parametrize("variant", ["wrapper", "subgraph"])
def test_a_k_the_config_sets_is_the_agents_default(sample_index: Index, coding_agent: ModuleType, variant: str) -> None:
    """``RetrievalContext(config=RetrievalConfig(k=7))`` retrieved 5 skills, the agent's own
    default: the k the caller set was dropped (`entry_k`). A k in the input still wins."""
    ctx = RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False, k=7))
    built = (coding_agent.build_agent_with_wrapper_node(retrieval=ctx) if variant == "wrapper"
             else coding_agent.build_agent_with_subgraph_node())
    assert len(built.invoke({"task": TASK, "token_budget": None}, context=ctx)["skills"]) == 7
    assert len(built.invoke({"task": TASK, "k": 2, "token_budget": None}, context=ctx)["skills"]) == 2
