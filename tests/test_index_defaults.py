"""What an index suggests for itself from what it holds (calibration.defaults), and a
passage corpus searched with those defaults: facts seed the walk, specificity and
synonyms reach it, and the caller's own settings always win."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tiny_graph import build_tiny_index

from skill_retriever.algorithms.restart import specificity
from skill_retriever.calibration.defaults import (
    NEUTRAL,
    PASSAGE_SETTINGS,
    IndexDefaults,
    decide,
    index_defaults,
)
from skill_retriever.calibration.fit import best_cosines
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import resolve
from skill_retriever.filters import Filters
from skill_retriever.indexing import write_result
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.model import ANSWER_KINDS, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.passage_views import passage_counts, walk_adjacency

CORPUS = [
    {"idx": 0, "title": "Lothair II", "text": "Lothair II was a king of Lotharingia. His mother was Ermengarde of Tours."},
    {"idx": 1, "title": "Ermengarde of Tours", "text": "Ermengarde of Tours died on 20 March 851 in Erstein."},
    {"idx": 5, "title": "Aschenbrödel", "text": "Aschenbrödel is a ballet by Johann Strauss II, first staged in Berlin."},
    {"idx": 2, "title": "Lotharingia", "text": "Lotharingia was a kingdom in Europe. Lothair II ruled Lotharingia."},
    {"idx": 3, "title": "Erstein", "text": "Erstein is a town in Alsace. Ermengarde of Tours is buried in Erstein."},
    {"idx": 4, "title": "Recording Industry Association of America",
     "text": "The Recording Industry Association of America (RIAA) certifies records in Europe."},
]


def _passage_index(path: Path, facts: bool = True) -> Index:
    corpus = path.parent / f"corpus-{path.name}.json"
    corpus.write_text(json.dumps(CORPUS), encoding="utf-8")
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    write_result(index, ingest_passages(corpus, facts=facts))  # real spaCy: NER and the parser
    return index


@pytest.fixture(scope="module")
def passages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    index = _passage_index(tmp_path_factory.mktemp("passages") / "index")
    yield index
    index.close()


def test_a_passage_corpus_with_facts_gets_the_multihop_settings(passages: Index, tmp_path: Path) -> None:
    found = decide(passages.snapshot())
    assert found.corpus == "passages" and found.settings == PASSAGE_SETTINGS
    assert "6 of 6 askable nodes are passages" in found.reasons[0]
    assert index_defaults(passages.snapshot()) is index_defaults(passages.snapshot())  # once per snapshot
    # A multi-hop question is one ask whose hops the walk follows: no clause coverage.
    assert resolve(RetrievalConfig(), {}, passages.snapshot()).clause_coverage == 0.0
    old = _passage_index(tmp_path / "old", facts=False)  # indexed before facts existed
    assert decide(old.snapshot()).corpus == "other" and not decide(old.snapshot()).settings
    old.close()


def test_passages_beside_other_items_keep_the_built_in_defaults(tmp_path: Path) -> None:
    """The passage settings leave the fusion to the walk from facts, which reaches
    passages only: 200 HotpotQA passages indexed beside 107 runbooks, skills and
    incidents put a passage first for "build a slack gif", the skill at score 0 (found in
    a walkthrough). A mix keeps the built-in defaults, and every item can rank."""
    index = _passage_index(tmp_path / "mixed")  # 6 passages, with facts
    runbooks = [Node(id=f"runbooks/{i}.md", kind="document", name=f"slack gif runbook {i}",
                     description="build a slack gif", text="build a slack gif step by step") for i in range(3)]
    index.upsert(runbooks, [])
    found = decide(index.snapshot())
    assert found.corpus == "other" and not found.settings
    assert found.reasons[0].startswith("built-in defaults: 6 of 9 askable nodes are passages, the rest other kinds")
    top = Retriever(index, reranker=None).search("build a slack gif", k=3, principals=["*"])
    assert [r.kind for r in top.results] == ["document"] * 3
    index.close()


def test_a_skill_catalogue_fuses_by_scores_and_keeps_the_rest(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "tiny")
    found = decide(index.snapshot())
    assert found.corpus == "catalogue" and dict(found.settings) == {"fusion": "scores", "clause_coverage": 0.5}
    assert "askable nodes are components" in found.reasons[0] and "several asks" in found.reasons[0]
    config = resolve(RetrievalConfig(), {}, index.snapshot())
    assert config.fusion == "scores" and config.clause_coverage == 0.5
    # The caller's value wins, 0 (off) included.
    assert resolve(RetrievalConfig(clause_coverage=0.0), {}, index.snapshot()).clause_coverage == 0.0
    assert resolve(RetrievalConfig(), {"profile": {"clause_coverage": 0.2}}, index.snapshot()).clause_coverage == 0.2
    assert config.route is None and config.fact_seeds == 0 and config.channel_weights["semantic"] == 1.0
    # A caller who names a fusion gets it, even the one that is the neutral value.
    assert resolve(RetrievalConfig(fusion="rrf"), {}, index.snapshot()).fusion == "rrf"
    assert resolve(RetrievalConfig(), {"profile": {"fusion": "rrf"}}, index.snapshot()).fusion == "rrf"
    assert resolve(RetrievalConfig(use_calibration=False), {}, index.snapshot()).fusion == "rrf"
    index.close()


def test_a_folder_of_documents_is_searched_as_a_catalogue(tmp_path: Path) -> None:
    # One item per file, named and described, as a skill is: the catalogue's settings
    # (measured on the skills dev queries over the same files read as documents).
    index = Index.open(tmp_path / "docs", embedder=HashingEmbedder(), create=True)
    index.upsert(
        [Node(id=f"runbooks/{i}.md", kind="document", name=f"runbook {i}", description="what to do", text="steps")
         for i in range(3)]
        + [Node(id="inc:1", kind="incident", name="checkout down", description="an incident", text="down")],
        [],
    )
    found = decide(index.snapshot())
    assert found.corpus == "catalogue" and found.settings["fusion"] == "scores"
    assert "3 of 4 askable nodes are components, tools or documents" in found.reasons[0]
    assert resolve(RetrievalConfig(), {}, index.snapshot()).fusion == "scores"
    index.close()


def test_an_operations_graph_fuses_by_scores_and_a_mix_keeps_the_built_in_defaults(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ops", embedder=HashingEmbedder(), create=True)
    index.upsert(
        [Node(id=f"svc:{i}", kind="service", name=f"service {i}", description="a service", text="runs") for i in range(3)]
        + [Node(id="inc:1", kind="incident", name="checkout down", description="an incident", text="down")],
        [],
    )
    found = decide(index.snapshot())
    assert found.corpus == "operations" and dict(found.settings) == {"fusion": "scores"}
    assert "4 of 4 askable nodes are services, deploys or incidents" in found.reasons[0]
    assert resolve(RetrievalConfig(), {}, index.snapshot()).fusion == "scores"
    assert resolve(RetrievalConfig(fusion="rrf"), {}, index.snapshot()).fusion == "rrf"  # the caller's choice stands
    # Five items of another kind beside the four: no longer mostly an operations graph.
    index.upsert([Node(id=f"o:{i}", kind="other", name=f"note {i}", description="a note", text="x") for i in range(5)], [])
    mixed = decide(index.snapshot())
    assert mixed.corpus == "other" and not mixed.settings
    assert "44% services, deploys or incidents" in mixed.reasons[0]
    assert resolve(RetrievalConfig(), {}, index.snapshot()).fusion == "rrf"
    index.close()


def test_apply_fills_only_what_the_caller_left_alone() -> None:
    d = IndexDefaults("passages", PASSAGE_SETTINGS)
    plain = d.apply(RetrievalConfig())
    assert plain.route is None and plain.default_route == "ppr" and plain.fact_seeds == PASSAGE_SETTINGS["fact_seeds"]
    assert plain.channel_weights["graph"] == 1.0 and plain.channel_weights["semantic"] == 0.001
    assert plain.channel_weights["temporal"] == 1.0  # not suggested: left as it was
    mine = d.apply(RetrievalConfig().override(route="smart", fact_seeds=0, specificity=1.0, channels={"graph": False}))
    assert (mine.route, mine.fact_seeds, mine.specificity) == ("smart", 0, 1.0)
    assert mine.channel_weights["graph"] == 0.0 and mine.channel_weights["keyword"] == 0.001
    off = d.apply(RetrievalConfig(use_calibration=False))
    assert off.route is None and {k: getattr(off, k) for k in NEUTRAL} == dict(NEUTRAL)


def test_facts_seed_the_walk_and_passages_come_back(passages: Index) -> None:
    retriever = Retriever(passages, cache_size=0)
    query = "Where did the mother of Lothair II die?"
    on = retriever.search(query, k=5, kinds=["passage"], rerank=False)
    assert on.route == "ppr" and on.ids and all(i.startswith("passage:") for i in on.ids)
    seeded = on.stats["retrieve_seeds"]
    assert seeded["facts"] == PASSAGE_SETTINGS["fact_seeds"] and seeded["fact_seeds"] > seeded["facts"]  # + entities
    off = retriever.search(query, k=5, kinds=["passage"], rerank=False, fact_seeds=0)
    assert off.stats["retrieve_seeds"]["facts"] == 0
    router = retriever.search(query, k=5, kinds=["passage"], rerank=False, use_calibration=False)
    assert router.stats["retrieve_seeds"]["facts"] == 0 and router.route != "ppr"


def test_specificity_and_synonyms_reach_the_walk(passages: Index) -> None:
    snap = passages.snapshot()
    counts = passage_counts(snap)
    gm = snap.graph
    # "Lotharingia" is named by passages 0 and 2 (and is 2's title); Erstein by 1 and 3.
    assert counts[gm.index["entity:lotharingia"]] == 2 and counts[gm.index["entity:erstein"]] == 2
    assert counts[gm.index["passage:0"]] == 0  # not an entity
    assert specificity(counts, 1.0)[gm.index["entity:lotharingia"]] == pytest.approx(0.5)
    with_syn = walk_adjacency(snap, _visible())
    without = walk_adjacency(snap, _visible(), synonyms=False)
    a, b = gm.index["entity:recording industry association of america"], gm.index["entity:riaa"]
    assert with_syn[a, b] > 0 and without[a, b] == 0
    assert (with_syn - without).nnz == 2  # the one SAME_AS edge, both ways
    retriever = Retriever(passages, cache_size=0)
    stats = retriever.search("mother of Lothair II", kinds=["passage"], rerank=False, specificity=1.0).stats
    assert stats["run_ppr"]["specificity"] == 1.0


def _visible() -> Filters:
    return Filters()


def test_fact_nodes_stay_out_of_names_and_keywords(passages: Index) -> None:
    snap = passages.snapshot()
    facts = [n for n in snap.nodes.values() if n.kind is NodeKind.FACT]
    assert facts and all(n.kind is not NodeKind.FACT for n in snap.nodes_named({"lothair ii"}))
    hits = snap.search_keywords("mother Ermengarde", 20)
    assert hits and all(snap.nodes[h.id].kind is NodeKind.PASSAGE for h in hits)
    assert isinstance(facts[0], Node) and np.isfinite(snap.embeddings).all()


def test_a_passage_corpus_answers_with_passages_when_no_kind_is_named(passages: Index, tmp_path: Path) -> None:
    from skill_retriever.stores.passage_views import answer_filters

    snap = passages.snapshot()
    assert answer_filters(snap, Filters()).kinds == ANSWER_KINDS  # no entity, no fact
    hits = Retriever(passages, cache_size=0).search("Who was the mother of Lothair II?", k=10, rerank=False)
    assert hits.results and {r.kind for r in hits.results} == {"passage"}
    assert "entity:lothair ii" in snap  # the entity is there, and still reachable when asked for
    asked = Retriever(passages, cache_size=0).search("Lothair II", k=3, kinds=["entity"], rerank=False)
    assert "entity:lothair ii" in asked.ids
    # Without facts, an "entity" may be a user's own item: nothing is taken out.
    own = build_tiny_index(tmp_path / "own")
    assert answer_filters(own.snapshot(), Filters()).kinds is None
    own.close()


def test_the_query_names_a_passage_without_its_accents(passages: Index) -> None:
    from skill_retriever.stores.passage_views import proper_name_ids

    snap = passages.snapshot()
    assert "passage:5" in proper_name_ids(snap, "Who composed Aschenbrodel?")
    assert proper_name_ids(snap, "the ballet aschenbrodel") == []  # not written as a name
    hits = Retriever(passages, cache_size=0).search("Who composed Aschenbrodel?", k=3, kinds=["passage"], rerank=False)
    assert hits.ids[0] == "passage:5"


def test_facts_are_searched_alone_and_are_never_a_relation_end(passages: Index) -> None:
    from skill_retriever.filters import Filters
    from skill_retriever.stores.passage_views import relation_kinds, search_facts

    snap = passages.snapshot()
    q = snap.embed_query("the mother of Lothair II")
    ours = search_facts(snap, q, 3, Filters())
    general = snap.search_nodes(q, 3, Filters(kinds=frozenset({"fact"})))
    assert [h.id for h in ours] == [h.id for h in general]
    assert [h.score for h in ours] == pytest.approx([h.score for h in general], abs=1e-6)
    # PART_OF joins a fact to its passage only: no typed hop follows it here.
    from skill_retriever.model import EdgeKind

    assert EdgeKind.PART_OF not in relation_kinds(snap)
    out = Retriever(passages, cache_size=0).search("What is part of Lotharingia?", kinds=["passage"], rerank=False)
    assert out.stats["plan_query"]["relations"] == 0 and out.stats["retrieve_seeds"]["relation_seeds"] == 0


def test_a_search_for_any_kind_returns_no_sentence(passages: Index) -> None:
    out = Retriever(passages, cache_size=0).search("the mother of Lothair II", k=10, rerank=False)
    assert out.ids and not any(i.startswith("fact:") for i in out.ids)
    asked = Retriever(passages, cache_size=0).search("the mother of Lothair II", k=10, kinds=["fact"], rerank=False)
    assert asked.ids and all(i.startswith("fact:") for i in asked.ids)


def test_the_fit_null_is_drawn_over_answers_not_entities(passages: Index) -> None:
    snap = passages.snapshot()
    name = snap.nodes["entity:lotharingia"].embedding_text()
    anywhere = snap.search_nodes(snap.embed_query(name), 1, Filters.everything())
    assert anywhere[0].id.startswith("entity:") and anywhere[0].score > 0.99  # the entity itself
    (score,) = best_cosines(snap, snap.embedder.embed([name]), Filters.everything())
    assert score < 0.99  # the best passage, which is what a query's fit is judged by
