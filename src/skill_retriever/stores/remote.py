"""A Chroma server that mirrors an index's vectors: opening it, keeping it in step.

The writer mirrors each committed batch (:func:`mirror`) and, when it takes the write
lock, brings the server in step (:func:`sync_remote`): every vector the server lacks or
holds stale is copied (never re-embedded), every entry whose item is gone is deleted.
Only what ``items.sqlite`` accounts for is touched: the database is the source of truth.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from skill_retriever.exceptions import ConfigError, IndexCorruptError
from skill_retriever.filters import vector_metadata
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import Changes
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.snapshot import RemoteVectors

__all__ = ["mirror", "remote_of", "sync_remote"]

log = logging.getLogger("skill_retriever")


def remote_of(
    manifest: Mapping[str, Any], embedder: Embedder, *, path: Path, live: LiveState, writer: bool
) -> RemoteVectors | None:
    """The server a manifest names (``chroma_url``), or None.

    A writer creates the collections (marked with the manifest's ``index_id``) and
    refuses collections that another index owns, or unmarked ones holding ids this index
    never had (another index may share them: syncing would delete its vectors). A reader
    creates nothing: when the collections are missing, belong to another index, or hold
    far fewer vectors than the index, it warns (run ``repair``) and searches the vectors
    it holds in memory instead (returns None).

    Raises:
        ConfigError: ``chroma_url`` is not a Chroma server address.
        IndexCorruptError: The server cannot be reached or used, or (a writer) the
            collections are another index's.
    """
    url = manifest.get("chroma_url")
    if not url:
        return None
    from skill_retriever.stores.vectors import ChromaVectorStore, check_chroma_url, chroma_client

    url = check_chroma_url(str(url))
    prefix = str(manifest.get("collection_prefix", "sr"))
    owner = str(manifest.get("index_id") or "") or None
    names = (f"{prefix}-nodes", f"{prefix}-edges")
    try:
        client = chroma_client(url)
        if writer:
            stores = [
                ChromaVectorStore(client, n, embedder, create=True, owner=owner, url=url, index_dir=str(path))
                for n in names
            ]
        else:
            from chromadb.errors import NotFoundError

            try:
                stores = [
                    ChromaVectorStore(client, n, embedder, create=False, url=url, index_dir=str(path)) for n in names
                ]
            except NotFoundError:
                _warn(path, url, f"has no collection {names[0]} or {names[1]} for this index")
                return None
    except (ConfigError, IndexCorruptError):
        raise
    except Exception as exc:  # Chroma fails in many types (connection, HTTP, value errors)
        raise IndexCorruptError(
            f"the Chroma server at {url} cannot be used ({type(exc).__name__}: {exc}); start it "
            "(`chroma run --path <dir> --port <port>`) or check --chroma-url"
        ) from exc
    remote = RemoteVectors(stores[0], stores[1])
    if writer:
        _claim(stores, (live.nodes, live.edges), owner, path, url)
        return remote
    return remote if _usable(stores, owner, live, path, url) else None


def _warn(path: Path, url: str, problem: str) -> None:
    log.warning(
        "[skill_retriever][index] the Chroma server at %s %s; searching the vectors of %s held in memory "
        "instead: run `skill-retriever repair --index-dir %s` to copy them to the server",
        url, problem, path, path,
    )


def _usable(stores: list[Any], owner: str | None, live: LiveState, path: Path, url: str) -> bool:
    """Whether a reader may search the server's collections (else it warns)."""
    for store in stores:
        if owner and store.owner and store.owner != owner:
            _warn(path, url, f"keeps {store.name} for another index")
            return False
    expected = (len(live.node_vectors), len(live.edge_vectors))
    for store, want in zip(stores, expected, strict=True):
        have = store.count()
        if have < want * 0.9:  # far fewer: a lag of a few writes is re-scored away anyway
            _warn(path, url, f"holds {have} vectors in {store.name}, the index {want}")
            return False
    return True


def _claim(stores: list[Any], known: tuple[Mapping[str, Any], ...], owner: str | None, path: Path, url: str) -> None:
    """Refuse another index's collections; mark unmarked ones holding nothing foreign."""
    move = f"give {path} collections of its own with `skill-retriever move-to-server --index-dir {path} --chroma-url {url}`"
    for store, ids in zip(stores, known, strict=True):
        if owner and store.owner == owner:
            continue
        if store.owner:
            raise IndexCorruptError(
                f"the collection {store.name} on {url} belongs to another index ({store.owner}), and syncing "
                f"it would delete that index's vectors; {move}"
            )
        foreign = sum(1 for i in store.all_ids_and_hashes() if i not in ids)
        if foreign:
            raise IndexCorruptError(
                f"the collection {store.name} on {url} holds {foreign} vector(s) that {path} never had and is "
                f"not marked as its own (another index may share it; syncing would delete them); {move}"
            )
        if owner:
            store.claim(owner)


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
