"""An input that is no dict at all: ``graph.invoke("slack gif")`` (the way a retriever or
the tool takes its query) failed inside LangGraph with ``InvalidUpdateError: Expected dict,
got slack gif`` and a link to a page on node return values, from the retrieval graph, the
served graph and the coding agent alike. Each now says in one line what its input is,
with the text it got as the example, before the run. Real graphs, sample index."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.stores.index import Index


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index)


def test_text_given_as_the_input_is_refused_with_the_dict_to_give(ctx: RetrievalContext) -> None:
    with pytest.raises(ConfigError) as caught:
        retrieval_graph.invoke("fuzzing", context=ctx)
    said = str(caught.value)
    assert said == ("the graph's input is a dict of its keys, not a str: give {'query': 'fuzzing'} "
                    "(this graph's input takes query, k, token_budget, route, filters, profile, query_vector)")
    with pytest.raises(ConfigError, match=r"not a str: give \{'query': 'fuzzing'\}"):
        asyncio.run(retrieval_graph.ainvoke("fuzzing", context=ctx))
    with pytest.raises(ConfigError, match=r"not a str: give \{'query': 'fuzzing'\}"):
        list(retrieval_graph.stream("fuzzing", context=ctx, stream_mode="updates"))


def test_a_list_of_inputs_is_pointed_at_batch(ctx: RetrievalContext) -> None:
    with pytest.raises(ConfigError, match=r"not a list: several inputs are graph\.batch\(\[\.\.\.\]\)"):
        retrieval_graph.invoke([{"query": "fuzzing"}, {"query": "canary"}], context=ctx)
    # batch itself runs each dict as before
    outs = retrieval_graph.batch([{"query": "fuzzing", "k": 2}, {"query": "canary rollout", "k": 1}], context=ctx)
    assert [len(o["results"]) for o in outs] == [2, 1]


def test_none_still_resumes_a_checkpointed_thread(sample_index: Index) -> None:
    graph = retrieval_graph.copy(update={"checkpointer": InMemorySaver()})
    config: Any = {"configurable": {"thread_id": "t"}}
    ctx = RetrievalContext(index=sample_index)
    graph.invoke({"query": "fuzzing", "k": 2}, config, context=ctx, interrupt_before=["apply_token_budget"])
    assert len(graph.invoke(None, config, context=ctx)["results"]) == 2


def test_the_served_graph_and_the_coding_agent_say_so_too(
    sample_index_path: Path, tmp_path: Path, coding_agent: ModuleType
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    context = {"index_dir": str(index_dir), "cross_encoder": None, "rerank": False}
    with pytest.raises(ConfigError, match=r"not a str: give \{'query': 'fuzzing'\}"):
        srv.build_server_graph().invoke("fuzzing", context=context)
    with pytest.raises(ConfigError, match=r"not a str: give \{'task': 'add a canary rollout'\}"):
        coding_agent.graph.invoke("add a canary rollout", context=context)
