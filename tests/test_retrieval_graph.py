"""The compiled retrieval graph, end to end on the tiny index (HashingEmbedder, real
Chroma): routes, explanations, stats, filters before fusion, degradation, budget,
rerank invariants, per-call profiles and bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from tiny_graph import NOW, PRIVATE_ID

from skill_retriever.config import RetrievalConfig
from skill_retriever.config_profiles import PROFILES
from skill_retriever.exceptions import ConfigError, QueryError, SkillRetrieverError
from skill_retriever.filters import Filters
from skill_retriever.graph import graph as compiled_graph
from skill_retriever.model import Edge, Node, NodeKind
from skill_retriever.rerank import EmbeddingReranker, Reranker
from skill_retriever.retriever import Retriever, SearchResponse
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.keywords import KeywordHit
from skill_retriever.stores.snapshot import IndexSnapshot
from skill_retriever.stores.vectors import VectorHit

CONFIG = RetrievalConfig(now=NOW)
QUERY = "deploy checkout-api after INC-1043 postgres migrations"
ROUTE_PHASES = {
    "smart": {"expand_graph", "check_completeness", "rank_multifactor"},
    "ppr": {"run_ppr", "prune_flow"},
    "quick": {"expand_graph"},
}
ALWAYS = {
    "plan_query",
    "retrieve_seeds",
    "search_keywords",
    "search_temporal",
    "fuse_rrf",
    "cover_clauses",
    "rerank_cross_encoder",
    "apply_token_budget",
}


@pytest.fixture(params=["no-rerank", "embedding-rerank"])
def retriever(request: pytest.FixtureRequest, shared_tiny_index: Index) -> Retriever:
    reranker = None if request.param == "no-rerank" else EmbeddingReranker(HashingEmbedder())
    return Retriever(shared_tiny_index, CONFIG, reranker=reranker, cache_size=0)


@pytest.fixture
def plain(shared_tiny_index: Index) -> Retriever:
    """No reranker, no answer cache: every search runs the graph."""
    return Retriever(shared_tiny_index, CONFIG, reranker=None, cache_size=0)


def run_states(
    retriever: Retriever, payload: dict[str, Any], config: RetrievalConfig | None = None
) -> Iterator[tuple[str, Any]]:
    """Every node's update and every full state, as the graph streams them."""
    ctx = retriever.context(config)
    yield from retriever.graph.stream(payload, context=ctx, stream_mode=["updates", "values"])


def check_result_shape(resp: SearchResponse) -> None:
    assert resp.results, "expected results"
    assert resp.results[0].fusion_score > 0
    for r in resp.results:
        # Score fusion (a catalogue's default) gives 0 to an item whose only evidence is
        # a similarity at or below 0; RRF gives every listed item something.
        assert isinstance(r.fusion_score, float) and r.fusion_score >= 0
        assert isinstance(r.token_count, int) and r.token_count > 0
        assert r.channels, r.id
        assert all(isinstance(rank, int) and rank >= 1 for rank in r.channels.values())
        assert set(r.channels) <= {"graph", "semantic", "keyword", "temporal", "named"}
    scores = [r.fusion_score for r in resp.results]
    if resp.reranker == "none":
        assert scores == sorted(scores, reverse=True)
    # ranks start at 1: some result is first in each channel that contributed
    for channel in {c for r in resp.results for c in r.channels}:
        assert min(r.channels[channel] for r in resp.results if channel in r.channels) == 1, channel


@pytest.mark.parametrize("route", ["smart", "ppr", "quick"])
def test_each_route_returns_explained_results(retriever: Retriever, route: str) -> None:
    resp = retriever.search(QUERY, route=route)  # type: ignore[arg-type]
    assert resp.route == route
    check_result_shape(resp)
    assert PRIVATE_ID not in resp.ids
    assert len(resp.ids) == len(set(resp.ids)) == 10
    if retriever._reranker is None:
        assert resp.reranker == "none"
        assert all(r.rerank_score is None for r in resp.results)
    else:
        assert resp.reranker == "embedding:hashing-64"
        assert all(isinstance(r.rerank_score, float) for r in resp.results)
        # The embedding fallback blends its order with the fusion order (RRF of the two
        # positions), so neither score alone is sorted; the blend is what is.
        assert resp.stats["rerank_cross_encoder"]["mode"] == "blend"
        by_fusion = sorted(resp.results, key=lambda r: -r.fusion_score)
        by_rerank = sorted(resp.results, key=lambda r: -(r.rerank_score or 0.0))
        blend = {
            r.id: 1 / (61 + by_fusion.index(r)) + 1 / (61 + by_rerank.index(r)) for r in resp.results
        }
        assert [blend[i] for i in resp.ids] == sorted(blend.values(), reverse=True)
    assert resp.warnings == []
    # the graph channel of the route contributed
    assert any("graph" in r.channels for r in resp.results)


