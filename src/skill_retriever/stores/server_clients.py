"""One chromadb ``HttpClient`` per Chroma server (and client settings) per process.

chromadb 1.x gives every ``HttpClient`` a ``System`` of its own (an HTTP session with its
connection pool, an admin client) and keeps it in a class-level table until ``close()``.
Nothing here closed them, and every index opened, ``stats``, writer and move built one:
a process that opened an index on a server 1,000 times (an app opening it per request)
held 3,009 systems, 2,012 open file descriptors and 1.8 GB (``bench/client_leak.py``,
README "Scaling"), and a default limit of 1,024 descriptors ended it near 500.

So clients are shared: one per (process, server address, settings, CA environment),
kept for the life of the process, so at most one per server a process talks to. A shared
client is safe across threads (its session is a thread-safe HTTP connection pool) and across a server
restart (the pool drops a connection the server closed and opens a new one). It is used
only once a heartbeat has just answered (``chroma_connect.chroma_client``): when none did, a new
client is built, so that it fails as before, in chromadb's words that the error messages
read.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from skill_retriever.stores.server_errors import url_parts

__all__ = ["client_key", "keep_client", "shared_client"]

_lock = threading.Lock()
_clients: dict[tuple[object, ...], Any] = {}


def client_key(url: str, settings: Any) -> tuple[object, ...]:
    """What a client depends on: the process (a forked child never shares its parent's
    sockets), the server (one spelling of it), chromadb's settings (credentials read from
    the environment among them) and the CA bundles the HTTP library trusts."""
    dumped = settings.model_dump() if hasattr(settings, "model_dump") else dict(settings)
    return (
        os.getpid(),
        url_parts(url),
        repr(sorted(dumped.items())),
        os.environ.get("SSL_CERT_FILE"),
        os.environ.get("SSL_CERT_DIR"),
    )


def shared_client(key: tuple[object, ...]) -> Any | None:
    """The client kept for ``key``, if any."""
    with _lock:
        return _clients.get(key)


def keep_client(key: tuple[object, ...], client: Any) -> Any:
    """Keep ``client`` for ``key`` and return it; when another thread kept one for ``key``
    meanwhile, close ``client`` (nobody else holds it) and return that one."""
    with _lock:
        kept = _clients.get(key)
        if kept is None or kept is client:
            _clients[key] = client
            return client
    client.close()
    return kept
