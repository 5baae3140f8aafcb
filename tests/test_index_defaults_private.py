"""The settings an index suggests, decided over what the caller may see
(``calibration.defaults.index_defaults`` with the caller's filters).

Before, the decision was made over every item: a label's private items could change a
public caller's fusion, route and semantic feedback (and so show through them). Real
Chroma and real BM25 here; the hashing embedder stands in for the model, as the maths
of these decisions reads no meaning."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.calibration.defaults import decide, index_defaults
from skill_retriever.filters import Filters
from skill_retriever.indexing import write_result
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PUBLIC_SKILLS = [
    Node(id=f"skills/{name}/SKILL.md", kind=NodeKind.SKILL, name=name, description=f"{name} for a slack channel",
         text=f"How to {name} in slack, step by step.")
    for name in ("build a slack gif", "post a slack digest", "triage slack alerts")
]
LONG_BODY = " ".join(f"step {i} of the billing api call reads the invoice ledger" for i in range(60))  # ~600 words


def _private(nodes: list[Node], label: str) -> list[Node]:
    return [dataclasses.replace(n, access=(label,)) for n in nodes]


def _private_tools(label: str) -> tuple[list[Node], list[Edge]]:
    """Eight long tools behind ``label``, each call needing the next (``DEPENDS_ON``)."""
    tools = _private([Node(id=f"api/op{i}", kind=NodeKind.TOOL, name=f"billing op {i}",
                           description="a billing api call", text=LONG_BODY) for i in range(8)], label)
    edges = [Edge(source=f"api/op{i}", target=f"api/op{i + 1}", kind=EdgeKind.DEPENDS_ON) for i in range(7)]
    return tools, edges


def test_private_items_move_neither_a_public_callers_route_nor_its_feedback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    tools, edges = _private_tools("billing")
    index.upsert([*PUBLIC_SKILLS, *tools], edges)
    snap = index.snapshot()
    # Over every item (what `stats`, the operator's view, shows): 7 of 7 edges say one item
    # needs another, and 8 of 11 items run long.
    every = decide(snap)
    assert every.settings["default_route"] == "ppr" and every.settings["feedback_docs"] == 2
    public = index_defaults(snap, Filters())
    assert public.settings["default_route"] == "smart" and "feedback_docs" not in public.settings
    assert "no edges between items with vectors" in public.reasons[1]
    assert "3 of 3 askable nodes" in public.reasons[0]  # its counts are of what it may see
    # A caller who sees every item reads the index's own decision, the one object.
    assert index_defaults(snap, Filters(principals=["billing"])) is index_defaults(snap)
    assert index_defaults(snap, Filters(principals=["*"])) is index_defaults(snap)
    assert index_defaults(snap, Filters()) is public  # once per snapshot and access

    retriever = Retriever(index, reranker=None)
    seen = retriever.search("post a slack digest", k=3)
    assert seen.route == "smart" and seen.ids[0] == "skills/post a slack digest/SKILL.md"
    assert not seen.stats["retrieve_seeds"]["feedback"]
    assert "%" not in seen.stats["plan_query"]["route_reason"]  # no share of edges it cannot see
    team = retriever.search("post a slack digest", k=3, principals=["billing"])
    assert team.route == "ppr"
    index.close()
    # `stats`, the operator's view, gives the decision over every item and says a caller may get another.
    code, out, _ = run(capsys, "stats", "--index-dir", str(tmp_path / "index"))
    said = [line for line in out.splitlines() if line.startswith("defaults")]
    assert code == 0 and len(said) == 1
    assert said[0].startswith("defaults (over every item; a caller whose access hides some gets what its own items")
    assert "the ppr route for every query: 100% of its edges" in said[0]


def test_private_passages_do_not_turn_a_public_catalogue_into_a_mix(tmp_path: Path) -> None:
    """Six private passages (with facts) beside three public skills: over every item, a
    mix of passages and other kinds, which keeps the built-in defaults (RRF, no clause
    coverage); the public caller sees a catalogue and gets the catalogue's."""
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps([
        {"idx": i, "title": f"Lothair {i}", "text": f"Lothair {i} was a king of Lotharingia. He ruled from Metz."}
        for i in range(6)
    ]), encoding="utf-8")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    found = ingest_passages(corpus, facts=True)
    write_result(index, dataclasses.replace(found, nodes=_private(list(found.nodes), "research")))
    index.upsert(PUBLIC_SKILLS, [])
    snap = index.snapshot()
    assert decide(snap).corpus == "other"
    assert index_defaults(snap, Filters(principals=["research"])).corpus == "other"
    public = index_defaults(snap, Filters())
    assert public.corpus == "catalogue" and public.settings["fusion"] == "scores"

    retriever = Retriever(index, reranker=None)
    assert retriever.search("build a slack gif", k=3).stats["fuse_rrf"]["fusion"] == "scores"
    assert retriever.search("build a slack gif", k=3, principals=["research"]).stats["fuse_rrf"]["fusion"] == "rrf"
    index.close()


def test_a_caller_who_sees_nothing_gets_the_built_in_defaults(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    tools, edges = _private_tools("billing")
    index.upsert(tools, edges)
    found = index_defaults(index.snapshot(), Filters())
    assert found.corpus == "empty" and not found.settings
    assert index_defaults(index.snapshot()).settings["default_route"] == "ppr"
    index.close()