@pytest.mark.parametrize("route", ["smart", "ppr", "quick"])
def test_stats_hold_every_phase_that_ran(plain: Retriever, route: str) -> None:
    ran: list[str] = []
    final: dict[str, Any] = {}
    for mode, chunk in run_states(plain, {"query": QUERY, "route": route}):
        if mode == "updates":
            ran.extend(chunk)
        else:
            final = chunk
    assert set(ran) >= ALWAYS | ROUTE_PHASES[route]
    other = set().union(*ROUTE_PHASES.values()) - ROUTE_PHASES[route]
    assert not other & set(ran), f"{route} ran phases of another route"
    stats = final["stats"]
    for name in ran:
        assert name in stats, name
        assert isinstance(stats[name]["ms"], float) and stats[name]["ms"] >= 0, name
    assert stats["plan_query"]["route"] == route
    assert final["route_taken"] == route


def test_ppr_route_explains_with_paths(retriever: Retriever) -> None:
    resp = retriever.search(QUERY, route="ppr")
    with_path = [r for r in resp.results if r.path]
    assert with_path, "no PPR result carries a path"
    index = retriever.index
    for r in with_path:
        assert len(r.path) >= 2 and r.path[-1] == r.id
        assert all(node_id in index for node_id in r.path)
        assert (
            r.path_reliability is not None
            and r.path_reliability >= CONFIG.flow_reliability_threshold
        )
        # consecutive path nodes are related in the graph
        adjacency = index.snapshot().graph
        for a, b in zip(r.path, r.path[1:]):
            assert adjacency.adjacency[adjacency.index[a], adjacency.index[b]] > 0
    assert resp.stats["prune_flow"]["paths"] >= 1
    # other routes never explain with paths
    assert not any(r.path for r in retriever.search(QUERY, route="smart").results)


def test_temporal_channel_only_with_a_time_phrase(plain: Retriever) -> None:
    timed = plain.search("incidents on checkout-api in the last 24h")
    assert timed.stats["search_temporal"]["window"] == "in the last 24h"
    assert "temporal" in timed.stats["fuse_rrf"]["channels"]
    temporal = {r.id: r.channels["temporal"] for r in timed.results if "temporal" in r.channels}
    assert temporal == {"incident:INC-1043": 1}  # the only item changed in the last 24h of NOW
    untimed = plain.search("incidents on checkout-api")
    assert untimed.stats["search_temporal"]["window"] is None
    assert "temporal" not in untimed.stats["fuse_rrf"]["channels"]
    assert not any("temporal" in r.channels for r in untimed.results)
    # "now" comes from the config: a month later the same phrase finds nothing
    later = plain.search(
        "incidents on checkout-api in the last 24h", now=NOW.replace(month=12, day=28)
    )
    assert not any("temporal" in r.channels for r in later.results)


def test_kinds_filter_applies_before_fusion(plain: Retriever) -> None:
    skills = {i for i, n in plain.index.nodes.items() if n.kind.value == "skill"}
    final: dict[str, Any] = {}
    for route in ("smart", "ppr", "quick"):
        for mode, chunk in run_states(
            plain, {"query": QUERY, "route": route, "filters": {"kinds": ["skill"]}}
        ):
            if mode == "values":
                final = chunk
        assert final["results"], route
        assert {r["kind"] for r in final["results"]} == {"skill"}
        for channel, hits in final["channel_rankings"].items():
            assert {h["id"] for h in hits} <= skills, (route, channel)
        fused = final["stats"]["fuse_rrf"]
        assert fused["fused"] == len(final["fused"]) <= len(skills)
        assert all(n <= len(skills) for n in fused["channels"].values())
        assert {f["id"] for f in final["fused"]} <= skills
    resp = plain.search(QUERY, kinds=["skill", "agent"])
    assert {r.kind for r in resp.results} <= {"skill", "agent"}
    assert resp.stats["fuse_rrf"]["fused"] <= len(skills) + 1


