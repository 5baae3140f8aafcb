"""A reader that opened (or followed a move) while its Chroma server could not be searched
for the index (its collections missing, another number of vectors than the index, another
index's or model's collections) looks at the server again while it searches in memory.

It decided once, at open, and searched in memory for as long as it lived: after `repair`
had filled the server, a long-running reader (an MCP server, an app) still searched in
memory, each answer still advising that `repair`. Now it asks again at its next snapshot
once every :data:`remote.RECHECK_S` (a reader searching the server already pays nothing),
and takes the server up once it holds the index's vectors; a problem it said already is
not said again, a new one is.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import IndexOpenError
from skill_retriever.stores import remote
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.snapshot import RemoteVectors

__all__ = ["ServerRetake"]

log = logging.getLogger("skill_retriever")


class ServerRetake:
    """When a reader searching in memory for want of its server looks at it again."""

    #: The longest wait between two looks at a server that failed to answer: one that hangs
    #: holds a query for its timeout at each look, so those are spaced out.
    MOST_S = 300.0

    def __init__(self) -> None:
        self._next, self._failed = time.monotonic() + remote.RECHECK_S, 0

    def asked(self) -> None:
        """The reader asked its server just now (at its open, or following a move): the next
        look is :data:`remote.RECHECK_S` from now. Timed from its construction, a look fell
        due at the first snapshot after an ask that waited past the spacing for the server
        (a paused one holds it for the read probe), and asked it again at once."""
        self._next, self._failed = time.monotonic() + remote.RECHECK_S, 0

    def due(self, live: LiveState, searched: RemoteVectors | None) -> bool:
        """Whether to look now: it searches in memory for want of its server, and last looked
        :data:`remote.RECHECK_S` ago (a reader searching the server has its own check)."""
        return searched is None and bool(live.in_memory_note) and time.monotonic() >= self._next

    def look(
        self, manifest: dict[str, Any], embedder: Embedder, path: Path, live: LiveState
    ) -> tuple[RemoteVectors | None, bool]:
        """The server, when it can be searched for the index now, else None (and
        ``live.in_memory_note`` says why, warned when it says something new); and whether
        the reader's snapshot is to be taken again (the server, or a new note)."""
        before = live.in_memory_note
        try:
            found = remote.remote_of(manifest, embedder, path=path, live=live, writer=False, warn=False)
        except IndexOpenError as exc:  # down now, or unusable: still in memory, as said before
            self._failed += 1
            self._next = time.monotonic() + min(remote.RECHECK_S * 2**self._failed, self.MOST_S)
            log.info("[skill_retriever][index] looked at the Chroma server of %s again: %s", path, exc)
            return None, False
        self._next, self._failed = time.monotonic() + remote.RECHECK_S, 0
        if found is not None:
            log.info("[skill_retriever][index] the Chroma server of %s holds its vectors: searching it again", path)
            return found, True
        if live.in_memory_note != before:
            log.warning("[skill_retriever][index] %s", live.in_memory_note)
            return None, True
        return None, False
