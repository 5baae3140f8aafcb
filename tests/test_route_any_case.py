"""A setting that is one of a few words (route, fusion, ...) takes the word in any case, as
``query --route SMART`` and kinds do: ``Retriever.search(route="Smart")``, a graph input's
``"route": "SMART"`` and ``RetrievalConfig(fusion="SCORES")`` were refused."""

from __future__ import annotations

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def test_a_word_setting_takes_any_case() -> None:
    assert RetrievalConfig(route="SMART").route == "smart"
    assert RetrievalConfig().override(route="Quick").route == "quick"
    assert RetrievalConfig(fusion="Scores").fusion == "scores"
    with pytest.raises(ConfigError, match=r"route must be one of smart, ppr, quick"):
        RetrievalConfig(route="fast")  # a word it is not is still refused


def test_search_and_graph_input_take_the_route_in_any_case(sample_index: Index) -> None:
    response = Retriever(sample_index, reranker=None, cache_size=0).search("postgres schema migration", route="Quick")
    assert response.route == "quick"
    out = retrieval_graph.invoke({"query": "postgres schema migration", "route": "SMART"},
                                 context=RetrievalContext(index=sample_index))
    assert out["stats"]["plan_query"]["route"] == "smart"
