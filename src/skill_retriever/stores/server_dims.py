"""Collections under an index's names that hold vectors of another length than the index's:
another embedding model's vectors, which no ``repair`` can make this index's.

Chroma fixes a collection's vector length at its first write. A collection of that name
made elsewhere (by hand, by another program, from another deployment's data) with another
model's vectors failed every query with chromadb's "Collection expecting embedding with
dimension of 768, got 384", naming no server, and ``repair``, which ``stats`` advised,
ended in that traceback too: the collection can never take this index's vectors. A reader
searches the index's own vectors in memory instead, saying so; a writer refuses the
collection before it writes anything. Both say to give the index collections of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.stores.live import LiveState

__all__ = ["index_dim", "other_model"]


def index_dim(manifest: Mapping[str, Any], live: LiveState | None = None) -> int | None:
    """The length of the index's vectors: ``dim`` in ``index.json``, else a stored vector's."""
    named = manifest.get("dim")
    if isinstance(named, int) and named > 0:
        return named
    if live is None:
        return None
    for stored in (*list(live.node_vectors.values())[:1], *list(live.edge_vectors.values())[:1]):
        return int(stored.vector.shape[-1])
    return None


def other_model(stores: Sequence[Any], dim: int | None, path: Path, url: str) -> str:
    """Why ``stores`` cannot hold the vectors of the index at ``path`` (of ``dim`` numbers)
    and what to do; "" when each is empty or holds vectors of that length."""
    if dim is None:
        return ""
    for store in stores:
        found = store.dimension
        if found is not None and found != dim:
            return (
                f"the collection {store.name} on {url} holds vectors of {found} numbers, where {path}'s have {dim}: "
                "another embedding model's collection under this index's name, which no repair can make its own; "
                f"give the index collections of its own with "
                f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
            )
    return ""
