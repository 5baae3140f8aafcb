"""An index that opens while its Chroma server is down, for a long-lived reader (the MCP server).

``skill-retriever mcp`` opened its index before the MCP handshake, so a Chroma server
that was down at that moment made it exit 2: Claude Code showed the server as failed and
never started it again, although a running MCP server outlives an outage and recovers
when the server is back. :class:`ServerWaitingIndex` opens anyway when only the server
cannot be reached (:class:`ServerUnreachableError`; a missing or damaged index still
fails at open), and each :meth:`~ServerWaitingIndex.snapshot` tries the server again,
raising the error (which names the server and how to start it) until it answers. A
writer still needs its server at once: it creates and syncs the collections.
"""

from __future__ import annotations

import time

from skill_retriever.exceptions import ServerUnreachableError
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot, RemoteVectors

__all__ = ["ServerWaitingIndex"]


class ServerWaitingIndex(Index):
    """An :class:`Index` whose reader opens while its Chroma server cannot be reached, and
    takes the server up at the first snapshot after it answers (open it with ``open``)."""

    #: Why the server could not be reached at the last try (None: it was reached, or none is used).
    unreached: ServerUnreachableError | None = None
    #: When the tries in a row that could not reach it began (``time.time()``; None: reached).
    unreached_since: float | None = None

    def _server(self) -> RemoteVectors | None:
        try:
            remote = super()._server()
        except ServerUnreachableError as exc:
            if self._lock.held:  # a writer creates and syncs its collections: it cannot wait
                raise
            self.unreached, self.unreached_since = exc, self.unreached_since or time.time()
            return None
        self.unreached = self.unreached_since = None
        return remote

    def snapshot(self) -> IndexSnapshot:
        """The last committed state; while the server has not answered since the open, it
        is tried first.

        Raises:
            ServerUnreachableError: It still cannot be reached (what to do: start it).
        """
        if self.unreached is not None and not self._closed:
            if not self._lock.held:
                self._catch_up()  # index.json moved meanwhile (move-to-embedded): follow it
            with self._refresh_lock:
                if self.unreached is not None:
                    remote = self._server()
                    if self.unreached is not None:
                        raise self.unreached
                    with self._state_lock:
                        self._remote, self._snapshot = remote, None
        return super().snapshot()
