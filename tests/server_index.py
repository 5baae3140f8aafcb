"""A small index on a real `chroma run` server (tests/chroma_support.py), built the one way
the store tests need it: a few numbered skills indexed with the HashingEmbedder, then moved
to the server; and what its semantic search finds first."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_index_to_server
from skill_retriever.stores.snapshot import IndexSnapshot

#: The text of numbered item ``i`` unless a test asks for another.
TOPIC = "skill number {i} about topic {i}"


def numbered_skills(
    count: int, *, prefix: str = "s", text: str = TOPIC, kinds: Sequence[NodeKind] = (NodeKind.SKILL,)
) -> list[Node]:
    """``count`` items ``{prefix}0``, ``{prefix}1``, ... named ``{prefix}-{i}``, their text
    ``text.format(i=i)``, their kinds taken from ``kinds`` in turn."""
    return [
        Node(id=f"{prefix}{i}", kind=kinds[i % len(kinds)], name=f"{prefix}-{i}", text=text.format(i=i))
        for i in range(count)
    ]


def index_on_server(path: Path, url: str, nodes: Sequence[Node], *, linked: bool = True) -> Path:
    """An index at ``path`` of ``nodes``, the first two joined by a DEPENDS_ON edge unless
    ``linked`` is False, moved onto the Chroma server at ``url``; ``path``."""
    edges = [Edge(nodes[0].id, nodes[1].id, EdgeKind.DEPENDS_ON)] if linked else []
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, edges)
    move_index_to_server(path, url, embedder=HashingEmbedder())
    return path


def top_id(snap: IndexSnapshot, text: str) -> str:
    """The id the semantic search of the snapshot ``snap`` finds first for ``text``."""
    return snap.search_nodes(snap.embed_query(text), 3)[0].id
