"""A server run's ``profile`` names settings, and nothing else. Its keys became the
search's keyword arguments: ``principals`` or ``query`` failed with a TypeError from
inside, ``kinds`` quietly acted as a filter, and ``run_config`` set the server's own
RunnableConfig (``recursion_limit`` included) for the run."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.calibration.defaults import index_defaults
from skill_retriever.config import RetrievalConfig
from skill_retriever.config_profiles import PROFILES
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture
def run(sample_index_path: Path, tmp_path: Path) -> Any:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    graph = srv.build_server_graph()

    def invoke(state: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = graph.invoke(
            {"query": "canary rollout", "k": 2, **state}, context={"index_dir": str(index_dir), "rerank": False}
        )
        return out

    return invoke


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ({"principals": ["*"]}, "profile key 'principals' is not a setting but a filter: it goes in the run's \"filters\""),
        ({"kinds": ["hook"]}, "profile key 'kinds' is not a setting but a filter"),
        ({"filters": {}}, "profile key 'filters' is not a setting but the run's own \"filters\" input"),
        ({"query": "x"}, "profile key 'query' is not a setting but the run's own \"query\" input"),
        ({"budget": 10}, "profile key 'budget' is not a setting but the token budget"),
        ({"run_config": {"recursion_limit": 1}}, r"unknown profile setting 'run_config'; a profile is a profile name \(design, multihop\)"),
        ({"snapshot": None}, "unknown profile setting 'snapshot'"),
        ({"rrf": 30}, r"unknown profile setting 'rrf' \(did you mean 'rrf_k'\?\)"),
    ],
)
def test_a_profile_key_that_is_no_setting_is_refused_by_name(
    run: Any, profile: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        run({"profile": profile})


def test_settings_still_pass(run: Any) -> None:
    """Settings, ``channels`` (which RetrievalConfig reads as weights) and the run's own
    ``k``/``token_budget``/``route`` as settings, as before."""
    out = run({"profile": {"rrf_k": 30, "channels": {"temporal": False}, "route": "quick", "k": 5}})
    assert out["route_taken"] == "quick" and len(out["results"]) == 2  # the run's own k wins
    assert srv.run_profile({"token_budget": 100, "channel_depth": 10}) == {"token_budget": 100, "channel_depth": 10}


def test_a_cost_setting_is_capped_by_what_the_server_runs_on_its_index() -> None:
    """A passage index runs flow_max_endpoints 50 by its own defaults: a run may ask 50
    there (no more), while on an index that runs the built-in 8, 50 is refused."""
    passages = RetrievalConfig().override(**PROFILES["multihop"])
    assert passages.flow_max_endpoints == 50
    assert srv.run_profile({"flow_max_endpoints": 50}, passages) == {"flow_max_endpoints": 50}
    with pytest.raises(ConfigError, match="flow_max_endpoints=51 is over this server's limit: at most 50"):
        srv.run_profile({"flow_max_endpoints": 51}, passages)
    with pytest.raises(ConfigError, match="flow_max_endpoints=50 is over this server's limit: at most 8"):
        srv.run_profile({"flow_max_endpoints": 50}, RetrievalConfig())


def test_the_server_settings_are_its_own_with_what_the_index_suggests(sample_index: Index) -> None:
    settings = srv.server_settings(Retriever(sample_index, RetrievalConfig(rerank=False), None))
    assert settings.flow_max_endpoints == RetrievalConfig().flow_max_endpoints  # a catalogue keeps 8
    assert settings == index_defaults(sample_index.snapshot()).apply(RetrievalConfig(rerank=False))
