"""``repr(RetrievalConfig(...))`` names only the settings that differ from the defaults:
the dataclass repr wrote every one of them (about 1,400 characters), so a notebook, a log
line or a failed assertion buried the one a caller had set. It stays a call Python reads
back to an equal config; the answer cache keys on every setting all the same.
"""

from __future__ import annotations

import datetime
from types import MappingProxyType

import pytest

from skill_retriever.config import RetrievalConfig, config_for
from skill_retriever.config_repr import every_setting
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize(
    ("config", "written"),
    [
        (RetrievalConfig(), "RetrievalConfig()"),
        (RetrievalConfig(k=10), "RetrievalConfig()"),  # the default given: nothing to say
        (RetrievalConfig(k=5, fusion="scores"), "RetrievalConfig(fusion='scores', k=5)"),
        (RetrievalConfig().override(channels={"temporal": False}),
         "RetrievalConfig(channel_weights={'graph': 1.0, 'semantic': 1.0, 'keyword': 1.0, 'temporal': 0.0, 'named': 1.0})"),
        (RetrievalConfig(channel_weights=MappingProxyType({"graph": 2.0, "semantic": 1.0, "keyword": 1.0, "temporal": 1.0, "named": 1.0})),
         "RetrievalConfig(channel_weights={'graph': 2.0, 'semantic': 1.0, 'keyword': 1.0, 'temporal': 1.0, 'named': 1.0})"),
        (RetrievalConfig(now=datetime.datetime(2026, 11, 28)),
         "RetrievalConfig(now=datetime.datetime(2026, 11, 28, 0, 0, tzinfo=datetime.timezone.utc))"),
    ],
)
def test_a_config_names_the_settings_it_changed_and_reads_back_equal(config: RetrievalConfig, written: str) -> None:
    assert repr(config) == written
    assert eval(written, {"RetrievalConfig": RetrievalConfig, "datetime": datetime}) == config


def test_a_profile_is_written_in_a_few_hundred_characters_not_every_setting() -> None:
    multihop = config_for("multihop")
    assert repr(multihop).startswith("RetrievalConfig(route='ppr', ")
    assert eval(repr(multihop), {"RetrievalConfig": RetrievalConfig}) == multihop
    assert len(repr(multihop)) < len(every_setting(multihop)) // 2
    assert every_setting(RetrievalConfig()).count("=") == len(RetrievalConfig.__dataclass_fields__)


def test_the_answer_cache_still_tells_a_default_setting_from_a_changed_one(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    first = retriever.search("postgres migrations", k=3)
    assert retriever.search("postgres migrations", k=3).stats.get("cache", {}).get("hit")
    other = retriever.search("postgres migrations", k=3, rrf_k=30)
    assert not other.stats.get("cache", {}).get("hit")
    assert first.ids  # answered, not refused
