"""What an interrupted ``move-to-server`` leaves on a server, and how the next move clears it.

A move fills new collections before it writes the manifest that names them. Stopped in
between (Ctrl-C, an error, a kill), the index still uses its previous collections and the
new ones are orphans: each attempt would leave another set. So a move records in
``items.sqlite`` (meta :data:`PENDING_KEY`) the collections it is about to make, before it
makes them; a move that fails deletes them before it re-raises (:func:`undo`), and the
next move deletes the ones a killed move could not (:func:`clear_pending`). Only
collections marked with the record's ``index_id`` and this very directory are deleted: a
copied directory carries the record, never the directory.

Other collections marked as this directory's that its index does not use (left by an
older version, or by an index that lived here before and was moved away with ``mv``, which
may still use them) are named, never deleted (:func:`strays`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.remote import collection_names, index_dir_of

__all__ = ["PENDING_KEY", "Leftovers", "Pending", "begin", "clear_pending", "end", "strays", "undo"]

log = logging.getLogger("skill_retriever")

#: The ``meta`` key recording the collections a move is making ("" or none: no move under way).
PENDING_KEY = "pending_move"
#: Why a collection :func:`strays` finds is left: it may be another index's still.
STRAY = (
    "marked as this directory's, but its index does not use them: left by move-to-embedded without "
    "--delete-collections, by an interrupted move-to-server, or by an index that was in this directory before"
)


@dataclass(frozen=True, slots=True)
class Pending:
    """The collections a move is making: on the server ``url``, marked with ``owner`` (the
    move's fresh ``index_id``) and ``index_dir``."""

    url: str
    names: tuple[str, ...]
    owner: str
    index_dir: str


@dataclass(frozen=True, slots=True)
class Leftovers:
    """Collections on the server at ``url`` that no index here uses: the ones deleted, and
    the ones left (name -> why)."""

    url: str
    removed: tuple[str, ...] = ()
    kept: dict[str, str] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """What the CLI says of them."""
        done = f"removed {len(self.removed)} collection(s) an interrupted move-to-server left on {self.url}"
        out = [f"{done}: {', '.join(self.removed)}"] if self.removed else []
        reasons: dict[str, list[str]] = {}
        for name, why in self.kept.items():
            reasons.setdefault(why, []).append(name)
        out += [f"the server at {self.url} keeps {', '.join(n)} ({why}); delete them there if unneeded" for why, n in reasons.items()]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "removed": list(self.removed), "kept": dict(self.kept)}


def begin(items: ItemStore, manifest: Mapping[str, Any], path: Path) -> Pending:
    """Record the collections the move to ``manifest`` (its new one) is about to make."""
    pending = Pending(
        str(manifest["chroma_url"]), collection_names(manifest), str(manifest["index_id"]), index_dir_of(path)
    )
    items.set_meta(PENDING_KEY, json.dumps({"url": pending.url, "names": list(pending.names), "owner": pending.owner,
                                            "index_dir": pending.index_dir}))
    return pending


def end(items: ItemStore) -> None:
    """Forget the record: the move wrote its manifest, or its collections are gone."""
    items.set_meta(PENDING_KEY, "")


def _recorded(items: ItemStore) -> Pending | None:
    value = items.get_meta(PENDING_KEY)
    if not value:
        return None
    try:
        got = json.loads(value)
        return Pending(str(got["url"]), tuple(str(n) for n in got["names"]), str(got["owner"]), str(got["index_dir"]))
    except (ValueError, KeyError, TypeError):  # damaged: nothing it names can be trusted to delete
        log.warning("[skill_retriever][index] the record of an unfinished move-to-server cannot be read: %r", value[:200])
        return None


def _delete(pending: Pending) -> tuple[str, ...]:
    """Delete the collections ``pending`` names that carry its marks; the names deleted."""
    from chromadb.errors import NotFoundError

    from skill_retriever.stores.chroma_connect import chroma_client
    from skill_retriever.stores.vectors import OWNER_DIR_KEY, OWNER_KEY

    client = chroma_client(pending.url)
    removed = []
    for name in pending.names:
        try:
            meta = client.get_collection(name).metadata or {}
        except NotFoundError:
            continue
        if meta.get(OWNER_KEY) == pending.owner and meta.get(OWNER_DIR_KEY) == pending.index_dir:
            client.delete_collection(name)
            removed.append(name)
    return tuple(removed)


def undo(items: ItemStore, pending: Pending) -> None:
    """Delete the collections of a move that failed before writing its manifest, and forget
    its record; a server that fails here keeps them, named, and the record, so that the
    next move deletes them. Never raises: the move's own error is the one to report."""
    try:
        removed = _delete(pending)
        end(items)
    except Exception as exc:  # noqa: BLE001 -- Chroma fails in many types; the move's error goes on
        log.warning(
            "[skill_retriever][index] the interrupted move-to-server left %s on %s (deleting them failed: %s: %s); "
            "the next move-to-server of %s deletes them", ", ".join(pending.names), pending.url,
            type(exc).__name__, exc, pending.index_dir,
        )
        return
    if removed:
        log.info("[skill_retriever][index] deleted %s, made by the move that stopped, from %s", ", ".join(removed), pending.url)


def clear_pending(items: ItemStore, manifest: Mapping[str, Any], path: Path) -> Leftovers | None:
    """Delete the collections a move of this directory that was killed (or could not clean
    up) left, as its record names them; None when there is nothing to delete. A record
    copied with the directory is forgotten (the collections it names are the original's to
    clear), and so is one naming the collections ``manifest`` (the index's) uses: that move
    was killed after writing it."""
    pending = _recorded(items)
    if pending is None:
        return None
    if pending.index_dir != index_dir_of(path) or set(pending.names) & set(collection_names(manifest)):
        end(items)
        return None
    try:
        removed = _delete(pending)
    except Exception as exc:  # noqa: BLE001 -- down, refused, an HTTP error: named, and the move goes on
        why = f"left by an interrupted move-to-server; deleting them failed ({type(exc).__name__}: {exc})"
        return Leftovers(pending.url, kept=dict.fromkeys(pending.names, why))
    end(items)
    return Leftovers(pending.url, removed) if removed else None


def strays(client: Any, path: Path, used: Iterable[str]) -> list[str]:
    """The collections on ``client``'s server marked as the directory ``path``'s that are not
    ``used`` (the index's own, and any the caller accounts for)."""
    from skill_retriever.stores.vectors import OWNER_DIR_KEY

    here, skip = index_dir_of(path), set(used)
    return sorted(
        c.name for c in client.list_collections() if (c.metadata or {}).get(OWNER_DIR_KEY) == here and c.name not in skip
    )
