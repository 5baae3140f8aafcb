"""A query that asks only for a time window ("incidents since March 2026", "what happened
since March?") is answered by the items dated inside it, not by what its text resembles:
it is not flagged "nothing fits" when the answer lists such items. Found in a walkthrough:
on the README's JSON graph, whose incident texts never say "incident", the query listed
both incidents of the window and was flagged. Real embedder, calibrated as `index` does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from calibrated_graph import calibrated_graph_index

from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index
from skill_retriever.time_only import window_answers, window_only_query

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
NODES = [
    {"id": "svc:checkout", "kind": "service", "name": "checkout", "text": "Takes payment and creates the order."},
    {"id": "svc:login", "kind": "service", "name": "login", "text": "Checks passwords and issues sessions."},
    {"id": "inc:4812", "kind": "incident", "name": "checkout 500s", "created": "2026-03-20T12:00:00Z",
     "text": "Checkout returned HTTP 500 after the v2.3 deploy."},
    {"id": "inc:4813", "kind": "incident", "name": "login slow", "created": "2026-04-02T09:00:00Z",
     "text": "Login took ten seconds during the database failover."},
    {"id": "inc:4700", "kind": "incident", "name": "search down", "created": "2026-01-10T09:00:00Z",
     "text": "Search returned empty pages after the cache flush."},
    {"id": "dep:v2.3", "kind": "deploy", "name": "v2.3", "created": "2026-01-05T09:00:00Z",
     "text": "Rolled out the new basket serializer."},
]  # fmt: skip


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, real_embedder):  # type: ignore[no-untyped-def]
    idx = calibrated_graph_index(tmp_path_factory.mktemp("ops"), NODES, real_embedder)
    yield idx
    idx.close()


def _search(index: Index, text: str, kinds: list[str] | None = None):  # type: ignore[no-untyped-def]
    return Retriever(index, cache_size=0).search(text, k=5, kinds=kinds, rerank=False, now=NOW)


@pytest.mark.parametrize("text", ["incidents since March 2026", "what happened since March 2026?",
                                  "list all outages since 2026-03-01", "show me the incidents in March 2026"])
def test_a_window_that_holds_items_answers_a_time_only_query(index: Index, text: str) -> None:
    response = _search(index, text, kinds=["incident"])
    assert response.fit is not None and not response.nothing_fits, (text, response.fit)
    assert "inc:4812" in response.ids, text
    assert not any("fits this well" in w for w in response.warnings)


def test_the_flag_still_reads_the_text_where_the_query_asks_for_more(index: Index) -> None:
    # content words beside the window: the similarity line judges them
    assert _search(index, "bake sourdough bread with a rye starter since March 2026", ["incident"]).nothing_fits
    # a window that holds nothing the query may get
    assert _search(index, "incidents since November 2026", ["incident"]).nothing_fits


@pytest.mark.parametrize(("text", "expected"), [
    ("incidents", (True, frozenset({"incident"}))),
    ("what happened?", (True, frozenset())),
    ("list the MCP servers", (True, frozenset({"mcp_server"}))),
    ("checkout incidents", (False, frozenset({"incident"}))),
    ("", (True, frozenset())),
])  # fmt: skip
def test_what_a_time_only_query_may_say_besides_its_window(text: str, expected: tuple[bool, frozenset[str]]) -> None:
    assert window_only_query(text) == expected


def test_the_window_must_hold_an_item_of_the_kind_asked_for(index: Index) -> None:
    nodes = index.snapshot().nodes
    top = [{"id": "inc:4812", "score": 0.5, "ranks": {"temporal": 1, "semantic": 2}},
           {"id": "svc:login", "score": 0.4, "ranks": {"semantic": 1}}]  # fmt: skip
    assert window_answers("incidents", top, nodes)
    assert window_answers("what happened?", top, nodes)
    assert not window_answers("services", top, nodes)  # the window's item is an incident
    assert not window_answers("checkout incidents", top, nodes)  # a word to judge by similarity
    assert not window_answers("incidents", top[1:], nodes)  # nothing of the window in the answer
