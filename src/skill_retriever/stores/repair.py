"""Vectors an index's items lack (an index migrated from layout 1, an embedding that was
interrupted, or a stored vector that is unusable: wrong length, non-finite values,
undecodable): copied from the old embedded Chroma folder when it holds the vector of the
same text, else taken from another item holding a vector of that text (`text_vectors`),
else embedded from the stored text. Run by the writer only; a reader never
changes anything.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np

from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import EdgeKind
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import StoredVector
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.text_vectors import TextVectors
from skill_retriever.stores.writer import text_hash

log = logging.getLogger("skill_retriever")

__all__ = ["missing_vectors"]


def missing_vectors(
    live: LiveState,
    embedded_kinds: Collection[EdgeKind],
    embedder: Embedder,
    path: Path,
    manifest: dict[str, Any],
    dim: int = 0,
) -> tuple[dict[str, StoredVector], dict[str, StoredVector]]:
    """Vectors for every node and embedded-kind edge that has none, a stale one or an
    unusable one (an edge whose stored vector is unusable is embedded again whatever its
    kind): copied from a layout-1 ``chroma/`` folder when it holds the vector of the same
    text, else embedded.

    Raises:
        IndexCorruptError: The embedder makes vectors of another length than ``dim``.
    """
    nodes = [n for i, n in live.nodes.items() if (v := live.node_vectors.get(i)) is None or v.vhash != n.content_hash()]
    edges = []
    for e in live.edges.values():
        wanted = e.kind in embedded_kinds or e.id in live.unusable_edges
        if not wanted or e.source not in live.nodes or e.target not in live.nodes:
            continue
        sentence = e.embedding_text(live.nodes[e.source].name, live.nodes[e.target].name)
        v = live.edge_vectors.get(e.id)
        if v is None or v.vhash != text_hash(sentence):
            edges.append((e, text_hash(sentence), sentence))
    if not nodes and not edges:
        return {}, {}
    old_nodes, old_edges = _layout1_vectors(path, manifest)
    node_vecs: dict[str, StoredVector] = {}
    for n in nodes:
        kept = old_nodes.get(n.id)
        if kept is not None and kept[0] == n.content_hash():
            node_vecs[n.id] = StoredVector(n.content_hash(), kept[1])
    edge_vecs: dict[str, StoredVector] = {}
    for e, vhash, _ in edges:
        kept = old_edges.get(e.id)
        if kept is not None and kept[0] == f"{e.kind.value}:{e.weight}:{e.description}":
            edge_vecs[e.id] = StoredVector(vhash, kept[1])
    todo_nodes = [n for n in nodes if n.id not in node_vecs]
    todo_edges = [(e, h, s) for e, h, s in edges if e.id not in edge_vecs]
    if todo_nodes or todo_edges:
        log.info(
            "[skill_retriever][index] embedding %d items and %d relations that have no vector "
            "(a text another item holds a vector of takes that one)",
            len(todo_nodes),
            len(todo_edges),
        )
    unusable = sum(n.id in live.unusable_nodes for n in nodes), sum(e.id in live.unusable_edges for e, _, _ in edges)
    # A text another item (or relation) holds a usable vector of takes it, and one text met
    # twice is embedded once, as in a write (`text_vectors`): a damaged copy of a skill
    # copied into two plugins was embedded again beside its twin's good vector.
    texts = TextVectors(live, embedder)
    by_hash, _ = texts.vectors({n.content_hash(): n.embedding_text() for n in todo_nodes})
    by_hash.update(texts.vectors({h: s for _, h, s in todo_edges})[0])
    _checked(by_hash.values(), embedder, dim, path)
    node_vecs.update({n.id: StoredVector(n.content_hash(), by_hash[n.content_hash()]) for n in todo_nodes})
    edge_vecs.update({e.id: StoredVector(h, by_hash[h]) for e, h, _ in todo_edges})
    if any(unusable):
        log.warning(
            "[skill_retriever][index] repaired %d item vector(s) and %d relation vector(s) of %s that were "
            "unusable (missing, all zeros, wrong length, non-finite or undecodable): embedded again from their stored text "
            "(or taken from an item of the same text)",
            *unusable,
            path,
        )
    return node_vecs, edge_vecs


def _checked(vectors: Collection[Any], embedder: Embedder, dim: int, path: Path) -> None:
    """Raise unless each of ``vectors`` has the index's length (``dim``; 0: any). One at a
    time: those taken from the index have it, those just embedded may not."""
    found = next((n for v in vectors if (n := int(np.asarray(v).shape[-1])) != dim), dim)
    if dim and found != dim:
        raise IndexCorruptError(
            f"the embedder {embedder.name} makes vectors of {found} numbers, the index at {path} holds "
            f"vectors of {dim}; open it with the model that built it, or rebuild it into a new directory"
        )


def _layout1_vectors(
    path: Path, manifest: dict[str, Any]
) -> tuple[dict[str, tuple[str, Any]], dict[str, tuple[str, Any]]]:
    """Vectors kept by layout 1 in the embedded ``chroma/`` folder: id -> (hash, vector).

    Empty when there is no such folder; a folder Chroma cannot read is logged and the
    items are embedded again (the folder itself is left as it is)."""
    folder = path / "chroma"
    if not folder.is_dir() or manifest.get("chroma_url"):
        return {}, {}
    prefix = str(manifest.get("collection_prefix", "sr"))
    try:
        import chromadb
        from chromadb.config import Settings

        client = chromadb.PersistentClient(path=str(folder), settings=Settings(anonymized_telemetry=False))
        out = []
        for suffix in ("nodes", "edges"):
            col = client.get_collection(f"{prefix}-{suffix}")
            found: dict[str, tuple[str, Any]] = {}
            total, step = int(col.count()), 2000
            for off in range(0, total, step):
                page = col.get(include=["embeddings", "metadatas"], limit=step, offset=off)
                vectors: list[Any] = list(page["embeddings"] if page["embeddings"] is not None else [])
                metadatas: list[Any] = list(page["metadatas"] or [])
                for i, e, m in zip(page["ids"], vectors, metadatas, strict=True):
                    found[i] = (str((m or {}).get("hash", "")).split("|", 1)[0], np.asarray(e, dtype=np.float32))
            out.append(found)
        return out[0], out[1]
    except Exception as exc:  # noqa: BLE001 -- a damaged Chroma folder fails in many types; embedding again is the fix
        log.warning(
            "[skill_retriever][index] the old vector folder %s cannot be read (%s: %s); embedding again",
            folder,
            type(exc).__name__,
            exc,
        )
        return {}, {}
