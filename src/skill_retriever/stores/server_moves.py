"""Moving an index's vectors to a Chroma server (``move-to-server``), what becomes of the
collections it used before, and what ``stats`` says of the server.

A move fills new collections, then writes ``index.json``, then deletes the previous
move's collections, but only on the same server and only this directory's own: a copied
directory's original keeps its collections, and a server the index left (it may be
unreachable) is not contacted, its collections named for the user to delete there.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import move_leftovers as leftovers
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.move_leftovers import Leftovers
from skill_retriever.stores.remote import (
    collection_names,
    copy_of,
    holds_original,
    index_dir_of,
    out_of_step,
    remote_of,
    same_server,
    sync_remote,
)
from skill_retriever.stores.server_errors import repair_command, server_problem, start_hint
from skill_retriever.stores.server_link import remember

__all__ = [
    "PreviousCollections", "ServerMove", "drop_previous", "move_to_server", "saved_manifest", "server_line",
    "server_status", "server_switch",
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

    def to_dict(self) -> dict[str, Any]:
        """For ``move-to-server --json``: ``removed`` counts the leftovers deleted too."""
        kept = self.previous.kept
        removed = [*self.previous.removed, *(n for left in self.leftovers for n in left.removed)]
        return {
            "path": self.path,
            "chroma_url": self.chroma_url,
            "nodes": self.nodes,
            "edges": self.edges,
            "collections": list(self.collections),
            "removed_collections": len(removed),
            "removed": removed,
            "kept": {"url": self.previous.url, "collections": dict(kept), "in_use": sorted(self.previous.in_use)}
            if kept else None,
            "leftovers": [left.to_dict() for left in self.leftovers],
        }

    def lines(self) -> list[str]:
        """What the CLI says of the move."""
        held = (
            f"the server {self.chroma_url} holds {self.nodes} node and {self.edges} edge vectors in "
            f"{' and '.join(self.collections)}; {self.path} now searches through it"
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
    the next move deletes those a killed one left (``stores.move_leftovers``)."""
    manifest = {**previous, "chroma_url": chroma_url, **mf.fresh_identity()}
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
    dropped = drop_previous(previous, manifest, path)
    named = {*dropped.kept, *(cleared.kept if cleared else ())}
    found = [*([cleared] if cleared else []), *_strays(chroma_url, path, manifest, previous, named)]
    return ServerMove(str(path), chroma_url, done["nodes"], done["edges"], collection_names(manifest), dropped, tuple(found))


def _strays(url: str, path: Path, now: Mapping[str, Any], previous: Mapping[str, Any], named: set[str]) -> list[Leftovers]:
    """The collections on ``url`` marked as ``path``'s that the index does not use and the
    move has not ``named`` already (``move_leftovers.strays``); a server that fails to list
    them is logged, not raised: the move is done."""
    from skill_retriever.stores.vectors import chroma_client

    on_url = same_server(previous.get("chroma_url"), url)
    used = {*collection_names(now), *named, *(collection_names(previous) if on_url else ())}
    try:
        names = leftovers.strays(chroma_client(url), path, used)
    except Exception as exc:  # noqa: BLE001 -- Chroma fails in many types; this is tidying
        log.warning("[skill_retriever][index] could not list the collections on %s (%s: %s)", url, type(exc).__name__, exc)
        return []
    return [Leftovers(url, kept=dict.fromkeys(names, leftovers.STRAY))] if names else []


