"""What a writer's search does when it finds its collections gone from the Chroma server
(deleted, the server's data wiped, or a fresh server at that address).

It raised ``CollectionGone``, whose advice, `repair`, cannot run while the writer holds the
index's lock: the writer's searches failed until it was closed. Now the writer makes the
collections again from ``items.sqlite``, the index's truth, as its next write would
(``ServerSync._make_collections_again``), and searches them. A search does not wait for a
write of its own process under way (an ``index`` run embeds for minutes holding the lock):
it answers from the writer's vectors in memory, and its answer says so, until a search or
write finds the lock free and makes them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from skill_retriever.stores.in_memory_search import InMemoryVectors
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.vectors import VectorHit

__all__ = ["CollectionsAgain", "GoneUnderWriter"]


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


class GoneUnderWriter:
    """The fallback of a writer's collection (``vectors.OutOfStepSearch``): empty-handed
    until a search finds the collection gone, then the writer's own vectors while it cannot
    make the collections again. One per collection and writer; each snapshot's collection
    shares it, so a snapshot taken before the collections were made again searches them too."""

    def __init__(self, writer: CollectionsAgain, live: LiveState, *, nodes: bool) -> None:
        self._writer = writer
        self._memory = InMemoryVectors(self, live, nodes=nodes)

    def in_step(self) -> bool:  # for InMemoryVectors
        return not self._writer.gone_note

    def out_of_step(self) -> bool:
        """Whether to search in memory: the collections are gone and, a write still under
        way, cannot be made again yet (tried once more here, without waiting)."""
        return bool(self._writer.gone_note) and bool(self._writer.collections_again())

    def lost(self) -> None:
        self._writer.collections_again()

    def note(self) -> str:
        """An answer's warning while this writer searches in memory (asks nothing)."""
        return self._writer.gone_note

    def search_many(
        self, vectors: Any, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]:
        return self._memory.search_many(vectors, k, where=where, ids=ids)
