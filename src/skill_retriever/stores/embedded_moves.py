"""Moving an index off its Chroma server, back to searching in memory (``move-to-embedded``):
the way back from ``move-to-server``, which until now meant editing ``index.json``.

Nothing is copied from the server: ``items.sqlite`` holds every vector whatever the mode
(the server only mirrors them), so the server need not answer. An item with no usable
vector there (a damaged row) gets one as ``repair`` gives it: embedded again, and said.
Then ``index.json`` is written without ``chroma_url`` (one atomic replace: a crash before
it leaves the index on its server as before, one after it leaves it embedded), and the
items record the link as embedded (``stores.server_link``; a writer records it too, so a
crash between the two is mended by the next write). Processes that have the index open
search in memory from their next query (``stores.link_watch``).

The server's collections are left there unless ``delete_collections`` asks: then the
ones that are this directory's own are deleted, never another index's nor a copy's
original's (``server_moves.delete_own``), after ``index.json`` no longer names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.move_open import open_to_move
from skill_retriever.stores.remote import collection_names
from skill_retriever.stores.server_link import remember
from skill_retriever.stores.server_moves import delete_own, recorded_owner_dir

__all__ = ["EmbeddedMove", "move_index_to_embedded"]

#: Why collections not asked to be deleted stay (the index no longer names them after the move).
_LEFT = (
    "left there, as --delete-collections was not given: delete them with Chroma's own client if no other index "
    "uses them (docs/scaling.md, Back to the embedded default)"
)


@dataclass(frozen=True, slots=True)
class EmbeddedMove:
    """What ``move-to-embedded`` did: the server the index left (None: it searched in
    memory already), its collections there, how many vectors it embedded again (items with
    none usable in ``items.sqlite``), and which collections it deleted or left."""

    path: str
    chroma_url: str | None
    collections: tuple[str, ...] = ()
    embedded_nodes: int = 0
    embedded_edges: int = 0
    removed: tuple[str, ...] = ()
    #: Collection -> why it stays on the server (not asked to delete, another index's, a failure).
    kept: dict[str, str] = field(default_factory=dict)
    #: How many items a lost ``index.json`` was written again from (0: it was there), with
    #: the server link they record: opening the index to move it does that first.
    recreated_from: int = 0

    def to_dict(self) -> dict[str, Any]:
        """For ``move-to-embedded --json``."""
        return {
            "path": self.path, "chroma_url": self.chroma_url, "moved": self.chroma_url is not None,
            "collections": list(self.collections), "embedded_nodes": self.embedded_nodes,
            "embedded_edges": self.embedded_edges, "removed": list(self.removed), "kept": dict(self.kept),
            "recreated_index_json": self.recreated_from > 0,
        }

    def lines(self) -> list[str]:
        """What the CLI says of the move."""
        # "nothing changed" would be untrue of an index.json the open wrote again
        recreated = [
            f"{Path(self.path) / mf.MANIFEST} was missing: written again from the {self.recreated_from} items of "
            f"{mf.DATABASE}" + (", with the server they record" if self.chroma_url else "")
        ] if self.recreated_from else []
        if self.chroma_url is None:
            if recreated:
                return [*recreated, f"{self.path} names no Chroma server: it searches its vectors in memory"]
            return [f"{self.path} names no Chroma server: it searches its vectors in memory already; nothing changed"]
        out = [*recreated, (
            f"{self.path} now searches its vectors in memory (items.sqlite holds them all; nothing was copied from "
            f"{self.chroma_url}); processes that have it open do so from their next query"
        )]
        if self.embedded_nodes or self.embedded_edges:
            out.append(
                f"embedded {self.embedded_nodes} item(s) and {self.embedded_edges} relation(s) again: items.sqlite held "
                "no usable vector of them"
            )
        if self.removed:
            out.append(f"removed {', '.join(self.removed)} from {self.chroma_url}")
        reasons: dict[str, list[str]] = {}
        for name, why in self.kept.items():
            reasons.setdefault(why, []).append(name)
        for why, names in reasons.items():
            out.append(f"the server at {self.chroma_url} keeps {', '.join(names)} ({why})")
        return out


def move_index_to_embedded(
    path: str | Path, *, delete_collections: bool = False, embedder: Embedder | None = None, lock_wait_s: float = 0.0
) -> EmbeddedMove:
    """Search the index at ``path`` in memory from now on, instead of through the Chroma
    server ``index.json`` names; with ``delete_collections``, delete its own collections
    there afterwards. Opened without its server (which may be down for good), under the
    write lock. An index that names no server is left as it is.

    Raises:
        IndexNotFoundError / IndexCorruptError: No index there / it is damaged.
        IndexLockedError: Another process is writing it (``lock_wait_s`` waits).
    """
    with open_to_move(path, embedder, lock_wait_s, "move_index_to_embedded") as index:
        previous = dict(index._manifest)
        url = previous.get("chroma_url")
        if not url:
            return EmbeddedMove(str(index.path), None, recreated_from=index.recreated_from)
        repaired = index.repaired  # what opening it embedded: vectors items.sqlite lacked
        recreated = index.recreated_from
        owner_dir = recorded_owner_dir(index._items, previous)  # before `remember` records the embedded link
        manifest = {k: v for k, v in previous.items() if k != "chroma_url"}
        mf.write_manifest(index.path, manifest)
        remember(index._items, manifest, index.path, on_server=False)
        where = index.path
    names = collection_names(previous)
    if delete_collections:
        dropped = delete_own(previous, where, recorded_dir=owner_dir)
        removed, kept = dropped.removed, dict(dropped.kept)
    else:
        removed, kept = (), dict.fromkeys(names, _LEFT)
    return EmbeddedMove(str(where), str(url), names, repaired["nodes"], repaired["edges"], removed, kept, recreated)
