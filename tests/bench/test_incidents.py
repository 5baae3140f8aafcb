"""The incident world generator: deterministic for a seed, every answer exists and fits."""

from __future__ import annotations

from datetime import timedelta

from skill_retriever.algorithms.temporal import parse_time_window
from skill_retriever.bench.world import generate_world
from skill_retriever.bench.world_queries import SHAPES, generate_queries


def test_same_seed_same_world_and_queries() -> None:
    a, b = generate_world(seed=3), generate_world(seed=3)
    assert a.nodes == b.nodes and a.edges == b.edges
    assert generate_queries(a, 8) == generate_queries(b, 8)
    c = generate_world(seed=4)
    assert [n.id for n in c.nodes] != [n.id for n in a.nodes]


def test_world_shape() -> None:
    w = generate_world(seed=7, services=30, deploys=90, incidents=50)
    kinds = {}
    for n in w.nodes:
        kinds[n.kind.value] = kinds.get(n.kind.value, 0) + 1
    assert kinds == {"service": 30, "deploy": 90, "incident": 50}
    assert "service:checkout-api" in {n.id for n in w.nodes}
    assert w.depends_on["checkout-api"], "checkout-api must depend on something"
    ids = {n.id for n in w.nodes}
    assert all(e.source in ids and e.target in ids for e in w.edges)
    assert sum(1 for m in w.incidents.values() if w.now - m["created"] < timedelta(hours=24)) == 3
    assert any(n.name.startswith("deploy-v") for n in w.nodes) and any(n.name.startswith("INC-") for n in w.nodes)


def test_every_query_has_existing_answers_of_its_kind() -> None:
    w = generate_world(seed=7, services=30, deploys=90, incidents=50)
    nodes = {n.id: n for n in w.nodes}
    queries = generate_queries(w, per_shape=10)
    assert {q.group for q in queries} == set(SHAPES)
    assert len({q.text for q in queries}) == len(queries)
    for q in queries:
        assert q.relevant, q.text
        for answer in q.relevant:
            assert answer in nodes, (q.text, answer)
            assert q.kinds == (nodes[answer].kind.value,)


def test_answers_follow_the_query_conditions() -> None:
    w = generate_world(seed=7, services=30, deploys=90, incidents=50)
    for q in generate_queries(w, per_shape=10):
        if q.group == "recent":
            window = parse_time_window(q.text, w.now)
            assert window is not None, q.text
            inside = {i for i, m in w.incidents.items() if window.contains(m["created"])}
            assert set(q.relevant) == inside, q.text
        if q.group == "connected":
            svc = next(s for s in w.services if f" {s} " in f" {q.text.rstrip('?')} ")
            expected = {d for dep in w.depends_on[svc] for d in w.deploys_of[dep]}
            assert set(q.relevant) == expected
        if q.group == "exact":
            (answer,) = q.relevant
            assert answer.split(":", 1)[1] in q.text
