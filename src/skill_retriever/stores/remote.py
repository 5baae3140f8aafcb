"""A Chroma server that mirrors an index's vectors: opening it, keeping it in step.

The writer mirrors each committed batch (:func:`mirror`) and, when it takes the write
lock, brings the server in step (:func:`sync_remote`): every vector the server lacks or
holds stale is copied (never re-embedded), every entry whose item is gone is deleted.
Only what ``items.sqlite`` accounts for is touched: the database is the source of truth.

Each collection is marked with the ``index_id`` of the index that owns it and the
directory that index lives in. ``cp -r`` copies the manifest (and so the id) but not the
directory, so a copy is told from its original: a writer of a copy refuses the original's
collections (its sync would delete the original's vectors), a reader of a copy searches
its own vectors in memory, and ``move-to-server`` deletes only collections this very
directory owned (``stores.server_moves``).

A reader searches the server only while its collections hold as many vectors as the
index (:class:`_InStep`: one count per index version): a writer killed between its commit
and its mirror, or an entry deleted on the server, would otherwise drop items from the
semantic channel without a word. Out of step, it warns and searches the index's vectors.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from skill_retriever.exceptions import ConfigError, IndexCorruptError
from skill_retriever.filters import vector_metadata
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import Changes
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.server_errors import server_problem
from skill_retriever.stores.snapshot import RemoteVectors
from skill_retriever.stores.vectors import VectorHit, top_k

__all__ = [
    "collection_names",
    "copy_of",
    "holds_original",
    "index_dir_of",
    "mirror",
    "remote_of",
    "same_server",
    "sync_remote",
]

log = logging.getLogger("skill_retriever")

#: Seconds a reader that found its server out of step waits before counting again (a
#: writer copying a batch is done by then; one killed before copying never is).
RECHECK_S = 10.0

def collection_names(manifest: Mapping[str, Any]) -> tuple[str, str]:
    """The node and edge collections a manifest names (``collection_prefix``)."""
    prefix = str(manifest.get("collection_prefix", "sr"))
    return f"{prefix}-nodes", f"{prefix}-edges"


def index_dir_of(path: Path) -> str:
    """The directory recorded on an index's collections: absolute and resolved, so that
    ``idx``, ``./idx`` and a symlink to it name one index, and a copy names another."""
    return str(path.resolve())


def same_server(a: object, b: object) -> bool:
    """Whether two ``chroma_url`` values name one server (scheme, case and a trailing
    slash aside; ``127.0.0.1`` and ``localhost`` count as two)."""

    def key(url: object) -> str:
        text = str(url or "").strip().rstrip("/").lower()
        return text if not text or "://" in text else f"http://{text}"

    return bool(a) and key(a) == key(b)


def holds_original(recorded: str, manifest: Mapping[str, Any]) -> bool:
    """Whether ``recorded`` (the directory marked on collections) still holds the index
    ``manifest`` describes (same ``index_id``, collections and server): then another
    directory with that manifest is a copy of it. False when it holds no such index any
    more (the index was moved away with ``mv``, or moved to other collections since)."""
    try:
        theirs = mf.read_manifest(Path(recorded))
    except IndexCorruptError:  # no index there (moved away), or none readable
        return False
    except OSError:  # cannot look (permissions): assume it is there, so nothing of it is touched
        return True
    return (
        bool(manifest.get("index_id"))
        and theirs.get("index_id") == manifest.get("index_id")
        and collection_names(theirs) == collection_names(manifest)
        and same_server(theirs.get("chroma_url"), manifest.get("chroma_url"))
    )


def copy_of(store: Any, manifest: Mapping[str, Any], here: str) -> str | None:
    """The directory of the index that ``here`` is a copy of, when ``store`` is that
    index's collection (same owner, recorded for a directory that still holds it)."""
    owner = manifest.get("index_id")
    recorded = store.owner_dir
    if not owner or store.owner != owner or not recorded or recorded == here:
        return None
    return str(recorded) if holds_original(str(recorded), manifest) else None


