"""What ``stats`` says of an index's Chroma server: whether it answers, what its
collections hold against the index, and collections marked as this directory's that the
index does not use. Reads only: creates nothing, and a server that is down is reported,
not raised, so ``stats`` still shows the index.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.stores import move_leftovers as leftovers
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.left_collections import recorded_embedded
from skill_retriever.stores.manifest_server import manifest_server
from skill_retriever.stores.read_probe import read_probe_s
from skill_retriever.stores.remote import collection_names, copy_of, index_dir_of
from skill_retriever.stores.repair_wait import while_writing
from skill_retriever.stores.server_address import shown_address
from skill_retriever.stores.server_dims import index_dim, other_model
from skill_retriever.stores.server_down import MEANWHILE
from skill_retriever.stores.server_drift import compare, drift_phrase, held_hashes, out_of_step
from skill_retriever.stores.server_errors import repair_command, start_hint
from skill_retriever.stores.server_timeouts import problem_of
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["server_line", "server_status"]


def server_status(
    manifest: Mapping[str, Any],
    embedder: Embedder,
    path: Path,
    index_vectors: tuple[int, int] | None = None,
    snapshot: IndexSnapshot | None = None,
) -> dict[str, Any] | None:
    """What the manifest's Chroma server holds for the index at ``path``, for ``stats``:
    None without a server; else ``url``, ``reachable`` (with ``error`` when not), each
    collection's vector count (None: missing), ``index_vectors`` (the node and edge
    vectors the index holds, as its ``status()`` counts them, which a server in step
    holds too; None: not given), ``out_of_step`` (with ``snapshot``, the index's state
    those counts are of: how many of the server's vectors differ from it by id and hash,
    ``server_drift.compare``; None when not compared: no snapshot, a copy, a collection
    missing), ``copy_of`` (the directory whose collections these are, when this index is a copy of
    it), ``left_behind`` (True when the index records no server since ``move-to-embedded``, so
    these are collections it left there, which its queries do not search; None otherwise:
    ``stores.left_collections``), ``other_model`` (why a collection holds another model's vectors, and what to do:
    ``stores.server_dims``; None when none does) and ``strays`` (collections marked as this
    directory's that the index does not use: ``stores.move_leftovers``). Reads only: creates nothing,
    and a server that is down is reported, not raised, so ``stats`` still shows the index.
    """
    url = manifest.get("chroma_url")
    if not url:
        return None
    from chromadb.errors import NotFoundError

    from skill_retriever.stores.chroma_connect import chroma_client
    from skill_retriever.stores.vectors import ChromaVectorStore

    want = held_hashes(path, snapshot) if snapshot is not None else None  # a database error is no server's
    stores: list[Any] = []
    out: dict[str, Any] = {
        "url": shown_address(str(url)), "reachable": True, "collections": {}, "copy_of": None, "index_vectors": index_vectors,
        "out_of_step": None, "left_behind": recorded_embedded(path) or None,
    }
    probe_s = read_probe_s()  # stats reads: a server that does not answer soon is said to be down
    try:
        client = chroma_client(manifest_server(manifest, path) or "", probe_s=probe_s)
        client.heartbeat()
        for name in collection_names(manifest):
            try:
                store = ChromaVectorStore(client, name, embedder, create=False, url=str(url), index_dir=str(path))
            except NotFoundError:
                out["collections"][name] = None
                continue
            out["collections"][name] = store.count()
            stores.append(store)
            out["copy_of"] = out["copy_of"] or copy_of(store, manifest, index_dir_of(path))
        out["strays"] = leftovers.strays(client, path, collection_names(manifest))
        out["other_model"] = other_model(stores, index_dim(manifest), path, str(url)) or None
        if want is not None and not out["copy_of"] and len(stores) == 2:
            out["out_of_step"] = compare(list(zip([s.all_ids_and_hashes() for s in stores], want, strict=True)))
    except Exception as exc:  # noqa: BLE001 -- down, refused, timed out, an HTTP error: reported, not raised
        problem = problem_of(str(url), exc)
        return {"url": shown_address(str(url)), "reachable": False, "error": problem.what, "advice": problem.todo, "down": problem.down,
                **({"reads": MEANWHILE} if problem.down else {})}  # as the MCP status resource says it
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
        down = server.get("down", True)  # nothing answers: reads search in memory (stores.server_down)
        return (
            f"the Chroma server at {url} {'cannot be reached' if down else 'cannot be used'}: {server['error']}; "
            f"{MEANWHILE if down else 'queries fail until then'}: {server.get('advice') or start_hint(str(url))}"
        )
    held = ", ".join(f"{name} ({'missing' if n is None else f'{n} vectors'})" for name, n in server["collections"].items())
    if server["copy_of"]:
        return (
            f"{url} holds {held}, the collections of {server['copy_of']}, of which this index is a copy; its "
            f"queries search in memory: give it collections of its own with "
            f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
        )
    if server.get("left_behind") and None not in server["collections"].values():  # before the counts: equal ones do not make them the index's vectors
        return (
            f"{url} holds {held}, left there by `move-to-embedded` (the index's writes since did not reach them); its "
            f"queries search in memory: to search through that server again, run "
            f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
        )
    if server.get("other_model"):  # before the counts: no repair can fill such a collection
        return f"{url} holds {held}, but {server['other_model']}"
    if None in server["collections"].values():
        return f"{url} holds {held}; run `{repair_command(path, str(url))}` to copy the vectors there{while_writing(path)}"
    want = server.get("index_vectors")
    drift = server.get("out_of_step") or {}
    repair = repair_command(path, str(url))
    if want and (problem := out_of_step(list(server["collections"]), list(server["collections"].values()), want)):
        by_hash = f" ({drift_phrase(drift)})" if drift.get("vectors") else ""
        return f"{url} {problem}{by_hash}; queries search the index's vectors in memory until `{repair}` copies them there again{while_writing(path)}"
    if drift.get("vectors"):  # as many as the index, so readers search them: count checks cannot tell
        return (
            f"{url} holds {held}, but {drift_phrase(drift)}; queries take their candidates from the server's "
            f"vectors as they are until `{repair}` copies the index's there"
        )
    return f"{url} holds {held}"
