"""Moving an index's vectors to a Chroma server (``move-to-server``), and what becomes of
the collections it used before (``repair --chroma-url`` too). What ``stats`` says of the
server is ``stores.server_stats``'s, imported here for the callers that import it from here.

A move fills new collections, then writes ``index.json``, then deletes the previous
move's collections, but only on the same server and only this directory's own: a copied
directory's original keeps its collections, and a server the index left (it may be
unreachable) is not contacted, its collections named for the user to delete there, or
to leave when they are the original's of a copy (the directory ``items.sqlite`` records
for them still holds that index). The target server must answer before the move records
or makes anything (``stores.server_choice``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import IndexOpenError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import move_leftovers as leftovers
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.manifest_server import manifest_server
from skill_retriever.stores.move_leftovers import Leftovers
from skill_retriever.stores.move_open import open_to_move
from skill_retriever.stores.remote import (
    collection_names,
    holds_original,
    index_dir_of,
    remote_of,
    same_server,
)
from skill_retriever.stores.server_address import said_address
from skill_retriever.stores.server_choice import usable_server
from skill_retriever.stores.server_errors import ServerAddressError
from skill_retriever.stores.server_link import recorded_link, remember
from skill_retriever.stores.server_mirror import sync_remote
from skill_retriever.stores.server_stats import server_line, server_status
from skill_retriever.stores.server_timeouts import problem_of

__all__ = [
    "PreviousCollections", "SavedManifest", "ServerMove", "ServerSwitch", "delete_own", "drop_previous", "move_index_to_server",
    "move_to_server", "move_vectors_to_server", "recorded_owner_dir", "saved_manifest", "server_line", "server_status", "server_switch",
]

log = logging.getLogger("skill_retriever")


@dataclass(frozen=True, slots=True)
class PreviousCollections:
    """What became of the collections an index used before ``move-to-server``: the ones
    deleted, and the ones left (name -> why) on the server at ``url``."""

    url: str | None = None
    removed: tuple[str, ...] = ()
    kept: dict[str, str] = field(default_factory=dict)
    #: Kept ones another index uses, or may (the original of a copy, an unmarked one):
    #: the user is told to leave them, never to delete them.
    in_use: frozenset[str] = frozenset()

    def lines(self) -> list[str]:
        """What the CLI says of them: the ones deleted, and the ones left, grouped by why:
        to delete on that server if unneeded, or to leave, when another index may use them."""
        out: list[str] = []
        if self.removed:
            out.append(
                f"removed {len(self.removed)} collection(s) of the previous move from {self.url}: "
                f"{', '.join(self.removed)} (processes that have the index open search the new ones from their next query)"
            )
        reasons: dict[str, list[str]] = {}
        for name, why in self.kept.items():
            reasons.setdefault(why, []).append(name)
        for why, names in reasons.items():
            advice = "leave them" if set(names) & self.in_use else "delete them there if unneeded"
            out.append(f"the server at {self.url} keeps {', '.join(names)} from before ({why}); {advice}")
        return out

    def kept_dict(self) -> dict[str, Any] | None:
        """The kept ones for ``--json`` (None: none kept): the server, name -> why, and the
        names another index uses (to leave, never to delete)."""
        if not self.kept:
            return None
        return {"url": self.url, "collections": dict(self.kept), "in_use": sorted(self.in_use)}


@dataclass(frozen=True, slots=True)
class ServerMove:
    """What ``move-to-server`` did: the vectors the server now holds for the index, in
    which collections, and what became of the collections it used before."""

    path: str
    chroma_url: str
    nodes: int
    edges: int
    collections: tuple[str, str]
    previous: PreviousCollections
    #: Collections no index here uses: an interrupted move's, deleted, and others marked
    #: as this directory's, named (``stores.move_leftovers``).
    leftovers: tuple[Leftovers, ...] = ()
    #: The index's own nodes and edges (only edges of the kinds it embeds get a vector; by
    #: default not MENTIONS, PART_OF or SAME_AS), beside ``nodes`` and ``edges``, which count vectors.
    index_counts: tuple[int, int] = (0, 0)

    def to_dict(self) -> dict[str, Any]:
        """For ``move-to-server --json``: ``vectors`` (what the server holds) and ``index``
        (the index's nodes and edges) are the keys to read; ``nodes`` and ``edges``, kept
        for older readers, and ``node_vectors`` and ``edge_vectors`` count vectors too
        (``"edges": 0`` read as an index without edges); ``removed`` counts the leftovers deleted too."""
        removed = [*self.previous.removed, *(n for left in self.leftovers for n in left.removed)]
        return {
            "path": self.path,
            "chroma_url": self.chroma_url,
            "vectors": {"nodes": self.nodes, "edges": self.edges},
            "index": {"nodes": self.index_counts[0], "edges": self.index_counts[1]},
            "node_vectors": self.nodes,
            "edge_vectors": self.edges,
            "nodes": self.nodes,
            "edges": self.edges,
            "collections": list(self.collections),
            "removed_collections": len(removed),
            "removed": removed,
            "kept": self.previous.kept_dict(),
            "leftovers": [left.to_dict() for left in self.leftovers],
        }

    def lines(self) -> list[str]:
        """What the CLI says of the move."""
        held = (
            f"the server {self.chroma_url} holds {self.nodes} node and {self.edges} edge vectors (of the index's "
            f"{self.index_counts[0]} nodes and {self.index_counts[1]} edges: only edges of the kinds it embeds get one) "
            f"in {' and '.join(self.collections)}; {self.path} now searches through it"
        )
        return [held, *self.previous.lines(), *(line for left in self.leftovers for line in left.lines())]


def move_to_server(
    path: Path, previous: Mapping[str, Any], embedder: Embedder, live: LiveState, chroma_url: str, items: ItemStore
) -> ServerMove:
    """Copy the vectors ``live`` holds (no re-embedding) into new collections on
    ``chroma_url``, marked with a fresh ``index_id`` and this directory, write the index's
    manifest naming them (and record the link in ``items``, so that a lost manifest is
    recreated with it: ``stores.server_link``), then drop the collections ``previous``
    (its manifest until now) named (:func:`drop_previous`). The caller holds the index's
    write lock.

    The new collections are recorded in ``items`` before they are made: a move that fails
    or is interrupted before its manifest is written deletes them before it re-raises, and
    the next move deletes those a killed one left (``stores.move_leftovers``). The server
    must answer first: a move to one that cannot be used records nothing.

    Raises:
        ConfigError: ``chroma_url`` is blank or no server address.
        ServerUnreachableError: Nothing answers there.
        IndexCorruptError: The server answers but cannot be used, or failed during the move."""
    usable_server(chroma_url)  # before the pending record names collections it may never make
    manifest = {**previous, "chroma_url": chroma_url, **mf.fresh_identity()}
    owner_dir = recorded_owner_dir(items, previous)  # before the move records its own link
    cleared = leftovers.clear_pending(items, previous, path)
    pending = leftovers.begin(items, manifest, path)
    written = False
    try:
        remote = remote_of(manifest, embedder, path=path, live=live, writer=True)
        assert remote is not None
        done = sync_remote(live, remote)
        mf.write_manifest(path, manifest)
        written = True
        leftovers.end(items)
        remember(items, manifest, path, on_server=True)
    except BaseException:  # Ctrl-C too: the half-filled collections must not outlive the attempt
        if not written:
            leftovers.undo(items, pending)
        raise
    dropped = drop_previous(previous, manifest, path, recorded_dir=owner_dir)
    named = {*dropped.kept, *(cleared.kept if cleared else ())}
    found = [*([cleared] if cleared else []), *_strays(chroma_url, path, manifest, previous, named)]
    return ServerMove(str(path), chroma_url, done["nodes"], done["edges"], collection_names(manifest), dropped, tuple(found),
                      (len(live.nodes), len(live.edges)))


def _strays(url: str, path: Path, now: Mapping[str, Any], previous: Mapping[str, Any], named: set[str]) -> list[Leftovers]:
    """The collections on ``url`` marked as ``path``'s that the index does not use and the
    move has not ``named`` already (``move_leftovers.strays``); a server that fails to list
    them is logged, not raised: the move is done."""
    from skill_retriever.stores.chroma_connect import chroma_client

    on_url = same_server(previous.get("chroma_url"), url)
    used = {*collection_names(now), *named, *(collection_names(previous) if on_url else ())}
    try:
        names = leftovers.strays(chroma_client(url), path, used)
    except Exception as exc:  # noqa: BLE001 -- Chroma fails in many types; this is tidying
        log.warning("[skill_retriever][index] could not list the collections on %s (%s: %s)", url, type(exc).__name__, exc)
        return []
    return [Leftovers(url, kept=dict.fromkeys(names, leftovers.STRAY))] if names else []


def drop_previous(
    previous: Mapping[str, Any], now: Mapping[str, Any], path: Path, *, recorded_dir: str | None = None
) -> PreviousCollections:
    """Delete the collections the manifest ``previous`` gave the index at ``path``, once
    ``now`` (its new manifest) is written. Only on the same server (another may be
    unreachable: its collections are named as kept, to leave when ``recorded_dir``, the
    directory ``items.sqlite`` recorded for them, is another that still holds that index:
    this one is its copy), and only collections owned by
    ``previous``'s ``index_id`` and recorded as this directory's (or as a directory that
    no longer holds that index: it was moved here): never another index's, never the
    original's of a copy, never ones marked before directories were recorded (a copy may
    use them). A server that fails here leaves them, named as kept: the move itself is done.
    """
    old_url = previous.get("chroma_url")
    if not old_url:
        return PreviousCollections()
    names = collection_names(previous)
    if names == collection_names(now) and same_server(old_url, now.get("chroma_url")):
        return PreviousCollections()  # the same collections: nothing previous to drop
    if not same_server(old_url, now.get("chroma_url")):
        if copied := _originals(previous, path, recorded_dir):
            return copied
        elsewhere = "the index now uses another server; this one was not contacted, it may be unreachable"
        return PreviousCollections(str(old_url), kept=dict.fromkeys(names, elsewhere))
    return delete_own(previous, path, recorded_dir=recorded_dir)


def _originals(previous: Mapping[str, Any], path: Path, recorded_dir: str | None) -> PreviousCollections | None:
    """``previous``'s collections named as kept, when ``recorded_dir`` (the directory
    ``items.sqlite`` recorded for them) is another that still holds that index: the index
    at ``path`` is its copy, and they are the original's (known without the server)."""
    if not recorded_dir or recorded_dir == index_dir_of(path) or not holds_original(recorded_dir, previous):
        return None
    names = collection_names(previous)
    original = f"it belongs to {recorded_dir}, of which this index is a copy"
    return PreviousCollections(str(previous["chroma_url"]), kept=dict.fromkeys(names, original), in_use=frozenset(names))


