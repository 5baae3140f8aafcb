"""What a writer's search does when it finds its collections gone from the Chroma server
(deleted, the server's data wiped, or a fresh server at that address).

It raised ``CollectionGone``, whose advice, `repair`, cannot run while the writer holds the
index's lock: the writer's searches failed until it was closed. Now the writer makes the
collections again from ``items.sqlite``, the index's truth, as its next write would
(``ServerSync._make_collections_again``), and searches them. A search does not wait for a
write of its own process under way (an ``index`` run embeds for minutes holding the lock):
it answers from the writer's vectors in memory, and its answer says so, until a search or
write finds the lock free and makes them again.

A writer whose server stops answering searches its own vectors in memory too, as a reader
does (``stores.server_down``): ``items.sqlite`` holds every vector the server mirrors, and
this process holds them all, so its searches raised ``ServerUnreachableError`` for no loss
they could have avoided (and after a write the server missed they searched in memory
already). :class:`WriterDown` asks the server again at ``server_down.next_look``; a write
that reaches it ends that too. Its writes still need the server (each batch is mirrored).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from skill_retriever.exceptions import ServerUnreachableError
from skill_retriever.stores import remote
from skill_retriever.stores.in_memory_search import InMemoryVectors
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.server_down import next_look, unreached_note
from skill_retriever.stores.vectors import VectorHit

__all__ = ["CollectionsAgain", "GoneUnderWriter", "WriterDown"]

log = logging.getLogger("skill_retriever")


class CollectionsAgain(Protocol):
    """The writer (``ServerSync``): makes its collections again when it may."""

    def collections_again(self) -> str:
        """Make them again unless a write holds the lock: "" once the server holds them,
        else why this process searches in memory."""
        ...

    @property
    def gone_note(self) -> str:
        """Why the writer searches in memory now ("" while its collections are there)."""
        ...

    def count_on_server(self) -> None:
        """Ask the server for one count (``ServerUnreachableError`` while it does not answer)."""
        ...


class WriterDown:
    """A writer's server that did not answer a search: its searches run on its own vectors
    until the next look (``server_down.next_look``), a count, finds it answering. Shared by
    the writer's two collections; :attr:`note` is its answers' warning ("" while it answers)."""

    def __init__(self, path: Path) -> None:
        self._path, self._lock = path, threading.Lock()
        self.note, self._failed, self._next = "", 0, 0.0

    def down(self, exc: ServerUnreachableError) -> None:
        """A search or a look found the server down: in memory until the next look."""
        with self._lock:
            self._failed += 1
            self._next = next_look(self._failed, remote.RECHECK_S)
            said, self.note = self.note, unreached_note(self._path, exc)
        loud = said != self.note  # said once, not at each look that finds it down still
        log.log(logging.WARNING if loud else logging.INFO, "[skill_retriever][index] %s", self.note)

    def still_down(self, look: Callable[[], None]) -> bool:
        """Whether to search in memory: the server did not answer, and the next look is not
        due yet or ``look`` finds it down again."""
        if not self.note:
            return False
        if time.monotonic() < self._next:
            return True
        try:
            look()
        except ServerUnreachableError as exc:
            self.down(exc)
            return True
        self.answered()
        return False

    def answered(self) -> None:
        """The server answered (a look, or a write that reached it)."""
        with self._lock:
            self.note, self._failed = "", 0


class GoneUnderWriter:
    """The fallback of a writer's collection (``vectors.OutOfStepSearch``): empty-handed
    until a search finds the collection gone, then the writer's own vectors while it cannot
    make the collections again. One per collection and writer; each snapshot's collection
    shares it, so a snapshot taken before the collections were made again searches them too."""

    def __init__(self, writer: CollectionsAgain, live: LiveState, *, nodes: bool, down: WriterDown) -> None:
        self._writer, self._down = writer, down
        self._memory = InMemoryVectors(self, live, nodes=nodes)

    def in_step(self) -> bool:  # for InMemoryVectors
        return not self._writer.gone_note

    def out_of_step(self) -> bool:
        """Whether to search in memory: the server does not answer (:class:`WriterDown`), or
        the collections are gone and, a write still under way, cannot be made again yet
        (tried once more here, without waiting)."""
        if self._down.still_down(self._writer.count_on_server):
            return True
        return bool(self._writer.gone_note) and bool(self._writer.collections_again())

    def down(self, exc: ServerUnreachableError) -> None:
        """A search found the server down (``vectors.ChromaVectorStore.search_many``)."""
        self._down.down(exc)

    def lost(self) -> None:
        self._writer.collections_again()

    def note(self) -> str:
        """An answer's warning while this writer searches in memory (asks nothing)."""
        return self._down.note or self._writer.gone_note

    def search_many(
        self, vectors: Any, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]:
        return self._memory.search_many(vectors, k, where=where, ids=ids)
