"""The served graphs read a run's ``config["configurable"]``, where LangGraph Platform keeps an
assistant's settings (``client.assistants.create(graph_id, config={"configurable": {"k": 3}})``)
and a client passes per-run ones. They set ``RetrievalContext(read_configurable=False)``, so an
assistant made for k 3 searched for the default 10 without a word. Now its settings and
``profile`` pass the checks a run's own ``profile`` input passes (`server_inputs.run_profile`:
a cost setting over the server's limit is refused naming the limit, ``encoding`` is the
server's), the run's own input still comes last, the answer's stats name what was taken
(``stats["plan_query"]["configurable"]``, as the compiled graph's do) and a key one slip from a
setting's name is named in the warnings. Real compiled served graphs, the sample index
(hashing embedder)."""

from __future__ import annotations

import shutil
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.adapters.server_configurable import CONTEXT_KEYS
from skill_retriever.exceptions import ConfigError

QUERY = {"query": "postgres schema migration"}


@pytest.fixture
def served_ctx(sample_index_path: Path, tmp_path: Path) -> dict[str, Any]:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    return {"index_dir": str(index_dir), "rerank": False}


@pytest.fixture
def run(served_ctx: dict[str, Any]) -> Any:
    graph = srv.build_server_graph()

    def invoke(configurable: dict[str, Any] | None, state: dict[str, Any] | None = None) -> dict[str, Any]:
        config = None if configurable is None else {"configurable": configurable}
        out: dict[str, Any] = graph.invoke({**QUERY, **(state or {})}, config, context=served_ctx)  # type: ignore[arg-type]
        return out

    return invoke


def _taken(out: dict[str, Any]) -> Any:
    return out["stats"]["plan_query"].get("configurable")


def test_an_assistants_k_applies_and_is_named(run: Any) -> None:
    assert len(run(None)["results"]) > 3  # the default 10 finds more
    out = run({"k": 3})
    assert len(out["results"]) == 3
    assert _taken(out) == {"k": 3}
    assert _taken(run(None)) is None  # said only when something came from there


def test_its_profile_and_settings_apply(run: Any) -> None:
    out = run({"profile": "multihop", "snippet_chars": 20, "token_budget": 100000})
    assert out["route_taken"] == "ppr"  # the profile's route
    assert all(len(r["snippet"]) <= 21 for r in out["results"])
    assert _taken(out) == {"profile": "multihop", "snippet_chars": 20, "token_budget": 100000}


def test_the_runs_own_input_comes_last(run: Any) -> None:
    assert len(run({"k": 3}, {"k": 2})["results"]) == 2
    out = run({"profile": "multihop"}, {"route": "quick", "profile": {"k": 4}})
    assert out["route_taken"] == "quick" and len(out["results"]) == 4


def test_the_servers_own_and_other_keys_are_left_alone(run: Any) -> None:
    """What the LangGraph API puts there beside an assistant's settings."""
    out = run({"k": 3, "thread_id": "t", "run_id": "r", "graph_id": "retrieval", "assistant_id": "a",
               "user_id": "u", "langgraph_auth_user": None, "langgraph_request_id": "x", "__after_seconds__": 0,
               "model": "gpt", "x-request-id": "y"})
    assert len(out["results"]) == 3 and _taken(out) == {"k": 3}
    assert not [w for w in out["warnings"] if "configurable" in w]


def test_the_context_mirrored_there_is_the_contexts(run: Any) -> None:
    """The LangGraph API copies a run's (or an assistant's) context into its configurable:
    ``rerank`` there is the context's, which `ServerContext` applies, and was named in the
    stats as a setting the client set there (seen through ``langgraph dev``)."""
    out = run({"k": 3, "rerank": True, "index_dir": "/elsewhere", "cross_encoder": "x/y", "__context_provided__": True})
    assert _taken(out) == {"k": 3} and out["reranker"] == "none"  # the context's rerank, false
    assert not [w for w in out["warnings"] if "configurable" in w]
    assert set(CONTEXT_KEYS) == {f.name for f in fields(srv.ServerContext)}


@pytest.mark.parametrize(("configurable", "words"), [
    ({"channel_depth": 10**6}, "config['configurable'] setting channel_depth=1000000 is over this server's limit"),
    ({"fact_seeds": 10**30}, "setting fact_seeds=1000000000000000000000000000000 is over this server's limit: at most 16"),
    ({"encoding": "cl100k_base"}, "config['configurable'] setting(s) ['encoding'] are this server's to set"),
    ({"k": 0}, "k must be > 0, got 0"),
    ({"k": "3"}, "setting 'k' has the wrong type"),
    ({"profile": "multihp"}, "unknown profile 'multihp' (did you mean 'multihop'?)"),
    ({"profile": {"k": 3}}, "config['configurable']['profile'] must be a profile's name"),
])
def test_a_value_a_run_may_not_set_is_refused(run: Any, configurable: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as err:
        run(configurable)
    assert words in str(err.value)
    assert "configurable" in str(err.value)


def test_a_lower_cost_setting_passes(run: Any) -> None:
    out = run({"channel_depth": 5, "seed_nodes": 4})
    assert _taken(out) == {"channel_depth": 5, "seed_nodes": 4} and out["results"]


def test_a_near_miss_is_named_with_what_a_client_can_do(run: Any) -> None:
    out = run({"kk": 3})
    (warning,) = [w for w in out["warnings"] if "configurable" in w]
    assert "config['configurable'] key 'kk' is no setting (did you mean 'k'?), so it was left alone" in warning
    assert "RetrievalContext" not in warning  # the Python advice means nothing to a server's client
    assert _taken(out) is None and len(out["results"]) > 3