def drop_previous(previous: Mapping[str, Any], now: Mapping[str, Any], path: Path) -> PreviousCollections:
    """Delete the collections the manifest ``previous`` gave the index at ``path``, once
    ``now`` (its new manifest) is written. Only on the same server (another may be
    unreachable: its collections are named as kept), and only collections owned by
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
        elsewhere = "the index now uses another server; this one was not contacted, it may be unreachable"
        return PreviousCollections(str(old_url), kept=dict.fromkeys(names, elsewhere))
    from skill_retriever.stores.vectors import chroma_client

    removed: list[str] = []
    kept: dict[str, str] = {}
    in_use: set[str] = set()
    here = index_dir_of(path)
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
        log.warning(
            "[skill_retriever][index] could not delete the previous collections %s of %s from %s (%s: %s); "
            "delete them there if unneeded", ", ".join(names), path, old_url, type(exc).__name__, exc,
        )
        for name in names:
            if name not in removed:
                kept.setdefault(name, f"deleting failed ({type(exc).__name__}: {exc})")
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


def saved_manifest(path: Path) -> dict[str, Any] | None:
    """The manifest of the index at ``path`` as it is now (None: missing or unreadable), to
    tell afterwards what ``repair --chroma-url`` changed (:func:`server_switch`)."""
    try:
        return mf.read_manifest(path)
    except (IndexCorruptError, OSError):  # nothing to compare with: the recreated manifest is reported
        return None


def server_switch(before: Mapping[str, Any] | None, url: str | None, path: Path) -> list[str]:
    """What ``repair`` says when it changed the index's server: to ``url`` from the one
    ``before`` (its manifest until then) named, or from none; then the collections left on
    that one, which is not contacted ([]: the server is the same, or nothing was read)."""
    old = before.get("chroma_url") if before is not None else None
    if before is None or not url or url == old:
        return []
    if not old:
        return [f"the index now searches through the Chroma server at {url} (it searched in memory before)"]
    left = drop_previous(before, {**before, "chroma_url": url}, path)
    return [f"the index now uses the Chroma server at {url} instead of {old}", *left.lines()]


def server_status(
    manifest: Mapping[str, Any], embedder: Embedder, path: Path, index_vectors: tuple[int, int] | None = None
) -> dict[str, Any] | None:
    """What the manifest's Chroma server holds for the index at ``path``, for ``stats``:
    None without a server; else ``url``, ``reachable`` (with ``error`` when not), each
    collection's vector count (None: missing), ``index_vectors`` (the node and edge
    vectors the index holds, as its ``status()`` counts them, which a server in step
    holds too; None: not given) and
    ``copy_of`` (the directory whose collections these are, when this index is a copy of
    it) and ``strays`` (collections marked as this directory's that the index does not
    use: ``stores.move_leftovers``). Reads only: creates nothing,
    and a server that is down is reported, not raised, so ``stats`` still shows the index.
    """
    url = manifest.get("chroma_url")
    if not url:
        return None
    from chromadb.errors import NotFoundError

    from skill_retriever.stores.vectors import ChromaVectorStore, chroma_client

    out: dict[str, Any] = {
        "url": str(url), "reachable": True, "collections": {}, "copy_of": None, "index_vectors": index_vectors
    }
    try:
        client = chroma_client(str(url))
        client.heartbeat()
        for name in collection_names(manifest):
            try:
                store = ChromaVectorStore(client, name, embedder, create=False, url=str(url), index_dir=str(path))
            except NotFoundError:
                out["collections"][name] = None
                continue
            out["collections"][name] = store.count()
            out["copy_of"] = out["copy_of"] or copy_of(store, manifest, index_dir_of(path))
        out["strays"] = leftovers.strays(client, path, collection_names(manifest))
    except Exception as exc:  # noqa: BLE001 -- down, refused, timed out, an HTTP error: reported, not raised
        problem = server_problem(str(url), exc)
        return {"url": str(url), "reachable": False, "error": problem.what, "advice": problem.todo, "down": problem.down}
    return out


def server_line(server: Mapping[str, Any], path: str) -> str:
    """The ``stats`` line on an index's server (:func:`server_status`): down, a copy
    searching in memory, missing collections, or the collections and their vectors; and
    the collections marked as this directory's that it does not use."""
    line = _held_line(server, path)
    if strays := server.get("strays"):
        line += f"; it also keeps {', '.join(strays)} ({leftovers.STRAY}); delete them there if unneeded"
    return line


def _held_line(server: Mapping[str, Any], path: str) -> str:
    url = server["url"]
    if not server["reachable"]:
        return (
            f"the Chroma server at {url} {'cannot be reached' if server.get('down', True) else 'cannot be used'}: "
            f"{server['error']}; queries fail until then: {server.get('advice') or start_hint(str(url))}"
        )
    held = ", ".join(f"{name} ({'missing' if n is None else f'{n} vectors'})" for name, n in server["collections"].items())
    if server["copy_of"]:
        return (
            f"{url} holds {held}, the collections of {server['copy_of']}, of which this index is a copy; its "
            f"queries search in memory: give it collections of its own with "
            f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
        )
    if None in server["collections"].values():
        return f"{url} holds {held}; run `{repair_command(path, str(url))}` to copy the vectors there"
    want = server.get("index_vectors")
    if want and (problem := out_of_step(list(server["collections"]), list(server["collections"].values()), want)):
        return (
            f"{url} {problem}; queries search the index's vectors in memory until "
            f"`{repair_command(path, str(url))}` copies them there again"
        )
    return f"{url} holds {held}"
