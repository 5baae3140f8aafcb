"""A query the search refuses, sent by the model, no longer ends a bigtool agent run
(walkthrough): ``retrieve_tools`` returns no tools and logs why. langgraph-bigtool reads
the function's return value as registry ids and lets an exception end the run, so no
error text can reach the model; "Available tools: []" lets it ask again. A real
`langgraph_bigtool.create_agent` driven by a scripted chat model."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from bigtool_support import ScriptedChatModel, convert_currency, weather_forecast
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph_bigtool import create_agent

from skill_retriever.adapters.bigtool import (
    index_tool_registry,
    make_bigtool_aretrieve,
    make_bigtool_retrieve,
)
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

REGISTRY: dict[str, Any] = {"fx.convert": convert_currency, "weather.forecast": weather_forecast}


def retrieve_call(query: str, call_id: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "retrieve_tools", "args": {"query": query}, "id": call_id}])


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    index = Index.open(tmp_path_factory.mktemp("bigtool-empty") / "index", embedder=HashingEmbedder(64), create=True)
    index_tool_registry(index, REGISTRY, calibrate=False)
    return index


def agent(index: Index, llm: ScriptedChatModel) -> Any:
    retriever = Retriever(index, reranker=None)
    return create_agent(
        llm,
        REGISTRY,
        retrieve_tools_function=make_bigtool_retrieve(retriever, limit=2, registry=REGISTRY),
        retrieve_tools_coroutine=make_bigtool_aretrieve(retriever, limit=2, registry=REGISTRY),
    ).compile()


def script() -> ScriptedChatModel:
    return ScriptedChatModel(
        responses=[
            retrieve_call("", "c1"),  # the model sends nothing to search for
            retrieve_call("exchange rate currency conversion", "c2"),  # and asks again
            AIMessage("I can convert it with convert_currency."),
        ],
        bound=[],
    )


def test_an_empty_query_binds_no_tools_and_the_run_goes_on(
    index: Index, caplog: pytest.LogCaptureFixture
) -> None:
    llm = script()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        out = agent(index, llm).invoke({"messages": [HumanMessage("Convert 10 USD to EUR")]})
    first = out["messages"][2]
    assert isinstance(first, ToolMessage) and first.content == "Available tools: []"
    assert llm.bound[1] == ["retrieve_tools"]  # nothing bound after the empty query
    assert out["selected_tool_ids"][0] == "fx.convert"  # the second query found the tool
    assert out["messages"][-1].content.startswith("I can convert it")
    said = [r.getMessage() for r in caplog.records]
    assert any("retrieve_tools: no tools for the query ''" in m and "the query is empty" in m for m in said), said


@pytest.mark.asyncio
async def test_an_empty_query_async(index: Index) -> None:
    out = await agent(index, script()).ainvoke({"messages": [HumanMessage("Convert 10 USD to EUR")]})
    assert out["messages"][2].content == "Available tools: []"
    assert out["selected_tool_ids"][0] == "fx.convert"


@pytest.mark.parametrize("query", ["", "   \n\t", "x" * 50_000])
def test_every_query_the_search_refuses_gives_no_tools(index: Index, query: str) -> None:
    retriever = Retriever(index, reranker=None, config=RetrievalConfig(max_query_chars=1_000))
    assert make_bigtool_retrieve(retriever, limit=2, registry=REGISTRY)(query) == []


@pytest.mark.parametrize("make", [make_bigtool_retrieve, make_bigtool_aretrieve])
@pytest.mark.parametrize(
    ("setting", "said"),
    [({"no_such_setting": 1}, r"unknown setting\(s\) \['no_such_setting'\]"),
     ({"multifactor_ranking": "yes"}, "setting 'multifactor_ranking' has the wrong type: 'yes' is str"),
     ({"rerank": "no"}, "setting 'rerank' has the wrong type"),
     ({"filters": {"kinds": ["skills"]}}, "skills"),
     ({"token_budget": -1}, "token_budget"),
     ({"k": 3}, "k is set by limit=; leave it out of the settings")],
)
def test_a_setting_the_builder_got_wrong_is_refused_when_it_builds(
    index: Index, make: Any, setting: dict[str, Any], said: str
) -> None:
    """A setting the builder got wrong is no input from the model: it must not pass
    silently, nor wait for the agent's first call (which it ended, every call alike), as
    make_search_skills_tool refuses it when built."""
    with pytest.raises(ConfigError, match=f"^{make.__name__}: .*{said}"):
        make(index, limit=2, registry=REGISTRY, **setting)


def test_good_settings_still_build_and_apply(index: Index) -> None:
    retrieve = make_bigtool_retrieve(index, limit=2, registry=REGISTRY, multifactor_ranking=False, rerank=False,
                                     route="smart", token_budget=None, filters={"kinds": ["tool"]})
    assert retrieve("convert currency")[0] == "fx.convert"
