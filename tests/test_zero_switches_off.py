"""Settings whose 0 switches a step off (docs/architecture.md, "A setting's 0"), checked end
to end on the sample catalogue, the tiny graph and a small passage corpus with facts: the
response's phase stats say the step did not run, beside the same search with it on.

``rerank_top_n=0`` reranked the ``k`` items delivered, as None does (``rerank_top_n or k``
read the 0 as unset), though a setting of 0 items to rerank can only mean none: the
reranker ran and reordered the top all the same."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from tiny_graph import NOW

from skill_retriever.config import CHANNELS, RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.graph import graph
from skill_retriever.indexing import write_result
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import DEFAULT_RERANKER, Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"


def test_rerank_top_n_zero_reranks_nothing(sample_index: Index) -> None:
    retriever = Retriever(sample_index, reranker=EmbeddingReranker(sample_index.embedder))
    on = retriever.search(QUERY, rerank_top_n=3)
    assert on.stats["rerank_cross_encoder"]["reranked"] == 3 and on.reranker != "none"
    off = retriever.search(QUERY, rerank_top_n=0)
    assert off.reranker == "none" and "reranked" not in off.stats["rerank_cross_encoder"]
    unranked = retriever.search(QUERY, rerank=False)
    assert off.ids == unranked.ids


# Each channel's weight 0: the channel's list never reaches the fusion, on every route, and
# no result counts it. A query that every channel answers on the tiny graph: an id
# (named), a time window (temporal), words (keyword), a meaning (semantic), edges (graph).
# With the graph channel off the ppr route walked all the same, and a result the walk had
# reached carried its path ("reached via") though the walk counted for nothing.
CHANNEL_QUERY = "INC-1043 checkout-api postgres incidents in the last 7 days"
WALK_QUERY = "which services does the deploy command touch"


@pytest.mark.parametrize("route", ["smart", "ppr", "quick"])
def test_a_channel_weight_of_zero_leaves_the_channel_out(shared_tiny_index: Index, route: str) -> None:
    retriever = Retriever(shared_tiny_index, RetrievalConfig(now=NOW), cache_size=0)
    every = retriever.search(CHANNEL_QUERY, rerank=False, route=route)
    assert set(every.stats["fuse_rrf"]["channels"]) == set(CHANNELS)  # each channel has something to say
    for channel in CHANNELS:
        off = retriever.search(CHANNEL_QUERY, rerank=False, route=route, channels={channel: 0})
        assert channel not in off.stats["fuse_rrf"]["channels"], channel
        assert off.ids and not any(channel in r.channels for r in off.results), channel


def test_the_graph_channel_off_walks_nowhere(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, cache_size=0)
    walked = retriever.search(WALK_QUERY, rerank=False, route="ppr")
    assert any(r.path for r in walked.results)  # the walk explains an item it reached
    unwalked = retriever.search(WALK_QUERY, rerank=False, route="ppr", channels={"graph": 0})
    assert not any(r.path for r in unwalked.results)
    assert "skipped" in unwalked.stats["run_ppr"] and "skipped" in unwalked.stats["prune_flow"]


# A request of three asks, whose words the sample catalogue covers only in part.
ASKS = "postgres migration before a deploy. Then review the pull request; finally notify the on-call team about checkout"


def test_completeness_max_iterations_zero_fills_no_gaps(sample_index: Index) -> None:
    retriever = Retriever(sample_index, cache_size=0)
    filled = retriever.search(ASKS, rerank=False, route="smart")
    assert filled.stats["fill_gaps"]["added"] > 0
    off = retriever.search(ASKS, rerank=False, route="smart", completeness_max_iterations=0)
    checked = off.stats["check_completeness"]
    assert checked["coverage"] < checked["threshold"] and checked["missing"] > 0  # short, yet
    assert "fill_gaps" not in off.stats


def test_clause_coverage_zero_leaves_the_list_as_fused(sample_index: Index) -> None:
    retriever = Retriever(sample_index, cache_size=0)
    covered = retriever.search(ASKS, rerank=False, clause_coverage=0.5)
    assert covered.stats["cover_clauses"]["clauses"] == 3
    off = retriever.search(ASKS, rerank=False, clause_coverage=0)
    assert off.stats["cover_clauses"]["off"] is True and "clauses" not in off.stats["cover_clauses"]
    assert not any("clauses" in r.channels for r in off.results)


def test_feedback_docs_zero_makes_no_second_search(sample_index: Index) -> None:
    retriever = Retriever(sample_index, cache_size=0)
    fed = retriever.search(QUERY, rerank=False, feedback_docs=2)
    assert len(fed.stats["retrieve_seeds"]["feedback"]) == 2
    off = retriever.search(QUERY, rerank=False, feedback_docs=0)
    assert off.stats["retrieve_seeds"]["feedback"] == []


# A passage corpus with facts (real spaCy), which the index's defaults send down the ppr
# route with facts seeding the walk and passages restarting it (calibration.defaults).
PASSAGES = [
    {"idx": 0, "title": "Lothair II", "text": "Lothair II was a king of Lotharingia. His mother was Ermengarde of Tours."},
    {"idx": 1, "title": "Ermengarde of Tours", "text": "Ermengarde of Tours died on 20 March 851 in Erstein."},
    {"idx": 2, "title": "Lotharingia", "text": "Lotharingia was a kingdom in Europe. Lothair II ruled Lotharingia."},
    {"idx": 3, "title": "Erstein", "text": "Erstein is a town in Alsace. Ermengarde of Tours is buried in Erstein."},
]
HOPS = "Where did the mother of Lothair II die?"


@pytest.fixture(scope="module")
def passages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    folder = tmp_path_factory.mktemp("passages")
    (folder / "corpus.json").write_text(json.dumps(PASSAGES), encoding="utf-8")
    index = Index.open(folder / "index", embedder=HashingEmbedder(), create=True)
    write_result(index, ingest_passages(folder / "corpus.json"))
    yield index
    index.close()


def test_fact_seeds_zero_seeds_the_walk_with_no_fact(passages: Index) -> None:
    retriever = Retriever(passages, cache_size=0)
    seeded = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False)
    assert seeded.route == "ppr" and seeded.stats["retrieve_seeds"]["facts"] > 0
    off = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False, fact_seeds=0).stats["retrieve_seeds"]
    assert off["facts"] == 0 and off["fact_seeds"] == 0 and off["seeds"] > 0  # the nearest nodes seed it instead


def test_specificity_zero_weighs_no_entity_by_its_passages(passages: Index) -> None:
    """The stats echoed the setting alone; they now count the restart weights it lowered."""
    retriever = Retriever(passages, cache_size=0)
    on = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False, specificity=1.0).stats["run_ppr"]
    assert on["specific_seeds"] > 0  # an entity seed named by several passages weighs less
    off = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False, specificity=0).stats["run_ppr"]
    assert off["specific_seeds"] == 0


def test_passage_weights_zero_restart_the_walk_at_the_seeds_alone(passages: Index) -> None:
    """The stats echoed the weights alone; they now count the nodes the passages' own
    evidence added to where the walk restarts."""
    retriever = Retriever(passages, cache_size=0)

    def restarted(**weights: float) -> int:
        stats = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False, **weights).stats["run_ppr"]
        return int(stats["restart_added"])

    assert restarted(ppr_dense_weight=0.2, ppr_keyword_weight=0) > 0
    assert restarted(ppr_dense_weight=0, ppr_keyword_weight=0.1) > 0
    assert restarted(ppr_dense_weight=0, ppr_keyword_weight=0) == 0


def test_ppr_settle_zero_stops_the_walk_by_the_l1_rule_alone(passages: Index) -> None:
    retriever = Retriever(passages, cache_size=0)
    early = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False, ppr_settle=1).stats["run_ppr"]
    assert early["settled"] is True
    off = retriever.search(HOPS, k=3, kinds=["passage"], rerank=False, ppr_settle=0).stats["run_ppr"]
    assert off["settled"] is False and off["iterations"] > early["iterations"]


def test_flow_max_paths_zero_switches_flow_pruning_off(sample_index: Index) -> None:
    """0 kept no path, so the graph channel held the walk's seeds alone (3 items on the
    sample catalogue, against 11 pruned and 50 unpruned): now 0 switches pruning off, as
    every other setting's 0 switches its step off, and the channel keeps the walk's ranking."""
    retriever = Retriever(sample_index, cache_size=0)
    pruned = retriever.search(QUERY, rerank=False, route="ppr")
    kept = pruned.stats["prune_flow"]["kept_nodes"]
    assert pruned.stats["prune_flow"]["paths"] > 0 and kept > pruned.stats["run_ppr"]["seeds"]
    off = retriever.search(QUERY, rerank=False, route="ppr", flow_max_paths=0)
    assert "skipped" in off.stats["prune_flow"]
    walked = off.stats["run_ppr"]["nodes_scored"]
    assert kept < off.stats["fuse_rrf"]["channels"]["graph"] <= walked
    assert not any(r.path for r in off.results)  # no path kept, none to show


def test_rerank_top_n_zero_loads_no_reranker(sample_index: Index, default_rerankers: list[EmbeddingReranker],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing will be reranked, so the default reranker (a cross-encoder, seconds to load)
    is not loaded for it: the served context and `Retriever` loaded it, then skipped it."""
    served: list[EmbeddingReranker] = []

    def load() -> EmbeddingReranker:
        served.append(EmbeddingReranker(sample_index.embedder))
        return served[-1]

    monkeypatch.setattr("skill_retriever.rerank.default_reranker", load)
    context = RetrievalContext(index=sample_index, reranker=DEFAULT_RERANKER)
    out = graph.invoke({"query": QUERY, "k": 2, "profile": {"rerank_top_n": 0}}, context=context)
    assert out["results"] and out["reranker"] == "none" and not served
    graph.invoke({"query": QUERY, "k": 2}, context=context)
    assert len(served) == 1  # a query that reranks still loads it
    retriever = Retriever(sample_index, cache_size=0)
    assert retriever.search(QUERY, rerank_top_n=0).reranker == "none" and not default_rerankers
    assert retriever.search(QUERY).reranker != "none" and len(default_rerankers) == 1


