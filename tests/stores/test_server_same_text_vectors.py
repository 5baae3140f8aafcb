"""On a Chroma server too, a renamed folder's items and relations take the vectors the index
holds of their texts (``stores.text_vectors``), and the server gets those vectors under the
new ids: the writer's path is the embedded one's, with a mirror after each commit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from server_index import index_on_server, numbered_skills

from skill_retriever.model import Edge, EdgeKind, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client


def _renamed(nodes: list[Node]) -> list[Node]:
    return [Node(id=f"moved/{n.id}", kind=n.kind, name=n.name, text=n.text) for n in nodes]


def test_a_renamed_copy_on_a_server_embeds_nothing_and_is_mirrored(url: str, tmp_path: Path) -> None:
    skills = numbered_skills(3)
    path = index_on_server(tmp_path / "S", url, skills)
    embedder = HashingEmbedder()
    with Index.open(path, embedder=embedder, writable=True) as writer:
        moved = _renamed(skills)
        report = writer.upsert(moved, [Edge(moved[0].id, moved[1].id, EdgeKind.DEPENDS_ON)])
        assert (embedder.texts_embedded, report.embedded, report.embedded_edges) == (0, 0, 0)
    prefix = mf.read_manifest(path)["collection_prefix"]
    client = chroma_client(url)
    nodes = client.get_collection(f"{prefix}-nodes").get(ids=["s0", "moved/s0"], include=["embeddings"])
    by_id = dict(zip(nodes["ids"], nodes["embeddings"], strict=True))
    np.testing.assert_allclose(by_id["moved/s0"], by_id["s0"])
    edges = client.get_collection(f"{prefix}-edges").get(include=["embeddings"])
    assert sorted(edges["ids"]) == sorted(["moved/s0|DEPENDS_ON|moved/s1", "s0|DEPENDS_ON|s1"])
    np.testing.assert_allclose(edges["embeddings"][0], edges["embeddings"][1])
