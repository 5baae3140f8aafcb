"""``search_many`` says which of :meth:`Retriever.search`'s arguments it does not take (found by
a walkthrough of the Python API): its docstring said "Same arguments as search", and
``snapshot=`` or ``run_config=`` was refused as "unknown setting(s) ['snapshot']; see
RetrievalConfig", sending the caller to the settings for an argument of ``search``."""

from __future__ import annotations

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize("name", ["snapshot", "run_config"])
def test_search_many_names_the_search_argument_it_does_not_take(shared_tiny_index: Index, name: str) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    value = shared_tiny_index.snapshot() if name == "snapshot" else {"tags": ["x"]}
    with pytest.raises(ConfigError, match=rf"^search_many takes no {name}= \(search\(\) does\)") as caught:
        retriever.search_many(["deploy", "logging"], **{name: value})
    assert "RetrievalConfig" not in str(caught.value)
    assert "snapshot" in (Retriever.search_many.__doc__ or "")
