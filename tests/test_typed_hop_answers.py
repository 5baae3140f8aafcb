"""A typed hop asked as a user writes it, with no kinds filter: its answers lie next to
where the hop leads (not back through the item it starts from), are of the kind its words
name, and are not flagged as "nothing fits". Real embedder, a small operations graph."""

from __future__ import annotations

import json

import pytest

from skill_retriever.algorithms.relations import asked_kind
from skill_retriever.calibration import calibrate_index
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

SERVICES = {  # name -> (what it does, what it depends on)
    "checkout-api": ("HTTP API that takes the customer's basket and asks payments to charge it.", ["payments", "auth"]),
    "payments": ("Charges cards through the acquirer and writes journal entries.", ["ledger-db"]),
    "ledger-db": ("PostgreSQL cluster holding the double-entry ledger.", ["storage-array", "vault"]),
    "storage-array": ("Block storage array that backs the database volumes.", []),
    "vault": ("Secret store that issues database credentials.", []),
    "auth": ("Issues and checks session tokens for customers.", []),
    "kafka": ("Message broker cluster for order events.", []),
    "notifier": ("Sends order confirmation emails and text messages.", ["kafka"]),
}
DEPLOYS = {"storage-array": "Firmware update of the array controllers.", "vault": "Upgrade with new lease lengths.",
           "checkout-api": "New basket serializer.", "payments": "Retry policy change for acquirer calls.",
           "kafka": "Broker version bump.", "ledger-db": "Schema migration adding an index on journal entries."}
INCIDENTS = {"INC-1": ("payments", "Card authorisations timed out at the acquirer."),
             "INC-2": ("payments", "Double charges after a retry storm."),
             "INC-3": ("checkout-api", "Checkout answered HTTP 500 after the serializer change."),
             "INC-4": ("ledger-db", "Replication lag on the ledger replicas reached ten minutes."),
             "INC-5": ("kafka", "Broker disk filled up and producers were blocked."),
             "INC-6": ("auth", "Session tokens expired early for a third of the customers.")}


@pytest.fixture(scope="module")
def ops_index(tmp_path_factory: pytest.TempPathFactory, real_embedder):  # type: ignore[no-untyped-def]
    nodes = [{"id": f"svc:{n}", "kind": "service", "name": n, "text": t} for n, (t, _) in SERVICES.items()]
    nodes += [{"id": f"deploy:{s}", "kind": "deploy", "name": f"deploy-{s}", "text": t, "created": "2026-11-20"}
              for s, t in DEPLOYS.items()]
    nodes += [{"id": f"inc:{i}", "kind": "incident", "name": i, "text": t, "created": "2026-11-25"}
              for i, (_, t) in INCIDENTS.items()]
    edges = [{"source": f"svc:{n}", "target": f"svc:{d}", "kind": "DEPENDS_ON"} for n, (_, ds) in SERVICES.items()
             for d in ds]
    edges += [{"source": f"deploy:{s}", "target": f"svc:{s}", "kind": "TOUCHES"} for s in DEPLOYS]
    edges += [{"source": f"inc:{i}", "target": f"svc:{s}", "kind": "AFFECTS"} for i, (s, _) in INCIDENTS.items()]
    folder = tmp_path_factory.mktemp("ops")
    graph = folder / "ops.json"
    graph.write_text(json.dumps({"nodes": nodes, "edges": edges}))
    result = ingest_json_graph(graph)
    assert not result.problems
    index = Index.open(folder / "index", embedder=real_embedder, create=True)
    index.upsert(result.nodes, result.edges)
    calibrate_index(index)  # as `skill-retriever index` does: the "nothing fits" line
    yield index
    index.close()


def _search(index: Index, text: str, k: int = 4):  # type: ignore[no-untyped-def]
    return Retriever(index, cache_size=0).search(text, k=k, rerank=False, principals=["*"])


def test_the_words_name_the_kind_a_hop_asks_for() -> None:
    assert asked_kind("the deploy of a service that depends on") == "deploy"
    assert asked_kind("incidents on the dependencies of") == "incident"
    assert asked_kind("outages of what depends on") == "incident"
    assert asked_kind("MCP servers that depend on") == "mcp_server"
    assert asked_kind("what depends on") is None
    assert asked_kind("redeploys") is None  # whole words only


def test_a_hop_without_a_kinds_filter_answers_with_the_kind_it_names(ops_index: Index) -> None:
    response = _search(ops_index, "the deploy of a service that ledger-db depends on")
    assert set(response.ids[:2]) == {"deploy:storage-array", "deploy:vault"}
    assert response.stats["plan_query"]["answer_kind"] == "deploy"
    # Without a kind word, the relation's far end is the answer.
    assert _search(ops_index, "what depends on payments").ids[0] == "svc:checkout-api"


def test_a_hop_does_not_come_back_through_the_item_it_starts_from(ops_index: Index) -> None:
    # checkout-api depends on payments and auth; INC-3 is checkout-api's own incident,
    # which a walk from both of them reaches through checkout-api.
    ids = _search(ops_index, "incidents on the dependencies of checkout-api").ids
    assert set(ids[:3]) == {"inc:INC-1", "inc:INC-2", "inc:INC-6"}
    assert "svc:checkout-api" not in ids[:3]


def test_a_hop_that_leads_somewhere_is_not_flagged_as_nothing_fits(ops_index: Index) -> None:
    for text in ("dependants of ledger-db", "checkout-api's dependencies", "what depends on payments"):
        response = _search(ops_index, text)
        assert response.fit is not None and not response.fit["nothing_fits"], text
    # The flag still fires where nothing fits, on the same index.
    off = _search(ops_index, "bake sourdough bread with a rye starter")
    assert off.fit is not None and off.fit["nothing_fits"]
