"""An operations graph (services, deploys, incidents) fuses by scores: a typed hop's walk
comes first and a time window counts as the set of items inside it. Real embedder, a
small incident world (``bench.world``); the benchmark's figures are in ``phases.fuse_rrf``."""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.temporal import parse_time_window
from skill_retriever.bench.common import FIXED_NOW
from skill_retriever.bench.world import generate_world
from skill_retriever.bench.world_queries import generate_queries
from skill_retriever.calibration.defaults import index_defaults
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture(scope="module")
def world_index(tmp_path_factory: pytest.TempPathFactory, real_embedder):  # type: ignore[no-untyped-def]
    world = generate_world(seed=7, services=30, deploys=90, incidents=50, now=FIXED_NOW)
    index = Index.open(tmp_path_factory.mktemp("ops") / "index", embedder=real_embedder, create=True)
    result = world.ingest()
    index.upsert(result.nodes, result.edges)
    yield world, index
    index.close()


def _search(index: Index, text: str, kinds: list[str], **overrides: object) -> list[str]:
    retriever = Retriever(index, RetrievalConfig(now=FIXED_NOW), cache_size=0)
    return retriever.search(text, k=10, kinds=kinds, rerank=False, **overrides).ids


def test_the_index_is_an_operations_graph_and_fuses_by_scores(world_index) -> None:  # type: ignore[no-untyped-def]
    _, index = world_index
    found = index_defaults(index.snapshot())
    assert found.corpus == "operations" and found.settings["fusion"] == "scores"


def test_a_typed_hops_far_ends_come_before_any_text_match(world_index) -> None:  # type: ignore[no-untyped-def]
    world, index = world_index
    queries = [q for q in generate_queries(world, per_shape=10) if q.group == "connected"]
    for q in queries:
        ids = _search(index, q.text, list(q.kinds))
        first = [i for i in ids if i in q.relevant]
        # Every answer the top ten holds sits before every item that is not one.
        assert ids[: len(first)] == first, q.text
        assert first, q.text


def test_a_time_window_counts_as_the_items_inside_it(world_index) -> None:  # type: ignore[no-untyped-def]
    world, index = world_index
    retriever = Retriever(index, RetrievalConfig(now=FIXED_NOW), cache_size=0)
    # A symptom in other words, or the dependencies of a service, within a time window.
    mixed = [q for q in generate_queries(world, per_shape=10)
             if q.group == "mixed" and parse_time_window(q.text, FIXED_NOW) is not None]
    hops = [q for q in mixed if "depends on" in q.text]
    assert len(mixed) >= 5 and hops
    for q in mixed:
        results = retriever.search(q.text, k=10, kinds=list(q.kinds), rerank=False).results
        # Inside the window first; with a hop too, the answers (next to the hop's far ends,
        # inside the window) before everything else.
        inside = ["temporal" in r.channels for r in results]
        if q in hops:
            answers = [r.id in q.relevant for r in results]
            assert answers[0] and answers == sorted(answers, reverse=True), q.text
        else:
            assert inside == sorted(inside, reverse=True), q.text


def test_a_batch_answers_a_typed_hop_as_one_search_does(world_index) -> None:  # type: ignore[no-untyped-def]
    """A batch embedded each query whole; one search embeds a typed hop's question without
    the name it starts from (`querytext.without_names`), so the two answered differently."""
    world, index = world_index
    queries = [q for q in generate_queries(world, per_shape=10) if q.group == "connected"]
    retriever = Retriever(index, RetrievalConfig(now=FIXED_NOW), cache_size=0)
    batch = retriever.search_many([q.text for q in queries], k=10, kinds=["deploy", "incident"], rerank=False)
    for q, answer in zip(queries, batch, strict=True):
        alone = retriever.search(q.text, k=10, kinds=["deploy", "incident"], rerank=False)
        assert answer.ids == alone.ids, q.text
        assert [r.channels for r in answer.results] == [r.channels for r in alone.results], q.text
