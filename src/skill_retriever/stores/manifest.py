"""``index.json``: what an index directory is (format, embedding model, dimension, server).

Layout of an index directory::

    index.json      this manifest
    items.sqlite    nodes, edges and their vectors: the source of truth (WAL)
    write.lock      the one-writer lock (see ``stores.lock``)

An index written by version 1 of the layout also holds ``chroma/`` (its vectors, before
they moved into ``items.sqlite``); ``skill-retriever repair`` migrates it.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from skill_retriever.advice import Placeholder, command
from skill_retriever.exceptions import ConfigError, IndexCorruptError, IndexNotFoundError
from skill_retriever.fsutil import write_atomic
from skill_retriever.stores.index_words import point_at
from skill_retriever.stores.lock import LOCK_FILE, holder_alive, lock_taken
from skill_retriever.stores.permissions import IndexPermissionError, denied_message
from skill_retriever.stores.server_address import stored_address
from skill_retriever.stores.unfinished_schema import unfinished_schema

FORMAT = "skill-retriever-index/1"
#: How every version's manifest format starts.
FORMAT_FAMILY = "skill-retriever-index/"
#: What a command advising to build an index reads from (the user fills it in).
_SOURCES = Placeholder("<sources>")
#: Why a JSON document is no manifest: no version of skill-retriever wrote it.
FOREIGN = "is not a skill-retriever index manifest"
MANIFEST = "index.json"
DATABASE = "items.sqlite"
#: The ``meta`` key of ``items.sqlite`` that records the index's Chroma server link
#: (``stores.server_link``; "" for an embedded index).
SERVER_KEY = "server"
#: Files a half-created index directory may hold (a create killed, or still running,
#: before its manifest).
CREATION_LEFTOVERS = frozenset({DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", LOCK_FILE})

__all__ = [
    "CREATION_LEFTOVERS", "DATABASE", "FORMAT", "MANIFEST", "check_embedder", "creation_stopped", "creation_under_way", "fresh_identity",
    "manifest_damage", "new_manifest", "read_manifest", "write_manifest",
]


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of the index at ``directory``.

    Raises:
        IndexNotFoundError: There is no index there.
        IndexCorruptError: Its manifest is unreadable.
    """
    path = directory / MANIFEST
    if directory.is_file():  # `index` could not build one there either
        raise IndexNotFoundError(
            f"{directory} is a file, not an index directory; point at an index directory, or build one with "
            "`skill-retriever index <sources> --index-dir <new directory>`"
        )
    if not path.exists():
        if why := creation_under_way(directory):  # the manifest is written last
            raise IndexNotFoundError(why)
        if stopped := creation_stopped(directory):
            raise IndexNotFoundError(stopped)
        if directory.is_dir() and any(directory.iterdir()):  # a source, say, named by mistake
            raise IndexNotFoundError(
                f"no index at {directory}: it holds files but no index; {point_at('an index')}, "
                f"or, if {directory} is a source to search, index it into a folder of its "
                f"own: `{command(['index', directory, '--index-dir', Placeholder('<new folder>')])}`"
            )
        hint = "" if directory.exists() else " (the directory does not exist either)"
        raise IndexNotFoundError(
            f"no index at {directory}{hint}; build one with `{command(['index', _SOURCES], directory)}`, "
            f"or {point_at('an existing index')}"
        )
    try:
        data = path.read_bytes()
    except PermissionError as exc:  # the user's rights, not damage: deleting would lose the items
        raise IndexPermissionError(denied_message(path, write=False)) from exc
    except OSError as exc:
        raise IndexCorruptError(
            f"{path} is unreadable ({exc}); the index directory is damaged: delete it and run "
            f"`{command(['index', _SOURCES], directory)}` again"
        ) from exc
    manifest, wrong = _parsed(data)
    if manifest is None and wrong != FOREIGN:
        raise IndexCorruptError(
            f"{path} {wrong}; the index directory is damaged: delete it and run `{command(['index', _SOURCES], directory)}` again"
        )
    if manifest is None:
        raise IndexCorruptError(
            f"{path} {FOREIGN}; point at an index directory, "
            f"or delete this one and run `{command(['index', _SOURCES], directory)}` again"
        )
    if manifest.get("format") != FORMAT:  # another version's index: nothing to delete or repair
        raise IndexCorruptError(
            f"{path} was written by another version of skill-retriever (format "
            f"{str(manifest.get('format'))[:60]!r}; this version reads {FORMAT!r}): open it with that "
            "version, or build an index of this version in another directory; this one is left as it is"
        )
    if isinstance(url := manifest.get("chroma_url"), str):  # a password there would reach every output
        manifest["chroma_url"] = stored_address(url, path)
    return manifest


