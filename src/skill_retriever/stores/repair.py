"""Bringing an index's vectors in step with its items; run by the writer only.

- An item without a vector (an index migrated from layout 1, or one whose embedding was
  interrupted) gets one: copied from the old embedded Chroma folder when it holds the
  vector of the same text, else embedded.
- A Chroma server gets every vector it lacks (copied, never re-embedded) and loses the
  ones whose items are gone. Only entries that ``items.sqlite`` accounts for are touched:
  the database is the source of truth, and a reader never changes anything.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from skill_retriever.filters import vector_metadata
from skill_retriever.stores.items import ItemStore, StoredVector
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.snapshot import RemoteVectors
from skill_retriever.stores.writer import text_hash

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

log = logging.getLogger("skill_retriever")

__all__ = ["reconcile", "sync_remote"]


def reconcile(index: Index, live: LiveState, items: ItemStore) -> None:
    """Fill in missing or stale vectors, then bring a Chroma server in step."""
    nodes = [n for i, n in live.nodes.items() if (v := live.node_vectors.get(i)) is None or v.vhash != n.content_hash()]
    edges = []
    for e in live.edges.values():
        if e.kind not in index.embedded_edge_kinds or e.source not in live.nodes or e.target not in live.nodes:
            continue
        sentence = e.embedding_text(live.nodes[e.source].name, live.nodes[e.target].name)
        v = live.edge_vectors.get(e.id)
        if v is None or v.vhash != text_hash(sentence):
            edges.append((e, text_hash(sentence), sentence))
    if nodes or edges:
        old_nodes, old_edges = _layout1_vectors(index.path, index._manifest)  # noqa: SLF001 - same package
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
                "[skill_retriever][index] embedding %d items and %d relations that have no vector",
                len(todo_nodes),
                len(todo_edges),
            )
        if todo_nodes:
            vecs = index.embedder.embed([n.embedding_text() for n in todo_nodes])
            node_vecs.update({n.id: StoredVector(n.content_hash(), vecs[i]) for i, n in enumerate(todo_nodes)})
        if todo_edges:
            vecs = index.embedder.embed([s for _, _, s in todo_edges])
            edge_vecs.update({e.id: StoredVector(h, vecs[i]) for i, (e, h, _) in enumerate(todo_edges)})
        items.set_vectors(
            [(i, v.vector) for i, v in node_vecs.items()], [(i, v.vhash, v.vector) for i, v in edge_vecs.items()]
        )
        index._publish_vectors(node_vecs, edge_vecs)  # noqa: SLF001 - same package
    remote = index._remote  # noqa: SLF001
    if remote is not None:
        sync_remote(live, remote)


def sync_remote(live: LiveState, remote: RemoteVectors) -> dict[str, int]:
    """Copy to the server every vector it lacks or holds stale, delete what the items no
    longer account for. Returns how many entries the server holds afterwards."""
    stored = remote.nodes.all_ids_and_hashes()
    gone = [i for i in stored if i not in live.nodes]
    if gone:
        remote.nodes.delete(gone)
    want = {i: vector_metadata(live.nodes[i], v.vhash) for i, v in live.node_vectors.items() if i in live.nodes}
    stale = [i for i, meta in want.items() if stored.get(i) != meta["hash"]]
    if stale:
        remote.nodes.upsert(stale, np.stack([live.node_vectors[i].vector for i in stale]), [want[i] for i in stale])
    stored_e = remote.edges.all_ids_and_hashes()
    gone_e = [i for i in stored_e if i not in live.edge_vectors or i not in live.edges]
    if gone_e:
        remote.edges.delete(gone_e)
    stale_e = [i for i, v in live.edge_vectors.items() if i in live.edges and stored_e.get(i) != v.vhash]
    if stale_e:
        remote.edges.upsert(
            stale_e,
            np.stack([live.edge_vectors[i].vector for i in stale_e]),
            [{"hash": live.edge_vectors[i].vhash, "kind": live.edges[i].kind.value} for i in stale_e],
        )
    return {"nodes": remote.nodes.count(), "edges": remote.edges.count()}


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
                for i, e, m in zip(page["ids"], page["embeddings"], page["metadatas"], strict=True):
                    found[i] = (str((m or {}).get("hash", "")).split("|", 1)[0], np.asarray(e, dtype=np.float32))
            out.append(found)
        return out[0], out[1]
    except Exception as exc:  # a damaged Chroma folder fails in many types; embedding again is the fix
        log.warning(
            "[skill_retriever][index] the old vector folder %s cannot be read (%s: %s); embedding again",
            folder,
            type(exc).__name__,
            exc,
        )
        return {}, {}