@pytest.mark.parametrize("setting", ["flow_max_endpoints", "flow_max_hops"])
def test_flow_pruning_counts_at_zero_switch_it_off_as_flow_max_paths_does(sample_index: Index, setting: str) -> None:
    """A 0 kept no path (no endpoint to explain, or none within 0 hops), so the graph
    channel held the walk's seeds alone (5 items on the sample catalogue, against 13 pruned
    and 50 unpruned), and the stats counted endpoints and paths as though pruning had run."""
    retriever = Retriever(sample_index, cache_size=0)
    kept = retriever.search(QUERY, rerank=False, route="ppr").stats["prune_flow"]["kept_nodes"]
    off = retriever.search(QUERY, rerank=False, route="ppr", **{setting: 0})
    assert off.stats["prune_flow"]["skipped"].startswith(f"{setting}=0: the graph channel ranks every node")
    assert kept < off.stats["fuse_rrf"]["channels"]["graph"] <= off.stats["run_ppr"]["nodes_scored"]
    assert not any(r.path for r in off.results)


def test_flow_pruning_off_by_query_set_is_said_in_the_json_stats(
    sample_index_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "query", QUERY, "--index-dir", sample_index_path, "--route", "ppr", "--no-rerank",
                         "--set", "flow_max_hops=0", "--json")
    assert code == 0, err
    assert json.loads(out)["stats"]["prune_flow"]["skipped"].startswith("flow_max_hops=0: the graph channel ranks")