@pytest.mark.parametrize("route", ["smart", "ppr", "quick"])
def test_private_node_never_leaks(plain: Retriever, route: str) -> None:
    query = "checkout-api runbook failover postgres replica promotion on-call"
    for principals in (None, ["team-b"]):
        payload: dict[str, Any] = {"query": query, "route": route}
        if principals is not None:
            payload["filters"] = {"principals": principals}
        n_states = 0
        for _, chunk in run_states(plain, payload):
            n_states += 1
            assert PRIVATE_ID not in json.dumps(chunk, default=str), (route, principals)
        assert n_states > 5
    # positive control: the holder of the label does get it, from the same query
    visible = plain.search(query, route=route, principals=["team-a"])  # type: ignore[arg-type]
    assert PRIVATE_ID in visible.ids


def keywords_down(self: IndexSnapshot, query: str, k: int, filters: Filters | None = None) -> list[KeywordHit]:
    raise RuntimeError("bm25 backend unavailable")


def nodes_down(self: IndexSnapshot, qvec: Any, k: int, filters: Filters | None = None) -> list[VectorHit]:
    raise RuntimeError("vector backend unavailable")


class BrokenReranker:
    name = "broken"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        raise RuntimeError("reranker exploded")


class ShortReranker:
    """Returns too few scores: the phase must not keep any of them."""

    name = "short"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [1.0] * (len(texts) - 1)


def test_failing_keyword_channel_degrades(shared_tiny_index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IndexSnapshot, "search_keywords", keywords_down)
    index = Index.open(shared_tiny_index.path, embedder=HashingEmbedder())
    try:
        resp = Retriever(index, CONFIG, reranker=None, cache_size=0).search(QUERY)
        check_result_shape(resp)
        assert any(
            "search_keywords" in w and "bm25 backend unavailable" in w for w in resp.warnings
        )
        assert not any("keyword" in r.channels for r in resp.results)
        assert "RuntimeError" in resp.stats["search_keywords"]["failed"]
    finally:
        index.close()


def test_failing_seed_retrieval_raises(shared_tiny_index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IndexSnapshot, "search_nodes", nodes_down)
    index = Index.open(shared_tiny_index.path, embedder=HashingEmbedder())
    try:
        with pytest.raises(
            SkillRetrieverError, match=r"retrieve_seeds failed: RuntimeError: vector backend"
        ):
            Retriever(index, CONFIG, reranker=None, cache_size=0).search(QUERY)
    finally:
        index.close()


@pytest.mark.parametrize("reranker", [BrokenReranker(), ShortReranker()], ids=["raises", "short"])
def test_failing_reranker_keeps_fusion_order(
    shared_tiny_index: Index, plain: Retriever, reranker: Reranker
) -> None:
    baseline = plain.search(QUERY)
    resp = Retriever(shared_tiny_index, CONFIG, reranker=reranker, cache_size=0).search(QUERY)
    assert resp.ids == baseline.ids
    assert [r.fusion_score for r in resp.results] == [r.fusion_score for r in baseline.results]
    assert all(r.rerank_score is None for r in resp.results)
    assert any("rerank_cross_encoder" in w for w in resp.warnings)
    assert resp.reranker == "none"


def test_token_budget_drops_the_lowest_ranked(retriever: Retriever) -> None:
    full = retriever.search(QUERY, k=10)
    counts = [r.token_count for r in full.results]
    budget = sum(counts[:3])
    cut = retriever.search(QUERY, k=10, budget=budget)
    assert sum(r.token_count for r in cut.results) <= budget
    assert cut.ids == full.ids[:3]  # the top keeps its order; the tail goes
    assert cut.stats["apply_token_budget"]["dropped"] == 7
    assert cut.stats["apply_token_budget"]["total_tokens"] == budget
    assert retriever.search(QUERY, budget=0).results == []
    assert retriever.search(QUERY, budget=budget - 1).ids == full.ids[:2]