def _holds_a_create_only(directory: Path) -> bool:
    """Whether ``directory`` holds only what a create makes before its manifest
    (`CREATION_LEFTOVERS`), its lock file included (no source holds one)."""
    try:
        names = {p.name for p in directory.iterdir()}
    except OSError:
        return False
    return LOCK_FILE in names and names <= CREATION_LEFTOVERS


def creation_under_way(directory: Path) -> str | None:
    """What a reader is told of a directory that an index run is creating right now: it
    holds only what a create makes before its manifest (`CREATION_LEFTOVERS`) and its
    writer's lock is taken (where ``flock`` cannot tell: its pid names a live process).
    None otherwise: no run is creating it (one was stopped before its manifest)."""
    if not _holds_a_create_only(directory):
        return None
    taken = lock_taken(directory)
    if not (taken or (taken is None and holder_alive(directory))):
        return None
    return (
        f"the index at {directory} is being built by an index run under way (it has no {MANIFEST} until "
        "the run's first write is done); try again when that run ends"
    )


def creation_stopped(directory: Path) -> str | None:
    """What a reader is told of a directory whose create was stopped (killed, Ctrl-C, power
    loss) before its manifest: it holds only what a create makes first, its lock file
    included (no source holds one), and no run holds the lock; or, lock file or not, a
    database whose schema a create began and never finished, holding no row
    (``stores.unfinished_schema``: what an older version's create killed part way left). It
    was told the folder "holds files but no index", as if it were a source named by mistake.
    None otherwise."""
    try:
        names = {p.name for p in directory.iterdir()}
    except OSError:
        return None
    if not names <= CREATION_LEFTOVERS:
        return None
    if LOCK_FILE not in names and not (DATABASE in names and unfinished_schema(directory / DATABASE)):
        return None
    return (
        f"no index at {directory}: an index run began building it and was stopped before its first write "
        f"finished; build it with `{command(['index', _SOURCES], directory)}` (the run starts it over)"
    )


def manifest_damage(directory: Path) -> str | None:
    """What makes the manifest at ``directory`` garbage (not UTF-8 JSON, or JSON that no
    version of skill-retriever wrote), which ``repair`` replaces from the items; else None:
    it reads, it is missing, it cannot be opened (permissions: not garbage), or it names
    another version's format (that version still reads it)."""
    try:
        data = (directory / MANIFEST).read_bytes()
    except OSError:
        return None
    return _parsed(data)[1] or None


def _parsed(data: bytes) -> tuple[dict[str, Any] | None, str]:
    """The manifest in ``data`` (of any version's format), or None and what is wrong."""
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"is unreadable ({exc})"
    if not isinstance(manifest, dict) or not str(manifest.get("format", "")).startswith(FORMAT_FAMILY):
        return None, FOREIGN
    return manifest, ""


def fresh_identity() -> dict[str, str]:
    """New Chroma collection names (``collection_prefix``) and a new ``index_id`` (which
    marks the collections as this index's): a copied directory keeps both, so moving an
    index to a server gives it fresh ones."""
    return {"collection_prefix": f"sr-{uuid.uuid4().hex[:12]}", "index_id": uuid.uuid4().hex}


def new_manifest(embedder: str) -> dict[str, Any]:
    """A manifest for a new index built with the embedder named ``embedder``."""
    return {"format": FORMAT, "embedder": embedder, **fresh_identity()}


def write_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    write_atomic(directory / MANIFEST, json.dumps(manifest, indent=2))


def check_embedder(manifest: dict[str, Any], embedder: str, directory: Path) -> None:
    """Refuse to search an index with another model than the one that built it (its
    vectors mean nothing to another), saying both ways on: keep its model, or build a new
    index with the other."""
    built = manifest.get("embedder")
    if built != embedder:
        again = command(["index", _SOURCES, "--embedder", embedder], Placeholder("<new directory>"))
        raise ConfigError(
            f"index {directory} was built with embedder {built!r}, not {embedder!r}, and keeps the model "
            f"it was built with: leave the embedder out (index --embedder; Index.open's embedder) to use "
            f"{built!r}, or re-index into a new directory to use {embedder!r}: `{again}`"
        )
