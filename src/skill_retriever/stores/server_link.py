"""The link of an index to its Chroma server, kept in ``items.sqlite`` too, so that a lost
``index.json`` is recreated with it (:func:`restored`) instead of silently going back to
searching embedded and leaving the server's collections orphaned.

The ``meta`` key :data:`SERVER_KEY` holds, as JSON, the ``chroma_url``, the identity the
collection names and owner marks derive from (``collection_prefix``, ``index_id``) and the
directory that owned them (``index_dir``); an empty value records an embedded index; no
value at all, an index written before this record existed. A writer records it once the
server's collections are known to be this directory's (:func:`remember`), and
``move-to-server`` once it has written the manifest naming new ones.

A directory copied with ``cp -r`` copies this record with the items. Its recovery does not
restore the link while the directory the record names still holds an index (the copy's
original, or whatever now lives there): writing through those collections would change
that index's vectors. The copy then searches in memory, and the warning names the way
to give it collections of its own (``move-to-server``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.advice import Placeholder, command
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.remote import collection_names, index_dir_of, same_server
from skill_retriever.stores.server_address import without_credentials

__all__ = ["SERVER_KEY", "recorded_link", "remember", "restored"]

#: The ``meta`` key of the server link ("" for an embedded index); ``manifest`` names it,
#: so that a reader judging its collections (``stores.left_collections``) needs no import of this.
SERVER_KEY = mf.SERVER_KEY
_FIELDS = ("chroma_url", "collection_prefix", "index_id")


def _link(manifest: Mapping[str, Any], path: Path) -> str:
    """The record of ``manifest``'s server link at ``path`` ("" without a server)."""
    if not manifest.get("chroma_url"):
        return ""
    fields = {k: str(manifest[k]) for k in _FIELDS if manifest.get(k)}
    return json.dumps({**fields, "index_dir": index_dir_of(path)}, sort_keys=True)


def remember(items: ItemStore, manifest: Mapping[str, Any], path: Path, *, on_server: bool) -> None:
    """Record the writer's server link: ``manifest``'s when ``on_server`` (its collections
    are this directory's), none when the manifest names no server; else (a server that
    is not opened, as ``move-to-server`` opens the index) the record stays as it is."""
    if not on_server and manifest.get("chroma_url"):
        return
    link = _link(manifest, path)
    if items.get_meta(SERVER_KEY) != link:
        items.set_meta(SERVER_KEY, link)


def recorded_link(items: ItemStore) -> dict[str, str] | None:
    """The server link ``items`` records: a dict, {} for an embedded index, None when
    nothing (or nothing readable) is recorded."""
    value = items.get_meta(SERVER_KEY)
    if value is None:
        return None
    if not value:
        return {}
    try:
        link = json.loads(value)
    except json.JSONDecodeError:
        return None
    if not isinstance(link, dict) or not link.get("chroma_url"):
        return None
    # an index.json's user and password, recorded by an earlier version: never sent, never shown
    return {str(k): without_credentials(str(v)) if k == "chroma_url" else str(v) for k, v in link.items()}


def _held_elsewhere(link: Mapping[str, str], path: Path) -> str | None:
    """The directory the link was recorded for, when it is not ``path`` and still holds an
    index (then ``path`` is a copy, or that directory took the index's place)."""
    recorded = link.get("index_dir")
    if not recorded or recorded == index_dir_of(path):
        return None
    there = Path(recorded)
    try:
        held = (there / mf.MANIFEST).exists() or (there / mf.DATABASE).exists()
    except OSError:  # cannot look: assume it is there, so nothing of it is touched
        held = True
    return recorded if held else None


def restored(
    path: Path, manifest: dict[str, Any], link: dict[str, str] | None, chroma_url: str | None
) -> tuple[dict[str, Any], str]:
    """The recreated ``manifest`` with the server link the items record (``link``, see
    :func:`recorded_link`), or with ``chroma_url`` when one is given (it wins; the
    recorded collections are kept when it names their server), and what the recovery
    warning says of it ("" for an index recorded as embedded)."""
    def names(fields: Mapping[str, Any]) -> str:
        return " and ".join(collection_names(fields))

    copy_of = _held_elsewhere(link, path) if link else None
    if link and not copy_of and (not chroma_url or same_server(chroma_url, link["chroma_url"])):
        out = {**manifest, **{k: link[k] for k in _FIELDS if link.get(k)}}
        if chroma_url:
            out["chroma_url"] = chroma_url
        return out, f"restored its link to the Chroma server at {out['chroma_url']} (collections {names(out)})"
    if chroma_url:
        said = f"it uses the Chroma server at {chroma_url} given with --chroma-url, in new collections {names(manifest)}"
        if link:
            said += f"; the collections {names(link)} on {link['chroma_url']} that {mf.DATABASE} records are left there"
        return {**manifest, "chroma_url": chroma_url}, said
    if link:
        url = link["chroma_url"]
        return manifest, (
            f"did not restore its link to the Chroma server at {url}: its collections {names(link)} belong to "
            f"the index at {copy_of}, of which {path} is a copy (writing through them would change that index's "
            f"vectors); {path} searches its vectors in memory until you give it collections of its own with "
            f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
        )
    if link is None:
        return manifest, (
            f"{mf.DATABASE} does not record whether the index was on a Chroma server (an older version wrote "
            f"it); if it was, search through the server again with "
            f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', Placeholder('URL')])}`"
        )
    return manifest, ""