def test_gap_fill_per_component_zero_fills_no_gaps(sample_index: Index) -> None:
    """It ran a round that searched each missing component for no item, and its stats
    said every component was left unmatched."""
    retriever = Retriever(sample_index, cache_size=0)
    assert "gap_filling" not in retriever.search(ASKS, rerank=False, route="smart").stats["check_completeness"]
    off = retriever.search(ASKS, rerank=False, route="smart", gap_fill_per_component=0)
    checked = off.stats["check_completeness"]
    assert checked["coverage"] < checked["threshold"] and checked["missing"] > 0  # short, yet
    assert checked["gap_filling"] == "off: gap_fill_per_component=0" and "fill_gaps" not in off.stats
    unfilled = retriever.search(ASKS, rerank=False, route="smart", completeness_max_iterations=0)
    assert unfilled.stats["check_completeness"]["gap_filling"] == "off: completeness_max_iterations=0"
    assert off.ids == unfilled.ids


def test_expand_max_nodes_zero_adds_no_neighbour_and_says_so(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, cache_size=0)
    grown = retriever.search(WALK_QUERY, rerank=False, route="quick").stats["expand_graph"]
    assert grown["levels"][0] > 0 and "skipped" not in grown
    off = retriever.search(WALK_QUERY, rerank=False, route="quick", expand_max_nodes=0).stats
    assert off["expand_graph"]["skipped"].startswith("expand_max_nodes=0: no neighbour added")
    assert off["expand_graph"]["candidates"] == grown["candidates"] - grown["levels"][0]
    assert off["fuse_rrf"]["channels"]["graph"] == off["expand_graph"]["candidates"]


def test_snippet_chars_zero_gives_no_snippet(shared_tiny_index: Index) -> None:
    """A 0 gave each result the first 60-odd characters of its text."""
    retriever = Retriever(shared_tiny_index, cache_size=0)
    assert all(len(r.snippet) <= 20 for r in retriever.search(QUERY, rerank=False, snippet_chars=20).results)
    off = retriever.search(QUERY, rerank=False, snippet_chars=0)
    assert off.ids and all(r.snippet == "" for r in off.results)
