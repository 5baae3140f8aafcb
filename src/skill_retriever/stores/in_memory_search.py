"""What a reader searches while its Chroma server is out of step with the index (it lacks
vectors, holds others, or lost its collections): the index's own vectors, exactly, with
the metadata filters a server search would apply (``stores.remote`` decides when)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from skill_retriever.exceptions import ServerUnreachableError
from skill_retriever.filters import vector_metadata
from skill_retriever.stores.exact_search import top_k
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.vectors import VectorHit

__all__ = ["InMemoryVectors", "InStepCheck", "ReaderCheck", "ReaderVectors"]


class InStepCheck(Protocol):
    """Whether the server holds the index's vectors (judged cheaply, see ``stores.remote``)."""

    def in_step(self) -> bool: ...

    def lost(self) -> None: ...


class ReaderCheck(InStepCheck, Protocol):
    """A reader's check, which also hears of a server that did not answer (``stores.server_down``)."""

    #: Why the server did not answer at the last look ("" when it did).
    unreached: str

    def down(self, exc: ServerUnreachableError) -> None: ...


class InMemoryVectors:
    """A reader's collection searched exactly over the index's own vectors, while ``check``
    (``remote._InStep``) finds the server out of step (``vectors.OutOfStepSearch``)."""

    def __init__(self, check: InStepCheck, live: LiveState, *, nodes: bool) -> None:
        self._check, self._live, self._nodes = check, live, nodes
        self._built: tuple[int, list[str], NDArray[np.float32], list[dict[str, Any]]] | None = None

    def out_of_step(self) -> bool:
        return not self._check.in_step()

    def lost(self) -> None:
        self._check.lost()

    def search_many(
        self, vectors: Any, k: int, *, where: Mapping[str, Any] | None = None, ids: Sequence[str] | None = None
    ) -> list[list[VectorHit]]:
        names, matrix, metas = self._matrix()
        wanted = None if ids is None else set(ids)
        keep = ((wanted is None or i in wanted) and (not where or _matches(m, where)) for i, m in zip(names, metas))
        mask = None if wanted is None and not where else np.fromiter(keep, dtype=bool, count=len(names))
        rows = top_k(matrix, np.asarray(vectors, dtype=np.float32), k, mask)
        return [[VectorHit(names[r], score) for r, score in hits] for hits in rows]

    def _matrix(self) -> tuple[list[str], NDArray[np.float32], list[dict[str, Any]]]:
        """The index's vectors as a matrix, built once per version."""
        live, built = self._live, self._built
        if built is None or built[0] != live.version:
            version = live.version
            nodes, edges = dict(live.nodes), dict(live.edges)  # copies: a catch-up may change them meanwhile
            vecs = dict(live.node_vectors if self._nodes else live.edge_vectors)
            names = [i for i in vecs if i in (nodes if self._nodes else edges)]
            matrix = np.stack([vecs[i].vector for i in names]) if names else np.zeros((0, 0), dtype=np.float32)
            # Only node searches filter on metadata (the snapshot judges an edge by its ends).
            metas = [vector_metadata(nodes[i], vecs[i].vhash) if self._nodes else {} for i in names]
            built = self._built = (version, names, matrix, metas)
        return built[1], built[2], built[3]


class ReaderVectors(InMemoryVectors):
    """A reader's fallback, searched also while its server does not answer."""

    def __init__(self, check: ReaderCheck, live: LiveState, *, nodes: bool) -> None:
        super().__init__(check, live, nodes=nodes)
        self._reader = check

    def down(self, exc: ServerUnreachableError) -> None:
        """A search found the server down (``stores.server_down``)."""
        self._reader.down(exc)

    def down_note(self) -> str:
        """Why the server did not answer at the last look ("" when it did)."""
        return self._reader.unreached


def _matches(meta: Mapping[str, Any], where: Mapping[str, Any]) -> bool:
    """Whether a vector's metadata passes a Chroma ``where`` filter of the shapes
    ``filters.chroma_where`` writes (``$and``, ``$or``, ``$in``, ``$contains``, equality);
    ValueError for another operator (rather than judge it wrongly)."""
    for key, cond in where.items():
        if key in ("$and", "$or"):
            results = (_matches(meta, c) for c in cond)
            ok = all(results) if key == "$and" else any(results)
        elif not isinstance(cond, Mapping):
            ok = meta.get(key) == cond
        elif set(cond) == {"$in"}:
            ok = meta.get(key) in cond["$in"]
        elif set(cond) == {"$contains"}:
            ok = cond["$contains"] in (meta.get(key) or ())
        else:
            raise ValueError(f"the vector filter {dict(cond)!r} on {key!r} has an operator the reader's fallback does not know")
        if not ok:
            return False
    return True
