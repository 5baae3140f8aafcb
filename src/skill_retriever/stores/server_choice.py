"""Which Chroma server an index uses: a ``--chroma-url`` checked before anything acts on
it, and a writer's open that moves the index to another server.

A writer opened with a ``chroma_url`` that is not its manifest's server moves the index
there in new collections with a fresh identity (``manifest.fresh_identity``), as
``move-to-server`` does: a ``cp -r`` copy keeps its original's collection names and
``index_id``, and keeping them on the new server gave the copy's collections there the
original's names and owner mark, so the original, moved to that server later, was refused
as "a copy" of its own copy. ``index.json`` names the new server only once the writer has
opened those collections as its own (:func:`record_switch`), so an open that fails before
then leaves it as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.advice import Placeholder, command
from skill_retriever.exceptions import ConfigError, IndexOpenError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.chroma_connect import check_chroma_server, check_chroma_url
from skill_retriever.stores.server_errors import one_server

__all__ = ["checked_url", "record_switch", "switch_target", "switched", "usable_server"]

log = logging.getLogger("skill_retriever")

#: The manifest fields a writer's switch renews (the collection names and their owner mark).
_IDENTITY = ("collection_prefix", "index_id")


def checked_url(url: str) -> str:
    """``url`` when it names a Chroma server address (``stores.chroma_connect.check_chroma_url``).

    A blank one is refused here: ``urlparse`` reads ``"   "`` as a host of three spaces,
    which passes the address check and then fails at the server as something else.

    Raises:
        ConfigError: ``url`` is blank, or not a Chroma server address.
    """
    if not str(url).strip():
        raise ConfigError(
            f"--chroma-url {url!r} is blank; give the server's address, e.g. http://127.0.0.1:8000, or leave "
            "the option out (the index keeps the server its index.json names, if any; to search in memory again, "
            f"run `{command(['move-to-embedded', '--index-dir', Placeholder('DIR')])}`)"
        )
    return check_chroma_url(url)


def usable_server(url: str) -> str:
    """``url`` once the Chroma server there answered: checked before a command records
    anything of it (``move-to-server``'s pending collections, ``index.json``).

    Raises:
        ConfigError: ``url`` is blank or no server address, or a CA setting names no bundle.
        ServerUnreachableError: Nothing answers at ``url`` (what to do).
        IndexCorruptError: The server answers but cannot be used (https spoken to a
            plain-http server, another web server): why, and what to do.
    """
    checked_url(url)
    check_chroma_server(url)
    return url


def switch_target(manifest: Mapping[str, Any], chroma_url: str | None, *, writable: bool) -> str | None:
    """The server an open of the index ``manifest`` describes is to use instead of the
    manifest's (None: the manifest's): ``chroma_url`` when given, unless a writer is given
    another spelling of the manifest's own server (it keeps the manifest's). A writer's new
    server is checked first: it must answer before ``index.json`` can name it.

    Raises:
        ConfigError, ServerUnreachableError, IndexCorruptError: As :func:`usable_server`.
    """
    other = None if writable and one_server(chroma_url, manifest.get("chroma_url")) else chroma_url
    if other and writable:
        usable_server(other)
    return other


def switched(manifest: Mapping[str, Any], url: str, *, writer: bool) -> dict[str, Any]:
    """``manifest`` on the server at ``url``: a writer's in new collections with a fresh
    identity (what :func:`record_switch` later writes); a reader's with its own, written
    nowhere (it searches what is there, and creates nothing)."""
    return {**manifest, "chroma_url": url, **(mf.fresh_identity() if writer else {})}


def record_switch(path: Path, manifest: Mapping[str, Any], *, on_server: bool) -> bool:
    """Write a writer's ``manifest`` to ``index.json`` once its server collections are open
    as its own (``on_server``), when it is a switch :func:`switched` made: its collection
    identity is not the one on disk. Whether it was written."""
    if not on_server:
        return False
    try:
        on_disk = mf.read_manifest(path)
    except IndexOpenError:  # none readable: the open that recreates it writes its own
        return False
    if all(on_disk.get(k) == manifest.get(k) for k in _IDENTITY):
        return False
    mf.write_manifest(path, dict(manifest))
    # INFO: `repair` says it on stdout with what the old server keeps (``server_moves.server_switch``).
    log.info(
        "[skill_retriever][index] %s now uses the Chroma server at %s, in new collections (%s before)",
        path, manifest.get("chroma_url"), on_disk.get("chroma_url") or "in memory",
    )
    return True
