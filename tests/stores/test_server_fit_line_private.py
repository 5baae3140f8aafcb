"""The "nothing fits" line of a caller who may not see every item, on an index whose
vectors live on a real `chroma run` server: drawn through the server's search with the
caller's access (`calibration.access_fit`), it is the line an index of the public items
alone draws (tests/test_fit_line_private.py holds the same for a local index)."""

from __future__ import annotations

from pathlib import Path

from server_index import index_on_server

from skill_retriever import Retriever
from skill_retriever.calibration import calibrate_index
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PUBLIC = [Node(id=f"pub{i}", kind=NodeKind.SKILL, name=f"pub-{i}", text=f"deploy service {i} with docker and helm")
          for i in range(8)]
PRIVATE = [Node(id=f"priv{i}", kind=NodeKind.SKILL, name=f"priv-{i}", access=("bob",),
                text=f"bake bread loaf {i} and book a cheap flight for the holiday") for i in range(8)]
QUERIES = ("deploy my service with helm", "bake a loaf of bread", "book a flight")


def _fits(index: Index, principals: list[str] | None = None) -> list[dict[str, object]]:
    out = []
    for query in QUERIES:
        found = Retriever(index, principals=principals).search(query, k=3, rerank=False)
        assert found.fit is not None and not [w for w in found.warnings if "in memory" in w], found.warnings
        out.append(dict(found.fit))
    return out


def test_a_public_caller_on_a_server_is_judged_as_by_the_public_items_alone(tmp_path: Path, url: str) -> None:
    path = index_on_server(tmp_path / "both", url, PUBLIC + PRIVATE, linked=False)
    with Index.open(path, embedder=HashingEmbedder()) as both:
        calibrate_index(both)
        on_server = _fits(both)
        seen_all = _fits(both, ["bob"])
    with Index.open(tmp_path / "alone", embedder=HashingEmbedder(), create=True) as alone:
        alone.add(PUBLIC)
        calibrate_index(alone)
        assert on_server == _fits(alone)
    assert seen_all != on_server  # the private items move the line of who sees them
