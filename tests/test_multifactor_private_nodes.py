"""The smart route's ranking read each candidate's edge density over every neighbour in the
index, private ones too: a visible item linked to an item the caller may not see had more
neighbours outside the candidates, so it ranked lower, and the graph channel's order (in
``stream(...)``'s updates, a parent graph's events, a trace) told a public caller that
hidden items hang off it (found walking the retrieval graph as a subgraph: a public
caller's stream over the tiny index ranked INC-1043 above deploy without the private
runbook, below it with). A caller's ranking is now the one an index of only what it may
see gives, as the graph walk's is (tests/test_ppr_private_nodes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_graph import NOW, PRIVATE_ID, tiny_edges, tiny_nodes

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.graph import build_graph
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERIES = (
    "checkout-runbook failover postgres replica promotion on-call contacts",
    "postgres lock contention after a checkout-api deploy",
)


def _index(path: Path, private: bool) -> Index:
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    nodes = [n for n in tiny_nodes() if private or n.id != PRIVATE_ID]
    index.add(nodes, [e for e in tiny_edges() if private or PRIVATE_ID not in (e.source, e.target)])
    return index


def _graph_channel(index: Index, query: str, principals: list[str] | None) -> list[str]:
    """The smart route's ranking as the stream shows it (ids, best first)."""
    context = RetrievalContext(index=index, config=RetrievalConfig(now=NOW))
    filters = {"principals": principals} if principals is not None else {}
    for update in build_graph().stream({"query": query, "k": 8, "route": "smart", "filters": filters},
                                       context=context, stream_mode="updates"):
        if "rank_multifactor" in update:
            return [hit["id"] for hit in update["rank_multifactor"]["channel_rankings"]["graph"]]
    raise AssertionError("rank_multifactor did not run")


@pytest.mark.parametrize("principals", [None, ["team-b"]])
def test_a_callers_ranking_is_that_of_an_index_of_what_it_may_see(tmp_path: Path, principals: list[str] | None) -> None:
    mixed, public = _index(tmp_path / "mixed", True), _index(tmp_path / "public", False)
    try:
        for query in QUERIES:
            assert _graph_channel(mixed, query, principals) == _graph_channel(public, query, principals), query
    finally:
        mixed.close()
        public.close()


def test_a_caller_who_may_see_the_private_item_ranks_with_its_edges(tmp_path: Path) -> None:
    mixed = _index(tmp_path / "mixed", True)
    try:
        assert PRIVATE_ID in _graph_channel(mixed, QUERIES[0], ["team-a"])
    finally:
        mixed.close()
