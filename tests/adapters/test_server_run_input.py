"""What a LangGraph Server run may ask of the server: its input and JSON context come from
the server's clients, so each setting is either the run's to choose, bounded by the
server's own limits, or refused with a message; and JSON spells every setting a run may
choose (a list for a tuple, an ISO 8601 string for a date)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.index import Index


@pytest.fixture
def run(sample_index_path: Path, tmp_path: Path) -> Any:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    graph = srv.build_server_graph()

    def invoke(state: dict[str, Any], **context: Any) -> dict[str, Any]:
        out: dict[str, Any] = graph.invoke(
            {"query": "canary rollout", "k": 2, **state},
            context={"index_dir": str(index_dir), "rerank": False, **context},
        )
        return out

    return invoke


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ({"fact_seeds": 10**30}, "fact_seeds=1000000000000000000000000000000 is over this server's limit: at most 16"),
        ({"rerank_top_n": 10**9}, "rerank_top_n=1000000000 is over this server's limit: at most 100"),
        ({"encoding": "cl100k_base"}, r"\['encoding'\] are this server's to set, not a run's"),
        ({"recent_days": 1e300}, r"recent_days must be at most 1,000,000 \(days\)"),
        ({"now": "last tuesday"}, "setting 'now' must be an ISO 8601 date and time"),
    ],
)
def test_a_run_cannot_raise_an_unset_limit_nor_make_the_server_fetch(
    run: Any, profile: dict[str, Any], message: str
) -> None:
    """Before: the caps skipped settings whose default is None (any fact_seeds and
    rerank_top_n passed), ``encoding`` sent tiktoken to the network, and a huge
    ``recent_days`` failed deep in plan_query with an OverflowError."""
    with pytest.raises(ConfigError, match=message):
        run({"profile": profile})


def test_json_spells_every_setting_a_run_may_choose(run: Any) -> None:
    out = run({"profile": {"expand_thresholds": [0.6, 0.3], "now": "2026-03-01T12:00:00Z", "fact_seeds": 2}})
    assert len(out["results"]) == 2
    config = RetrievalConfig().override(expand_thresholds=[0.6, 0.3], now="2026-03-01")
    assert config.expand_thresholds == (0.6, 0.3) and config.now is not None and config.now.year == 2026


def test_the_context_and_filters_say_what_is_wrong(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=r"unknown context key\(s\) \['index_dirr'\]; the server context takes"):
        run({}, index_dirr="/tmp")
    for path in ("/etc/models/ce", "~/ce", "./ce", "a/b/c"):
        with pytest.raises(ConfigError, match="names a model .* not a path"):
            run({}, cross_encoder=path)
    with pytest.raises(ConfigError, match="filters must be an object"):
        run({"filters": [["kinds", ["skill"]]]})
    monkeypatch.setenv(srv.PRINCIPALS_ENV, "ops,dba")
    assert srv.run_principals("ops", srv.server_principals()) == ["ops"]  # one string, one principal
    with pytest.raises(ConfigError, match="may only narrow"):
        srv.run_principals("o", srv.server_principals())  # not the letters of a name


def test_new_cross_encoder_names_do_not_grow_the_server(run: Any) -> None:
    for i in range(srv.MAX_RETRIEVERS + 5):
        run({}, rerank=True, cross_encoder=f"nobody/model-{i}")
    assert len(srv._retrievers) <= srv.MAX_RETRIEVERS


def test_the_langchain_retriever_refuses_arguments_it_does_not_know(sample_index: Index) -> None:
    with pytest.raises(ConfigError, match="principals"):
        SkillRetriever(index=sample_index, principals=["ops"])  # filters={"principals": [...]}
    with pytest.raises(ConfigError, match="top_k"):
        SkillRetriever(index=sample_index, top_k=2)


def test_the_agent_tool_tells_the_model_to_shorten_a_long_query(sample_index: Index) -> None:
    """The limit is the deployment's: the message does not tell the model to raise it."""
    tool = make_search_skills_tool(sample_index, rerank=False)
    answer = tool.invoke({"query": "deploy " * 20_000})
    assert "over this tool's limit of 100,000. Shorten it to the task itself" in answer
    assert "max_query_chars" not in answer
