"""The example coding agent's ``kinds`` input, both ways it builds: one string is one kind
(``list("skill")`` searched for the kinds s, k, i, l and failed on them), and an empty
list is refused (it searched every component kind, the opposite of an empty filter)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.index import Index

TASK = "add tracing to a FastAPI service"


@pytest.fixture(params=["wrapper", "subgraph"])
def agent(request: pytest.FixtureRequest, coding_agent: ModuleType, sample_index: Index) -> Any:
    ctx = RetrievalContext(index=sample_index)
    if request.param == "wrapper":
        built = coding_agent.build_agent_with_wrapper_node(retrieval=ctx)
        return lambda state: built.invoke(state)
    built = coding_agent.build_agent_with_subgraph_node()
    return lambda state: built.invoke(state, context=ctx)


def test_one_string_is_one_kind(agent: Any) -> None:
    skills = agent({"task": TASK, "kinds": "skill", "k": 3})["skills"]
    assert skills and {s["kind"] for s in skills} == {"skill"}
    assert {s["kind"] for s in agent({"task": TASK, "kinds": ["command"], "k": 3})["skills"]} <= {"command"}


def test_an_empty_list_of_kinds_is_refused(agent: Any) -> None:
    with pytest.raises(ConfigError, match="kinds is empty; leave kinds out for every component kind"):
        agent({"task": TASK, "kinds": []})
    with pytest.raises(ConfigError, match="kinds must be a list of strings"):
        agent({"task": TASK, "kinds": {"skill": True}})


def test_an_unknown_kind_is_named_as_the_agents_kinds_input(agent: Any) -> None:
    """It was named ``filters.kinds``, an input the coding agent does not take."""
    with pytest.raises(ConfigError) as caught:
        agent({"task": TASK, "kinds": ["agents"]})
    said = str(caught.value)
    assert said.startswith("kinds: unknown kind(s) ['agents']; ") and "(did you mean 'agent'?)" in said
    assert "filters" not in said


def test_left_out_kinds_are_every_component_kind(agent: Any, coding_agent: ModuleType) -> None:
    assert coding_agent.task_kinds({}) == coding_agent.DEFAULT_KINDS == coding_agent.task_kinds({"kinds": None})
    assert agent({"task": TASK, "k": 3})["skills"]
