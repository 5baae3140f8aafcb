"""The graph walk's stop counted every node of the index, private ones too: networkx's rule
ends the walk once the L1 change falls below ``N * tol``, and with N over all nodes a
caller who may see few of them got a walk that stopped sooner, so its ``run_ppr``
``iterations`` stat (and the walk's scores) told how many items it may not see (found in
a privacy walkthrough of the Python and LangChain faces: 69 iterations for a public
caller on an index with private items, 74 on the same index without them). N now counts
what the caller may see: a public caller's walk is the one an index of only the public
items gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERIES = ("deploy the web app", "rotate kubernetes credentials", "on call escalation")


def _nodes(private: bool) -> tuple[list[Node], list[Edge]]:
    words = ["deploy web app", "kubernetes rollout", "on call escalation", "release notes", "weather forecast"]
    nodes = [Node(id=f"pub-{i}", kind=NodeKind.SKILL, name=f"pub-{i}", description=f"Skill for {w}.", text=w)
             for i, w in enumerate(words)]
    edges = [Edge(f"pub-{i}", f"pub-{(i + 1) % len(words)}", EdgeKind.RELATED_TO) for i in range(len(words))]
    if private:
        for i in range(12):
            nodes.append(Node(id=f"priv-{i}", kind=NodeKind.SKILL, name=f"priv-{i}", access=("alice",),
                              description=f"Private {words[i % len(words)]} credentials.", text="secret"))
            edges.append(Edge(f"priv-{i}", f"pub-{i % len(words)}", EdgeKind.RELATED_TO))
    return nodes, edges


def _retriever(path: Path, private: bool) -> Retriever:
    index = Index.open(path, embedder=HashingEmbedder(32), create=True)
    index.upsert(*_nodes(private))
    return Retriever(index)


@pytest.mark.parametrize("principals", [None, ["bob"]])
def test_a_walk_runs_as_long_as_over_an_index_of_only_what_the_caller_sees(
    tmp_path: Path, principals: list[str] | None
) -> None:
    mixed, public = _retriever(tmp_path / "mixed", True), _retriever(tmp_path / "public", False)
    for query in QUERIES:
        got = mixed.search(query, route="ppr", principals=principals, rerank=False)
        alone = public.search(query, route="ppr", principals=principals, rerank=False)
        assert got.stats["run_ppr"]["iterations"] == alone.stats["run_ppr"]["iterations"], query
        assert not [r for r in got.ids if r.startswith("priv-")]


def test_a_caller_seeing_everything_walks_every_node(tmp_path: Path) -> None:
    mixed = _retriever(tmp_path / "mixed", True)
    found = mixed.search("rotate kubernetes credentials", route="ppr", principals=["*"], k=20, rerank=False)
    assert [r for r in found.ids if r.startswith("priv-")]
    assert found.stats["run_ppr"]["iterations"] > 0