def delete_own(previous: Mapping[str, Any], path: Path, *, recorded_dir: str | None = None) -> PreviousCollections:
    """Delete the collections ``previous`` (a manifest naming a server) names on its server
    that are the index at ``path``'s own (:func:`_why_keep`); the others, and all of them
    when the server fails, are named as kept, with why. A copy's original's, which
    ``recorded_dir`` names, are kept without asking the server: one that is down would
    have them called a failed delete, to delete "if unneeded"."""
    from skill_retriever.stores.chroma_connect import chroma_client

    if copied := _originals(previous, path, recorded_dir):
        return copied
    old_url, names = str(previous["chroma_url"]), collection_names(previous)
    removed: list[str] = []
    kept: dict[str, str] = {}
    in_use: set[str] = set()
    here = index_dir_of(path)
    try:  # a chroma_url that is no address (8000) is not connected to as the host "8000"
        manifest_server(previous, path)
    except ServerAddressError:
        unknown = (f"deleting failed: chroma_url {said_address(previous['chroma_url'])} was no Chroma server address, so the "
                   "server holding them is unknown; delete them with Chroma's own client there if unneeded")
        log.warning("[skill_retriever][index] the previous collections %s of %s stay: %s", ", ".join(names), path, unknown)
        return PreviousCollections(old_url, kept=dict.fromkeys(names, unknown))
    try:
        client = chroma_client(str(old_url))
        for name in names:
            why = _why_keep(client, name, previous, here)
            if why is None:
                client.delete_collection(name)
                removed.append(name)
            elif why:
                kept[name] = why
                in_use.add(name)
    except Exception as exc:  # noqa: BLE001 -- Chroma fails in many types; the move is done, this is tidying
        failed = problem_of(old_url, exc).what  # chromadb's own text may be empty (a ValueError of no words)
        log.warning(
            "[skill_retriever][index] could not delete the previous collections %s of %s from %s (%s); "
            "delete them there if unneeded", ", ".join(names), path, old_url, failed,
        )
        for name in names:
            if name not in removed:
                kept.setdefault(name, f"deleting failed: {failed}")
    return PreviousCollections(str(old_url), tuple(removed), kept, frozenset(in_use))