def test_rerank_never_adds_or_drops(plain: Retriever) -> None:
    reranker = EmbeddingReranker(HashingEmbedder())
    reranked = Retriever(plain.index, CONFIG, reranker=reranker, cache_size=0)
    n = 5
    base = plain.search(QUERY, k=20)
    resp = reranked.search(QUERY, k=20, rerank_top_n=n, rerank_mode="replace")  # head sorted by rerank score
    assert resp.reranker == reranker.name
    assert set(resp.ids[:n]) == set(base.ids[:n])
    assert resp.ids[n:] == base.ids[n:]
    assert all(r.rerank_score is not None for r in resp.results[:n])
    assert all(r.rerank_score is None for r in resp.results[n:])
    head = [r.rerank_score for r in resp.results[:n]]
    assert head == sorted(head, reverse=True)  # type: ignore[type-var]
    by_id = {r.id: r for r in base.results}
    for r in resp.results:  # fusion scores and channels travel unchanged with each item
        assert r.fusion_score == by_id[r.id].fusion_score and r.channels == by_id[r.id].channels
    # with the default top N every item is reranked, and the set is still the same
    everything = reranked.search(QUERY, k=20)
    assert set(everything.ids) == set(base.ids)
    # rerank=False per call turns it off without another retriever
    off = reranked.search(QUERY, k=20, rerank=False)
    assert off.reranker == "none" and off.ids == base.ids


def test_per_call_profile_switches_a_channel_off(plain: Retriever) -> None:
    graph_before = plain.graph
    version = plain.index.version
    on = plain.search(QUERY)
    assert any("keyword" in r.channels for r in on.results)  # control
    off = plain.search(QUERY, channels={"keyword": False})
    assert off.results
    assert not any("keyword" in r.channels for r in off.results)
    assert off.stats["search_keywords"] == {"off": True, "ms": off.stats["search_keywords"]["ms"]}
    assert "keyword" not in off.stats["fuse_rrf"]["channels"]
    # the same through the graph's own input (a profile in the state)
    out = plain.graph.invoke(
        {"query": QUERY, "profile": {"channels": {"keyword": False}}}, context=plain.context()
    )
    assert out["results"] and not any("keyword" in r["channels"] for r in out["results"])
    # nothing was rebuilt: same compiled graph, same index version, defaults untouched
    assert plain.graph is graph_before is compiled_graph
    assert plain.index.version == version
    assert plain.config.channel_on("keyword")
    again = plain.search(QUERY)
    assert again.ids == on.ids


@pytest.mark.parametrize("query", ["", "   \n\t ", b"postgres", None, 42])
def test_bad_query_raises_query_error(plain: Retriever, query: Any) -> None:
    with pytest.raises(QueryError):
        plain.search(query)


def test_huge_query_is_too_long(plain: Retriever) -> None:
    with pytest.raises(QueryError, match="over the limit"):
        plain.search("postgres " * 120_000)  # ~1 MB


def test_the_keyword_channel_reads_only_the_first_keyword_query_chars(plain: Retriever) -> None:
    # A word past the cap reaches no keyword search; with a larger cap it does.
    query = "zz " * 2_000 + "postgres"
    capped = plain.search(query, keyword_query_chars=1_000, rerank=False)
    assert capped.stats["search_keywords"]["hits"] == 0
    assert any("keywords its first 1,000 characters" in w for w in capped.warnings)
    whole = plain.search(query, keyword_query_chars=10_000, rerank=False)
    assert whole.stats["search_keywords"]["hits"] > 0


@pytest.mark.parametrize(
    "override",
    [
        {"rrf_k": "60"},
        {"k": "ten"},
        {"k": 2.5},
        {"route": "fast"},
        {"channels": {"keyword": "on"}},
        {"channels": "keyword"},
        {"channels": {"nonsense": True}},
        {"no_such_setting": 1},
    ],
    ids=[
        "rrf_k-str",
        "k-str",
        "k-float",
        "route",
        "channel-str",
        "channels-str",
        "channel-unknown",
        "unknown",
    ],
)
def test_bad_config_override_raises_config_error(
    plain: Retriever, override: dict[str, Any]
) -> None:
    with pytest.raises(ConfigError):
        plain.search(QUERY, **override)


