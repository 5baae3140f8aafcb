"""What LangGraph Studio shows of the served graphs (a walk as a LangGraph developer):
the input form it builds from each graph's input JSON schema."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import get_args

import pytest

from skill_retriever.adapters.langgraph_server import INDEX_ENV, build_server_graph
from skill_retriever.config import Route
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.graph import graph
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_the_input_form_offers_the_three_routes() -> None:
    """Studio's input form showed ``route`` as free text: a user typed "auto" or "Smart"
    and learned the words only from the refusal. The schema now names them."""
    for g in (graph, build_server_graph()):
        route = g.get_input_jsonschema()["properties"]["route"]
        enums = [m["enum"] for m in route["anyOf"] if "enum" in m]
        assert enums == [list(get_args(Route))], route
        assert {"type": "null"} in route["anyOf"]  # null: the router chooses


def test_a_route_outside_the_form_is_still_refused_by_name(sample_index: Index) -> None:
    """The schema is shown, not enforced (LangGraph validates no input): the run still
    refuses another word, naming the three."""
    with pytest.raises(ConfigError, match="route must be one of smart, ppr, quick"):
        graph.invoke({"query": "format python code", "route": "auto"}, context=RetrievalContext(index=sample_index))


@pytest.mark.parametrize(
    ("context", "words"),
    [
        ({"index_dir": 5}, "context.index_dir must be a string (an index folder) or null, got 5"),
        ({"cross_encoder": 3}, "context.cross_encoder must be a string (a model's name) or null, got 3"),
        ({"rerank": "false"}, "context.rerank must be true or false, got 'false'"),
    ],
)
def test_a_context_value_of_the_wrong_type_is_refused_by_name(context: dict[str, object], words: str) -> None:
    """Studio's context form (or a client) sends JSON of any type: a number for index_dir
    or cross_encoder was a bare TypeError from pathlib, with no word of which key."""
    with pytest.raises(ConfigError) as caught:
        build_server_graph().invoke({"query": "format python code", "k": 1}, context=context)
    assert str(caught.value) == words


def test_filters_that_are_not_an_object_are_refused_by_the_served_graph_too(
    sample_index_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``filters: []`` (or "") passed for no filter in the served graph, where the
    retrieval graph refuses it: the same input must mean the same in both."""
    monkeypatch.setenv(INDEX_ENV, str(sample_index_path))
    ctx = {"rerank": False}
    for bad in ([], ""):
        with pytest.raises(ConfigError, match=r"filters must be an object .*, got"):
            build_server_graph().invoke({"query": "format python code", "filters": bad}, context=ctx)
        with pytest.raises(ConfigError, match="filters must be a mapping"):
            graph.invoke({"query": "format python code", "filters": bad}, context=RetrievalContext(index=Index.open(
                sample_index_path, embedder=HashingEmbedder(64))))


@pytest.mark.parametrize("task", ["", "  "])
def test_an_empty_task_is_named_as_the_task(coding_agent: ModuleType, sample_index: Index, task: str) -> None:
    """The coding agent's input is ``task``; an empty one was refused as "the query is
    empty", a key its input does not have."""
    ctx = RetrievalContext(index=sample_index)
    with pytest.raises(QueryError, match=r'^the task is (empty|blank); give the coding task in plain words'):
        coding_agent.build_agent_with_wrapper_node(retrieval=ctx).invoke({"task": task})
    with pytest.raises(QueryError, match=r"^the task is (empty|blank)"):
        coding_agent.build_agent_with_subgraph_node().invoke({"task": task}, context=ctx)
