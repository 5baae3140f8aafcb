"""graphs/retrieval.py and the helpers that let LangGraph Server run the retrieval graph
from a JSON context: which index, which embedder, the sample index cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from tiny_graph import PRIVATE_ID, build_tiny_index

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.exceptions import (
    ConfigError,
    IndexCorruptError,
    IndexLockedError,
    IndexNotFoundError,
    IngestError,
    PowerIterationFailedConvergence,
    QueryError,
    SkillRetrieverError,
)
from skill_retriever.stores.embedder import (
    HashingEmbedder,
    SentenceTransformerEmbedder,
    embedder_for,
)


def test_embedder_for_manifest_names() -> None:
    assert isinstance(embedder_for("hashing-64"), HashingEmbedder)
    assert embedder_for("hashing-64").dim == 64
    st = embedder_for("bundled:all-MiniLM-L6-v2")
    assert isinstance(st, SentenceTransformerEmbedder) and st.name == "bundled:all-MiniLM-L6-v2"


def test_index_dir_from_context_then_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(srv.INDEX_ENV, str(tmp_path / "from-env"))
    assert srv.resolve_index_dir(None) == tmp_path / "from-env"
    assert srv.resolve_index_dir(str(tmp_path / "given")) == tmp_path / "given"
    with pytest.raises(IndexNotFoundError, match="skill-retriever index"):
        srv.server_index(str(tmp_path / "missing"))


def test_a_damaged_index_is_said_to_be_damaged_not_missing(tmp_path: Path) -> None:
    """Its manifest garbled beside its items: the server said "no readable index at ...;
    run `skill-retriever index` first" (an IndexCorruptError that read as a missing one),
    which would build over the items; it now says what the open says, repair."""
    build_tiny_index(tmp_path / "ix").close()
    (tmp_path / "ix" / "index.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexCorruptError, match="skill-retriever repair") as err:
        srv.server_index(str(tmp_path / "ix"))
    assert not isinstance(err.value, IndexNotFoundError) and "no readable index" not in str(err.value)


def test_sample_index_is_built_once_into_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(srv.CACHE_ENV, str(tmp_path / "cache"))
    embedder = HashingEmbedder(32)
    first = srv.sample_index_dir(embedder)
    assert first.parent == tmp_path / "cache" and (first / "index.json").exists()
    stamp = (first / "index.json").stat().st_mtime_ns
    assert srv.sample_index_dir(embedder) == first  # cached: not rebuilt
    assert (first / "index.json").stat().st_mtime_ns == stamp
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [
        first.name
    ]  # no half-built leftovers
    assert len(srv.server_index(str(first))) > 50


def test_server_graph_runs_with_a_json_context(sample_index_path: Path, tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    from skill_retriever.adapters.langgraph_server import build_server_graph

    graph = build_server_graph()
    ctx = {"index_dir": str(index_dir), "cross_encoder": None}
    out = graph.invoke({"query": "canary rollout of a release", "k": 3}, context=ctx)
    assert set(out) == {"results", "route_taken", "reranker", "stats", "warnings", "fit"}  # the sample index is calibrated
    assert set(out["fit"]) == {"confidence", "nothing_fits", "top_similarity", "agree"}
    assert len(out["results"]) == 3 and out["reranker"] == "none"  # no cross-encoder: no reranking
    # a ServerContext object works too (what the server builds from the JSON)
    out = graph.invoke(
        {"query": "canary rollout", "k": 1},
        context=srv.ServerContext(index_dir=str(index_dir), rerank=False),
    )
    assert out["reranker"] == "none" and len(out["results"]) == 1


def test_server_graph_shows_the_phases_as_a_subgraph(
    sample_index_path: Path, tmp_path: Path
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    graph = srv.build_server_graph(checkpointer=InMemorySaver())
    drawn = graph.get_graph(xray=1).draw_mermaid()
    for phase in ("plan_query", "run_ppr", "fuse_rrf", "apply_token_budget"):
        assert phase in drawn
    config = {"configurable": {"thread_id": "t"}}
    events = list(
        graph.stream({"query": "rotate a leaked secret", "k": 2}, config, context={"index_dir": str(index_dir), "rerank": False},
                     stream_mode="updates", subgraphs=True)
    )  # fmt: skip
    assert any(ns and ns[0].startswith("retrieve:") and "plan_query" in upd for ns, upd in events)


def test_the_deployment_not_the_run_says_who_is_asking(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A server run searches as $SKILL_RETRIEVER_PRINCIPALS; the run's filters may narrow
    that set but never widen it, so no client reads a private item by naming a principal."""
    index = build_tiny_index(tmp_path / "ix")
    index.close()
    graph = srv.build_server_graph()
    ctx = {"index_dir": str(tmp_path / "ix"), "rerank": False}
    query = {"query": "checkout-api outage failover runbook postgres replica", "k": 10}

    def ids(**filters: object) -> list[str]:
        out = graph.invoke({**query, **({"filters": filters} if filters else {})}, context=ctx)
        return [r["id"] for r in out["results"]]

    monkeypatch.delenv(srv.PRINCIPALS_ENV, raising=False)
    assert ids() and PRIVATE_ID not in ids()  # no principals granted: public items only
    for wider in (["*"], ["team-a"], ["team-b", "team-a"]):
        with pytest.raises(ConfigError, match="only narrow") as refused:
            ids(principals=wider)
        assert "team-a" not in str(refused.value)  # the refusal names no principal
    with pytest.raises(ConfigError, match="only narrow"):  # one string is one principal
        ids(principals="team-a")
    with pytest.raises(ConfigError, match="list of strings"):
        ids(principals={"team-a": True})

    monkeypatch.setenv(srv.PRINCIPALS_ENV, "team-a, team-b")
    assert PRIVATE_ID in ids()
    assert PRIVATE_ID in ids(principals=["team-a"])  # narrowing is allowed
    assert PRIVATE_ID in ids(principals="team-a")
    assert PRIVATE_ID not in ids(principals=["team-b"])
    assert PRIVATE_ID not in ids(principals=[])
    with pytest.raises(ConfigError, match="only narrow"):
        ids(principals=["*"])

    monkeypatch.setenv(srv.PRINCIPALS_ENV, "*")
    assert PRIVATE_ID in ids() and PRIVATE_ID in ids(principals=["team-a"])
    assert PRIVATE_ID not in ids(principals=["nobody"])