def _why_keep(client: Any, name: str, previous: Mapping[str, Any], here: str) -> str | None:
    """Why the collection ``name`` must stay (None: delete it; "": it is not there)."""
    from chromadb.errors import NotFoundError

    from skill_retriever.stores.vectors import OWNER_DIR_KEY, OWNER_KEY

    try:
        meta = client.get_collection(name).metadata or {}
    except NotFoundError:
        return ""
    owner, recorded = meta.get(OWNER_KEY), meta.get(OWNER_DIR_KEY)
    if not previous.get("index_id") or owner != previous.get("index_id"):
        return "not marked as this index's (another index may use it)"
    if not recorded:
        return "marked before collections recorded their index's directory (a copy of this index may use it)"
    if recorded != here and holds_original(str(recorded), previous):
        return f"it belongs to {recorded}, of which this index is a copy"
    return None


def recorded_owner_dir(items: ItemStore, manifest: Mapping[str, Any]) -> str | None:
    """The directory ``items`` records as owning ``manifest``'s server collections
    (``stores.server_link``; None: none recorded, or a record of other collections). A
    ``cp -r`` copy carries its original's record: it names the original."""
    link = recorded_link(items)
    if not link or not same_server(link.get("chroma_url"), manifest.get("chroma_url")):
        return None
    same = collection_names(link) == collection_names(manifest) and link.get("index_id") == manifest.get("index_id")
    return link.get("index_dir") if same else None


