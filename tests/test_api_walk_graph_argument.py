"""``Retriever(graph=...)`` that is not a compiled graph is refused at construction, by name
(found by a walkthrough of the Python API): ``graph="x"`` was taken, and every search then
failed with ``AttributeError: 'str' object has no attribute 'invoke'``; the builder itself
(``build_graph``, not called) got as far."""

from __future__ import annotations

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import build_graph
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize("graph", ["x", 5, build_graph], ids=["text", "number", "builder"])
def test_a_graph_that_cannot_run_is_refused_at_construction(shared_tiny_index: Index, graph: object) -> None:
    said = r"^graph must be a compiled retrieval graph \(skill_retriever\.graph\.graph, or build_graph\(name\)\), got "
    with pytest.raises(ConfigError, match=said) as caught:
        Retriever(shared_tiny_index, reranker=None, graph=graph)
    if graph is build_graph:
        assert "call it" in str(caught.value)


def test_a_compiled_graph_is_taken(shared_tiny_index: Index) -> None:
    from skill_retriever.graph import graph

    assert Retriever(shared_tiny_index, reranker=None, graph=graph).search("deploy", k=1).results
