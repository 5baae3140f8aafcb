"""Copying an index's vectors to its Chroma server: each committed batch (:func:`mirror`)
and, when a writer takes the write lock, all it lacks or holds stale (:func:`sync_remote`).
Only what ``items.sqlite`` accounts for is touched: the database is the source of truth.
(Moved from ``stores.remote``, which neared the module size limit.)"""

from __future__ import annotations

import numpy as np

from skill_retriever.filters import vector_metadata
from skill_retriever.stores.items import Changes
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.snapshot import RemoteVectors

__all__ = ["mirror", "sync_remote"]


def mirror(remote: RemoteVectors, ch: Changes, live: LiveState) -> None:
    """Copy one committed batch to the server (``live`` already holds it)."""
    if ch.deleted_nodes:
        remote.nodes.delete(sorted(ch.deleted_nodes))
    if ch.deleted_edges:
        remote.edges.delete(sorted(ch.deleted_edges))
    ids = [i for i in ch.nodes if i in live.node_vectors]
    if ids:
        vecs = np.stack([live.node_vectors[i].vector for i in ids])
        remote.nodes.upsert(ids, vecs, [vector_metadata(ch.nodes[i], live.node_vectors[i].vhash) for i in ids])
    if ch.edge_vectors:
        eids = list(ch.edge_vectors)
        vecs = np.stack([ch.edge_vectors[i].vector for i in eids])
        metas = [{"hash": ch.edge_vectors[i].vhash, "kind": ch.edges[i].kind.value} for i in eids]
        remote.edges.upsert(eids, vecs, metas)


def sync_remote(live: LiveState, remote: RemoteVectors) -> dict[str, int]:
    """Copy to the server every vector it lacks or holds stale, delete what the items no
    longer account for. Returns how many entries the server holds afterwards
    (``nodes``, ``edges``), how many it copied (``copied``) and deleted (``deleted``)."""
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
    copied, deleted = len(stale) + len(stale_e), len(gone) + len(gone_e)
    return {"nodes": remote.nodes.count(), "edges": remote.edges.count(), "copied": copied, "deleted": deleted}