def remote_of(
    manifest: Mapping[str, Any], embedder: Embedder, *, path: Path, live: LiveState, writer: bool
) -> RemoteVectors | None:
    """The server a manifest names (``chroma_url``), or None.

    A writer creates the collections (marked with the manifest's ``index_id`` and this
    directory) and refuses collections that another index owns, that a directory this
    one was copied from owns, or unmarked ones holding ids this index never had (another
    index may share them: syncing would delete its vectors). Collections whose directory
    no longer holds their index (it was moved with ``mv``), or marked before collections
    recorded a directory, are marked as this directory's. A reader creates nothing:
    when the collections are missing, belong to another index or to the index this one
    is a copy of, or hold another number of vectors than the index, it warns and searches
    the vectors it holds in memory instead (returns None); collections it searches fall
    back to those vectors for any later version the server is out of step with.

    Raises:
        ConfigError: ``chroma_url`` is not a Chroma server address.
        IndexCorruptError: The server cannot be reached or used, or (a writer) the
            collections are another index's, or this index is a copy of theirs.
    """
    url = manifest.get("chroma_url")
    if not url:
        return None
    from skill_retriever.stores.vectors import ChromaVectorStore, check_chroma_url, chroma_client

    url = check_chroma_url(str(url))
    owner = str(manifest.get("index_id") or "") or None
    names = collection_names(manifest)
    here = index_dir_of(path)
    try:
        client = chroma_client(url)
        if writer:
            stores = [
                ChromaVectorStore(
                    client, n, embedder, create=True, owner=owner, owner_dir=here, url=url, index_dir=str(path)
                )
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
        problem = server_problem(url, exc)
        how = "cannot be reached" if problem.down else "cannot be used"
        raise IndexCorruptError(f"the Chroma server at {url} {how}: {problem.what}; {problem.todo}") from exc
    remote = RemoteVectors(stores[0], stores[1])
    if writer:
        _claim(stores, (live.nodes, live.edges), manifest, path, url)
        return remote
    return remote if _usable(stores, manifest, live, path, url) else None


def _warn(path: Path, url: str, problem: str) -> None:
    log.warning(
        "[skill_retriever][index] the Chroma server at %s %s; searching the vectors of %s held in memory "
        "instead: run `skill-retriever repair --index-dir %s` to copy them to the server",
        url, problem, path, path,
    )


def _copy_message(path: Path, original: str, names: list[str], url: str) -> str:
    return (
        f"{path} is a copy of the index at {original}, which owns the collections {' and '.join(names)} on "
        f"{url} (a copied directory keeps its original's collection names and index_id; writing through "
        f"them would change {original}'s vectors); give the copy collections of its own with "
        f"`skill-retriever move-to-server --index-dir {path} --chroma-url {url}`"
    )


def _usable(stores: list[Any], manifest: Mapping[str, Any], live: LiveState, path: Path, url: str) -> bool:
    """Whether a reader may search the server's collections (else it warns)."""
    owner = manifest.get("index_id")
    for store in stores:
        if owner and store.owner and store.owner != owner:
            _warn(path, url, f"keeps {store.name} for another index")
            return False
    here = index_dir_of(path)
    for store in stores:
        original = copy_of(store, manifest, here)
        if original:
            log.warning(
                "[skill_retriever][index] %s; until then it searches the vectors of %s held in memory",
                _copy_message(path, original, [s.name for s in stores], url), path,
            )
            return False
    check = _InStep(stores, live, path, url)
    if not check.in_step():
        return False
    for store, nodes in zip(stores, (True, False), strict=True):
        store.fallback = _Local(check, live, nodes=nodes)
    return True


def _held(live: LiveState) -> tuple[int, int]:
    """How many node and edge vectors a server in step holds (what :func:`sync_remote` copies)."""
    nodes, edges = dict(live.nodes), dict(live.edges)  # copies: a catch-up may change them meanwhile
    return sum(1 for i in list(live.node_vectors) if i in nodes), sum(1 for i in list(live.edge_vectors) if i in edges)


def out_of_step(names: Sequence[str], have: Sequence[int | None], want: Sequence[int]) -> str:
    """How a server's collections differ from the index they mirror, and the likely
    causes; "" when they hold as many vectors as it (``have`` None: a missing collection)."""
    if list(have) == list(want):
        return ""
    held = " and ".join(f"{'no collection' if n is None else f'{n} vectors'} in {name}" for name, n in zip(names, have, strict=True))
    return (
        f"holds {held}, where the index has {want[0]} node and {want[1]} edge vectors (a write stopped before "
        "copying its vectors there, or entries were deleted on the server; a write in progress catches up by itself)"
    )


class _InStep:
    """Whether a reader's server holds the index's vectors, judged by their count: one
    count per collection for each index version (a reader in step pays nothing more per
    query), again every :data:`RECHECK_S` while out of step, when it warns once a version."""

    def __init__(self, stores: list[Any], live: LiveState, path: Path, url: str) -> None:
        self._stores, self._live, self._path, self._url = stores, live, path, url
        self._lock = threading.Lock()
        self._version, self._ok, self._next, self._warned = -1, True, 0.0, -1

    def _current(self) -> bool:
        return self._live.version == self._version and (self._ok or time.monotonic() < self._next)

    def in_step(self) -> bool:
        if self._current():
            return self._ok
        with self._lock:
            if self._current():  # another thread counted meanwhile
                return self._ok
            version = self._live.version
            problem = out_of_step([s.name for s in self._stores], [s.count() for s in self._stores], _held(self._live))
            self._version, self._ok, self._next = version, not problem, time.monotonic() + RECHECK_S
            if problem and self._warned != version:
                self._warned = version
                _warn(self._path, self._url, problem)
            return self._ok


class _Local:
    """A reader's collection searched exactly over the index's own vectors, while
    :class:`_InStep` finds the server out of step (``vectors.OutOfStepSearch``)."""

    def __init__(self, check: _InStep, live: LiveState, *, nodes: bool) -> None:
        self._check, self._live, self._nodes = check, live, nodes
        self._built: tuple[int, list[str], NDArray[np.float32], list[dict[str, Any]]] | None = None

    def out_of_step(self) -> bool:
        return not self._check.in_step()

    def search_many(
        self, vectors: Any, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]:
        names, matrix, metas = self._matrix()
        wanted = None if ids is None else set(ids)
        keep = ((wanted is None or i in wanted) and (not where or _matches(m, where)) for i, m in zip(names, metas))
        mask = None if wanted is None and not where else np.fromiter(keep, dtype=bool, count=len(names))
        rows = top_k(matrix, np.asarray(vectors, dtype=np.float32), k, mask)
        return [[VectorHit(names[r], score) for r, score in hits] for hits in rows]

    def _matrix(self) -> tuple[list[str], NDArray[np.float32], list[dict[str, Any]]]:
        """The index's vectors as a matrix, built once per version."""
        live, built = self._live, self._built
        if built is None or built[0] != live.version:
            version = live.version
            nodes, edges = dict(live.nodes), dict(live.edges)  # copies: a catch-up may change them meanwhile
            vecs = dict(live.node_vectors if self._nodes else live.edge_vectors)
            names = [i for i in vecs if i in (nodes if self._nodes else edges)]
            matrix = np.stack([vecs[i].vector for i in names]) if names else np.zeros((0, 0), dtype=np.float32)
            # Only node searches filter on metadata (the snapshot judges an edge by its ends).
            metas = [vector_metadata(nodes[i], vecs[i].vhash) if self._nodes else {} for i in names]
            built = self._built = (version, names, matrix, metas)
        return built[1], built[2], built[3]


def _matches(meta: Mapping[str, Any], where: Mapping[str, Any]) -> bool:
    """Whether a vector's metadata passes a Chroma ``where`` filter of the shapes
    ``filters.chroma_where`` writes (``$and``, ``$or``, ``$in``, ``$contains``, equality);
    ValueError for another operator (rather than judge it wrongly)."""
    for key, cond in where.items():
        if key in ("$and", "$or"):
            results = (_matches(meta, c) for c in cond)
            ok = all(results) if key == "$and" else any(results)
        elif not isinstance(cond, Mapping):
            ok = meta.get(key) == cond
        elif set(cond) == {"$in"}:
            ok = meta.get(key) in cond["$in"]
        elif set(cond) == {"$contains"}:
            ok = cond["$contains"] in (meta.get(key) or ())
        else:
            raise ValueError(f"the vector filter {dict(cond)!r} on {key!r} has an operator the reader's fallback does not know")
        if not ok:
            return False
    return True


def _claim(
    stores: list[Any], known: tuple[Mapping[str, Any], ...], manifest: Mapping[str, Any], path: Path, url: str
) -> None:
    """Refuse another index's collections and the original's collections of a copy; mark
    as this directory's the ones it owns (moved here, or marked before directories were
    recorded) and unmarked ones holding nothing foreign. Every check runs before any mark,
    so a refusal changes nothing on the server."""
    owner = str(manifest.get("index_id") or "") or None
    here = index_dir_of(path)
    move = f"give {path} collections of its own with `skill-retriever move-to-server --index-dir {path} --chroma-url {url}`"
    to_mark: list[Any] = []
    for store, ids in zip(stores, known, strict=True):
        if owner and store.owner == owner:
            original = copy_of(store, manifest, here)
            if original:
                raise IndexCorruptError(_copy_message(path, original, [s.name for s in stores], url))
            if store.owner_dir != here:
                if store.owner_dir:
                    log.info("[skill_retriever][index] %s moved from %s: marking %s as its own", path, store.owner_dir, store.name)
                to_mark.append(store)
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
            to_mark.append(store)
    for store in to_mark:
        assert owner is not None
        store.claim(owner, here)


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
