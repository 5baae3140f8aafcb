"""A parent agent's context with fields of its own (a user id, a model name: what most
agents' ``context_schema`` holds) and the retrieval graph as one of its nodes. The graph
refused such a context in words that said to make the parent's ``context_schema``
``RetrievalContext``, which has no room for those fields; what works is a frozen dataclass
subclassing ``RetrievalContext``, which the refusal now names. Real LangGraph parents on
the sample index (hashing embedder)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.stores.index import Index


class Parent(TypedDict, total=False):
    query: str
    results: list[dict[str, Any]]
    greeting: str


@dataclass(frozen=True)
class AgentContext(RetrievalContext):
    user_id: str = "anonymous"


@dataclass(frozen=True)
class OwnContext:
    user_id: str = "anonymous"


def _parent(context_schema: type) -> Any:
    def greet(state: Parent, runtime: Runtime[Any]) -> dict[str, Any]:
        return {"greeting": f"{runtime.context.user_id}: {len(state['results'])} results"}

    builder = StateGraph(Parent, context_schema=context_schema)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_node(greet)
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", "greet")
    return builder.compile()


def test_a_context_of_its_own_is_told_to_subclass_retrieval_context(sample_index: Index) -> None:
    with pytest.raises(ConfigError, match=r"it got OwnContext.*subclass RetrievalContext.*frozen") as info:
        _parent(OwnContext).invoke({"query": "add tracing"}, context=OwnContext(user_id="ada"))
    assert "\n" not in str(info.value)


def test_a_subclass_carries_the_parents_fields_and_searches(sample_index: Index) -> None:
    out = _parent(AgentContext).invoke({"query": "add tracing"}, context=AgentContext(index=sample_index, user_id="ada"))
    assert out["results"] and out["greeting"] == f"ada: {len(out['results'])} results"