class SavedManifest(dict[str, Any]):
    """An index's manifest as it was before a command changed it, with the directory its
    ``items.sqlite`` recorded as owning its server collections (``recorded_dir``)."""

    def __init__(self, manifest: Mapping[str, Any], recorded_dir: str | None) -> None:
        super().__init__(manifest)
        self.recorded_dir = recorded_dir


def saved_manifest(path: Path) -> SavedManifest | None:
    """The manifest of the index at ``path`` as it is now (None: missing or unreadable), to
    tell afterwards what ``repair --chroma-url`` changed (:func:`server_switch`), with the
    owner directory its items record (read now: the open that follows records its own)."""
    try:
        manifest = mf.read_manifest(path)
    except (IndexOpenError, OSError):  # nothing to compare with: the recreated manifest is reported
        return None
    try:
        items = ItemStore(path / mf.DATABASE, writable=False)
    except (IndexOpenError, OSError):  # the open that follows says what is wrong with the items
        return SavedManifest(manifest, None)
    try:
        return SavedManifest(manifest, recorded_owner_dir(items, manifest))
    finally:
        items.close()


class ServerSwitch(list[str]):
    """What ``repair`` says of a change of server (:func:`server_switch`): its lines (the
    change, then the collections left on the previous server), and ``kept``, those
    collections for ``--json`` (``PreviousCollections.kept_dict``; None: none)."""

    def __init__(self, lines: list[str] | None = None, kept: dict[str, Any] | None = None) -> None:
        super().__init__(lines or [])
        self.kept = kept


def server_switch(before: Mapping[str, Any] | None, url: str | None, path: Path) -> ServerSwitch:
    """What ``repair`` says when it changed the index's server: to ``url`` from the one
    ``before`` (its manifest until then, :func:`saved_manifest`) named, or from none; then
    the collections left on that one, which is not contacted (empty: the server is the
    same, or nothing was read)."""
    old = before.get("chroma_url") if before is not None else None
    if before is None or not url or url == old:
        return ServerSwitch()
    if not old:
        return ServerSwitch([f"the index now searches through the Chroma server at {url} (it searched in memory before)"])
    recorded = before.recorded_dir if isinstance(before, SavedManifest) else None
    try:
        now = mf.read_manifest(path)  # its new collections: a switch gives the index fresh ones
    except (IndexOpenError, OSError):
        now = {**before, "chroma_url": url}
    left = drop_previous(before, now, path, recorded_dir=recorded)
    return ServerSwitch([f"the index now uses the Chroma server at {url} instead of {old}", *left.lines()], left.kept_dict())


def move_index_to_server(
    path: str | Path, chroma_url: str, *, embedder: Embedder | None = None, lock_wait_s: float = 0.0
) -> ServerMove:
    """Copy an index's vectors into new collections on a Chroma server (no re-embedding),
    search through them from now on, and delete the previous move's collections when they
    are on the same server and this directory's (`move_to_server`). Opened without
    its old server, so that a copy, or an index whose server is down, can move."""
    from skill_retriever.stores.chroma_connect import check_chroma_url

    check_chroma_url(chroma_url)
    with open_to_move(path, embedder, lock_wait_s, "move_index_to_server") as index:
        return move_to_server(index.path, dict(index._manifest), index.embedder, index._live, chroma_url, index._items)


def move_vectors_to_server(path: str | Path, chroma_url: str, *, embedder: Embedder | None = None) -> dict[str, int]:
    """:func:`move_index_to_server`, answering how many node and edge vectors the server holds."""
    moved = move_index_to_server(path, chroma_url, embedder=embedder)
    return {"nodes": moved.nodes, "edges": moved.edges}