def test_a_profile_named_in_the_subgraphs_state_is_that_profile(plain: Retriever) -> None:
    """The served graph took a profile's name and the subgraph a mapping only (Studio showed
    an object; found by a walkthrough): both take either now."""
    ctx = plain.context()
    named = plain.graph.invoke({"query": QUERY, "profile": "multihop"}, context=ctx)
    spelled = plain.graph.invoke({"query": QUERY, "profile": dict(PROFILES["multihop"])}, context=ctx)
    assert [r["id"] for r in named["results"]] == [r["id"] for r in spelled["results"]]
    assert named["route_taken"] == "ppr"  # the profile's route
    with pytest.raises(ConfigError, match="unknown profile 'multi-hop'"):
        plain.graph.invoke({"query": QUERY, "profile": "multi-hop"}, context=ctx)
    schema = json.dumps(plain.graph.get_input_jsonschema()["properties"]["profile"])
    assert '"string"' in schema and '"object"' in schema


def test_bad_profile_or_filters_in_state_raise_config_error(plain: Retriever) -> None:
    ctx = plain.context()
    with pytest.raises(ConfigError):
        plain.graph.invoke({"query": QUERY, "profile": {"k": "ten"}}, context=ctx)
    with pytest.raises(ConfigError):
        plain.graph.invoke({"query": QUERY, "filters": {"kinds": ["widget"]}}, context=ctx)
    with pytest.raises(ConfigError):
        plain.graph.invoke({"query": QUERY, "filters": {"colour": ["red"]}}, context=ctx)
    # no kind at all: nothing could match, so it is a slip to say, not an empty answer
    with pytest.raises(ConfigError, match="^kinds is empty"):  # named as the caller gave it
        plain.search(QUERY, kinds=[])
    with pytest.raises(ConfigError, match="filters.kinds is empty"):
        plain.graph.invoke({"query": QUERY, "filters": {"kinds": []}}, context=ctx)


def test_gap_filling_asks_keywords_and_vectors_only_when_asked(plain: Retriever) -> None:
    # "alembic" is a word of the catalogue, "zorblax" of no item: only the second may
    # cost an embedding, and only with gap_fill_by_vector. Coverage 0.8 is out of reach,
    # so gap filling runs.
    embedder = plain.index.snapshot().embedder
    assert isinstance(embedder, HashingEmbedder)
    query = "alembic zorblax quuxify"
    before = embedder.calls
    resp = plain.search(query, route="smart", principals=["*"])
    assert embedder.calls - before == 1  # the query itself, nothing for its gaps
    first = resp.stats["fill_gaps"]["rounds"][0]
    assert first["components"] > first["unmatched"] >= 1 and first["by_vector"] == 0
    assert resp.stats["check_completeness"]["missing"] >= 1
    before = embedder.calls
    asked = plain.search(query, route="smart", principals=["*"], gap_fill_by_vector=True)
    assert embedder.calls - before == 2  # the query, then its unmatched components in one batch
    first = asked.stats["fill_gaps"]["rounds"][0]
    assert first["by_vector"] == first["unmatched"] >= 1 and first["added"] > resp.stats["fill_gaps"]["added"]


def test_gap_filling_runs_once(plain: Retriever) -> None:
    # Coverage 0.8 stays out of reach after the first round, and two rounds are asked for:
    # the second would only search the same components again (same hits, already
    # candidates), so it does not run and the answer is the one-round answer.
    query = "alembic zorblax quuxify"
    resp = plain.search(query, route="smart", principals=["*"], completeness_max_iterations=2)
    rounds = resp.stats["fill_gaps"]["rounds"]
    assert len(rounds) == 1 and rounds[0]["components"] >= 1
    assert resp.stats["check_completeness"]["missing"] >= 1  # still short: only the rule stopped it
    once = plain.search(query, route="smart", principals=["*"], completeness_max_iterations=1)
    assert resp.ids == once.ids


def test_typed_hop_starts_the_walk_at_its_far_end(plain: Retriever) -> None:
    resp = plain.search("skills that deploy depends on", kinds=["skill"], principals=["*"])
    assert resp.route == "ppr"  # a typed hop is a multi-hop question
    seeds = resp.stats["retrieve_seeds"]
    assert seeds["relation_seeds"] == 1 and seeds["seeds"] == 1  # only skill:postgres-migrations
    assert resp.stats["fuse_rrf"]["weights"]["graph"] == CONFIG.channel_weights["graph"] * CONFIG.relation_graph_boost
    assert resp.ids[0] == "skill:postgres-migrations"