@pytest.mark.parametrize(
    "error",
    [
        IndexCorruptError("no readable index at /x; run `skill-retriever index --index-dir /x ...` first"),
        IndexLockedError("another process writes /x"),
        IngestError("/x does not exist"),
        PowerIterationFailedConvergence(10, 0.5),
        ConfigError("k must be > 0, got 0"),
        QueryError("the query is empty"),
    ],
)
def test_a_server_client_reads_each_errors_message(error: SkillRetrieverError) -> None:
    """LangGraph Server serialises a run's error with its message only for builtin error
    types; every error of this package is one, so the client learns what to do."""
    serde = pytest.importorskip("langgraph_api.serde")
    assert serde.default(error) == {"error": type(error).__name__, "message": str(error)}


def test_a_run_without_a_query_is_told_what_to_send(tmp_path: Path) -> None:
    build_tiny_index(tmp_path / "ix").close()
    graph = srv.build_server_graph()
    with pytest.raises(QueryError, match='needs "query"'):
        graph.invoke({"k": 3}, context={"index_dir": str(tmp_path / "ix")})


def test_a_run_may_lower_the_servers_limits_never_raise_them(sample_index_path: Path, tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    graph = srv.build_server_graph()
    ctx = {"index_dir": str(index_dir), "cross_encoder": None}
    with pytest.raises(ConfigError, match=r"max_query_chars=10000000 is over this server's limit: at most 100000"):
        graph.invoke({"query": "deploy " * 150_000, "profile": {"max_query_chars": 10**7}}, context=ctx)
    with pytest.raises(ConfigError, match="ppr_tol=0 is over this server's limit: at least"):
        graph.invoke({"query": "deploy", "profile": {"ppr_tol": 0}}, context=ctx)
    lowered = graph.invoke({"query": "canary rollout", "k": 2, "profile": {"channel_depth": 5}}, context=ctx)
    assert len(lowered["results"]) == 2
    named = graph.invoke({"query": "canary rollout", "k": 2, "profile": "multihop"}, context=ctx)
    assert len(named["results"]) == 2  # a named profile, by its name
    with pytest.raises(ConfigError, match="unknown profile 'fast'"):
        graph.invoke({"query": "canary rollout", "profile": "fast"}, context=ctx)


def test_a_run_names_only_an_index_the_deployment_offers(
    monkeypatch: pytest.MonkeyPatch, sample_index_path: Path, tmp_path: Path
) -> None:
    """A client naming any folder would read any index on the server's disk: a run's
    index_dir must be $SKILL_RETRIEVER_INDEX or in a folder of $SKILL_RETRIEVER_INDEX_DIRS."""
    offered, other = tmp_path / "offered", tmp_path / "private"
    shutil.copytree(sample_index_path, offered / "team-a")
    shutil.copytree(sample_index_path, other)
    monkeypatch.delenv(srv.INDEX_DIRS_ENV)
    monkeypatch.setenv(srv.INDEX_ENV, str(offered / "team-a"))
    graph = srv.build_server_graph()

    def run(index_dir: str) -> dict:  # type: ignore[type-arg]
        return graph.invoke({"query": "canary rollout", "k": 1}, context={"index_dir": index_dir, "rerank": False})

    assert len(run(str(offered / "team-a"))["results"]) == 1  # the default, named
    for name in (str(other), str(offered / "team-a" / ".." / ".." / "private"), str(offered)):
        with pytest.raises(ConfigError, match=r"is not an index this server offers.*SKILL_RETRIEVER_INDEX_DIRS"):
            run(name)
    (tmp_path / "link").symlink_to(other)
    monkeypatch.setenv(srv.INDEX_DIRS_ENV, str(offered))
    assert len(run(str(offered / "team-a"))["results"]) == 1
    with pytest.raises(ConfigError, match="is not an index this server offers"):
        run(str(offered / ".." / "link"))  # a spelling that leaves the offered folder
    with pytest.raises(ConfigError, match="is not an index this server offers"):
        srv.server_index(str(other))
