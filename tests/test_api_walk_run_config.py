"""``search(run_config=...)`` and ``asearch(run_config=...)`` of the wrong type are refused by
name (found by a walkthrough of the Python API): ``run_config="x"`` or ``5`` failed deep in
LangChain with ``AttributeError: 'str' object has no attribute 'items'``, which names neither
the argument nor what it takes (a RunnableConfig: a dict of callbacks, tags, ...)."""

from __future__ import annotations

import asyncio

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize("run_config", ["x", 5, ["tags"]], ids=["text", "number", "list"])
def test_a_run_config_that_is_not_a_dict_is_refused_by_name(shared_tiny_index: Index, run_config: object) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    said = r"^run_config must be a RunnableConfig \(a dict such as \{'tags': \[...\], 'callbacks': \[...\]\}\) or None, got "
    with pytest.raises(ConfigError, match=said):
        retriever.search("deploy", run_config=run_config)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=said):
        asyncio.run(retriever.asearch("deploy", run_config=run_config))  # type: ignore[arg-type]


def test_a_run_config_dict_is_taken(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None, cache_size=0)
    assert retriever.search("deploy", k=1, run_config={"tags": ["walk"]}).results
    assert asyncio.run(retriever.asearch("deploy", k=1, run_config={"tags": ["walk"]})).results