def test_typed_hop_never_reaches_a_private_far_end(tiny_index: Index) -> None:
    tiny_index.upsert((), [Edge(PRIVATE_ID, "service:checkout-api", "DEPENDS_ON")])
    retriever = Retriever(tiny_index, CONFIG, reranker=None, cache_size=0)
    outsider = retriever.search("documents that depend on checkout-api")
    assert outsider.stats["retrieve_seeds"]["relation_seeds"] == 0
    assert PRIVATE_ID not in outsider.ids
    insider = retriever.search("documents that depend on checkout-api", principals=["team-a"])
    assert insider.stats["retrieve_seeds"]["relation_seeds"] == 1
    assert insider.ids[0] == PRIVATE_ID


def test_an_identifier_the_query_writes_out_is_its_own_ranked_list(plain: Retriever) -> None:
    resp = plain.search("INC-1043 postmortem", principals=["*"])
    assert resp.stats["fuse_rrf"]["channels"]["named"] == 1
    assert resp.ids[0] == "incident:INC-1043"
    assert resp.results[0].channels["named"] == 1
    off = plain.search("INC-1043 postmortem", principals=["*"], channels={"named": False})
    assert "named" not in off.stats["fuse_rrf"]["channels"]
    # a plain word that is also a name ("deploy") is not an identifier: within words it names
    # nothing; a query that is, whole, that name names the item (named_query.whole_query_names)
    assert "named" not in plain.search("deploy the app", principals=["*"]).stats["fuse_rrf"]["channels"]
    whole = plain.search("deploy", principals=["*"])
    assert whole.stats["fuse_rrf"]["channels"]["named"] >= 1 and whole.results[0].name == "deploy", whole.ids
    # the item a typed hop starts from is not what the question asks for
    hop = plain.search("what does checkout-api depend on", principals=["*"])
    assert "named" not in hop.stats["fuse_rrf"]["channels"]


def test_an_id_the_query_writes_out_is_named_too(plain: Retriever) -> None:
    """An incident export's id is its ticket (``inc:4812``, the README's JSON graph) and its
    name a title: asked for by its id, the search ranked two other incidents above it, as
    the named list read names only."""
    resp = plain.search("what did mcp:github change?", principals=["*"])
    assert resp.ids[0] == "mcp:github" and resp.results[0].channels["named"] == 1
    assert plain.search("MCP:GitHub", principals=["*"]).results[0].channels["named"] == 1  # any case, as a name
    # an item the caller may not see is named for no one else
    assert "named" not in plain.search(PRIVATE_ID, principals=[]).stats["fuse_rrf"]["channels"]
    assert plain.search(PRIVATE_ID, principals=["team-a"]).results[0].channels["named"] == 1
    # a plain word that is also an id names nothing: only a written-out id (a digit, ':', '/', ...)
    assert "named" not in plain.search("github deploy", principals=["*"]).stats["fuse_rrf"]["channels"]


def test_an_item_found_by_its_id_alone_says_so(tiny_index: Index) -> None:
    tiny_index.upsert([Node(id="inc:4812", kind=NodeKind.INCIDENT, name="checkout 500s",
                            text="Checkout returned HTTP 500 after the v2.3 deploy.")], [])
    resp = Retriever(tiny_index, CONFIG, reranker=None, cache_size=0).search("what happened in INC:4812?")
    assert resp.ids[0] == "inc:4812"
    # not "close in meaning (semantic, graph, named)": the query wrote its id out
    assert resp.results[0].reason == "named in the query"


def test_a_time_window_raises_the_temporal_channel(plain: Retriever) -> None:
    windowed = plain.search("incidents in the last 24h", principals=["*"])
    assert windowed.stats["fuse_rrf"]["weights"]["temporal"] == CONFIG.temporal_window_boost
    assert plain.search("incidents", principals=["*"]).stats["fuse_rrf"]["weights"]["temporal"] == 1.0


def test_the_graph_without_a_context_says_what_to_pass() -> None:
    """Invoked bare (the first thing a LangGraph user may try), the graph names the
    context it needs instead of failing inside a phase with an AttributeError."""
    with pytest.raises(ConfigError, match=r"context=RetrievalContext\(index=Index.open\(...\)\); it got NoneType"):
        compiled_graph.invoke({"query": "add tracing to a service"})


def test_a_mistyped_setting_is_named_with_the_one_meant(plain: Retriever) -> None:
    """One list of setting names (``config.SETTING_NAMES``) and one hint, for every face."""
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) \['rerank_topn'\] \(did you mean 'rerank_top_n'\?\)"):
        plain.search(QUERY, rerank_topn=3)
