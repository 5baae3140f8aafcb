"""A profile name that is no profile says which names are, and which one is the defaults.

``config_for("default")``, the name a user reaches for first, said only "profiles are
['design', 'multihop']", which left open which of them gives the default settings
("design": ``config_for("design") == RetrievalConfig()``). The served graph's and the
subgraph's ``profile`` said the same; each now names the defaults and a near miss.
"""

from __future__ import annotations

import pytest

from skill_retriever.adapters.server_inputs import run_profile
from skill_retriever.config import RetrievalConfig, config_for
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NAMED = r"profiles are 'design' \(the default settings, as RetrievalConfig\(\)\) and 'multihop'"


def test_config_for_names_the_profiles_and_the_defaults() -> None:
    assert config_for("design") == RetrievalConfig() == config_for()
    with pytest.raises(ConfigError, match=rf"^unknown profile 'default'; {NAMED}$"):
        config_for("default")
    with pytest.raises(ConfigError, match=rf"^unknown profile 'multi-hop' \(did you mean 'multihop'\?\); {NAMED}$"):
        config_for("multi-hop")


def test_a_runs_profile_name_is_refused_alike(shared_tiny_index: Index) -> None:
    with pytest.raises(ConfigError, match=rf"^unknown profile 'default'; {NAMED}$"):
        run_profile("default")
    retriever = Retriever(shared_tiny_index, reranker=None)
    with pytest.raises(ConfigError, match=rf"^unknown profile 'default'; {NAMED}, or give a mapping of settings$"):
        retriever.graph.invoke({"query": "postgres", "profile": "default"}, context=retriever.context())
