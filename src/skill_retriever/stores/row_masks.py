"""Which rows of a snapshot's graph a filter admits (`IndexSnapshot.allowed_mask`).

A passage query asks for two masks that name kinds only (the answer kinds, then the
facts); asking `Filters.admits` of each of 61,079 nodes took about 0.1 s a mask. Where no
node carries access labels and the filter names nothing but kinds, the answer depends on
each row's kind alone: the kinds are read once per snapshot, as small codes, and each
such mask is one comparison over them. Any other filter asks every node, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from skill_retriever.filters import Filters
from skill_retriever.model import Node, NodeKind

V = TypeVar("V")
_KINDS = tuple(NodeKind)


class Memo(Protocol):
    """`IndexSnapshot.memo`: a value kept with the snapshot."""

    def __call__(self, table: str, key: Hashable, build: Callable[[], V], size: int = 1) -> V: ...


def admitted_rows(
    nodes: Mapping[str, Node], ids: Sequence[str], f: Filters, labelled: bool, memo: Memo
) -> NDArray[np.bool_]:
    """For each of ``ids`` (a snapshot's graph rows): whether ``f`` admits its node.
    ``labelled``: whether any node carries access labels."""
    if f.kinds is not None and f.tags is None and f.since is None and f.until is None and not labelled:
        wanted = np.fromiter((k.value in f.kinds for k in _KINDS), dtype=bool, count=len(_KINDS))
        return wanted[row_kinds(nodes, ids, memo)]
    return np.fromiter((f.admits(nodes[i]) for i in ids), dtype=bool, count=len(ids))


def row_kinds(nodes: Mapping[str, Node], ids: Sequence[str], memo: Memo) -> NDArray[np.intp]:
    """The kind of each row's node, as its position in `NodeKind` (kept with the snapshot)."""

    def build() -> NDArray[np.intp]:
        code = {k: i for i, k in enumerate(_KINDS)}
        return np.fromiter((code[nodes[i].kind] for i in ids), dtype=np.intp, count=len(ids))

    return memo("row_kinds", None, build)


__all__ = ["Memo", "admitted_rows", "row_kinds"]
