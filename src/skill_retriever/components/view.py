"""`CallerView`: one snapshot of the index as one caller may see it.

Every component feature (search, dependency closure, conflicts, near-duplicates,
rationales, install plans, installed-item matching, the MCP tools and their status
resource) reads the index through a view and nothing else, so what a caller may not see
cannot reach an answer, a plan, a count, a warning or a written file by any route: it is
not there to be read. A private item is never named, counted or hinted at ("N hidden
requirements" would say that something hidden exists); to the caller it does not exist.
So a requirement (or a declared conflict) the index resolved to a private copy leads them
to the copy of that name they see, where there is one (`stand_ins`): their answer is the
one an index without the private copy would give.

A view pins one snapshot, so a request that builds one at its start reads one committed
state throughout: a concurrent delete cannot make it fail half way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from skill_retriever.components.stand_ins import (
    LED_KINDS,
    NO_STAND_INS,
    StandIns,
    led_on,
    stand_ins_of,
)
from skill_retriever.exceptions import MissingNodeError
from skill_retriever.filters import Filters, names_of
from skill_retriever.model import Edge, EdgeKind, Node
from skill_retriever.stores.graph import GraphMatrices
from skill_retriever.stores.snapshot import IndexSnapshot

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

__all__ = ["CallerView", "as_view"]

_VIEWS_KEPT = 16  # distinct principal sets whose visible-node maps a snapshot keeps


class CallerView:
    """The nodes and edges of one snapshot that ``principals`` may see.

    Args:
        snapshot: The pinned snapshot.
        principals: The caller's access principals; None and ``[]`` both see public
            items only, ``["*"]`` sees everything.
    """

    def __init__(self, snapshot: IndexSnapshot, principals: Iterable[str] | None) -> None:
        self.snapshot = snapshot
        chosen = names_of(principals, "principals")
        self.filters = Filters(principals=chosen)
        self._pred = snapshot.allowed(self.filters)  # None: every node is visible

    @classmethod
    def of(cls, index: Index, principals: Iterable[str] | None) -> CallerView:
        """A view of the index's current snapshot."""
        return cls(index.snapshot(), principals)

    @property
    def principals(self) -> frozenset[str] | None:
        return self.filters.principals

    @property
    def version(self) -> int:
        """The version of the last write this caller could see (`stores.seen_versions`)."""
        return self.snapshot.version_for(self.filters)

    @property
    def path(self) -> Path:
        return self.snapshot.path

    # -- nodes ------------------------------------------------------------------------
    def sees(self, node_id: str) -> bool:
        """Whether the node exists in this snapshot and the caller may see it."""
        if self._pred is None:
            return node_id in self.snapshot.nodes
        return self._pred(node_id)

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, str) and self.sees(node_id)

    @cached_property
    def nodes(self) -> Mapping[str, Node]:
        """The visible nodes (kept on the snapshot per principal set)."""
        snap, pred = self.snapshot, self._pred
        if pred is None:
            return snap.nodes

        def build() -> Mapping[str, Node]:
            return MappingProxyType({i: n for i, n in snap.nodes.items() if pred(i)})

        return snap.memo("caller-nodes", self.principals, build, _VIEWS_KEPT)

    @property
    def may_hide(self) -> bool:
        """Whether the index may hold items this caller may not see: some item has access
        labels and the caller does not see everything. What the view lacks may then exist
        all the same, so an answer must not say that the index lacks it."""
        return self._pred is not None and self.snapshot.has_access_labels

    def get(self, node_id: str) -> Node:
        """The node, when visible.

        Raises:
            MissingNodeError: It does not exist here or the caller may not see it (one
                message for both: the answer must not tell them apart).
        """
        if not self.sees(node_id):
            raise MissingNodeError(f"no component {node_id!r:.200} in the index")
        return self.snapshot.nodes[node_id]

    def name_of(self, node_id: str) -> str:
        """The node's name, or the id itself when it is not visible."""
        return self.snapshot.nodes[node_id].name if self.sees(node_id) else node_id

    def named(self, ref: str) -> list[Node]:
        """Visible nodes whose name is ``ref`` (case-insensitive)."""
        return [n for n in self.snapshot.nodes_named({ref.casefold()}) if self.sees(n.id)]

    # -- edges between visible nodes --------------------------------------------------
    @cached_property
    def stand_ins(self) -> StandIns:
        """Where a requirement that resolved to a hidden item leads this caller instead
        (`stand_ins`; kept on the snapshot per principal set)."""
        snap, pred = self.snapshot, self._pred
        if pred is None or not self.may_hide:
            return NO_STAND_INS
        return snap.memo("caller-stand-ins", self.principals, lambda: stand_ins_of(snap, pred), _VIEWS_KEPT)

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        """Edges to visible nodes; a requirement or a declared conflict resolved to a hidden
        item leads to its visible stand-in, where one answers to its name (`stand_ins`)."""
        if not self.sees(node_id):
            return []
        edges = self.snapshot.out_edges(node_id, kind)
        swap = self.stand_ins.out.get(node_id) if kind is None or kind in LED_KINDS else None
        if swap:
            return led_on(edges, self.sees, swap)
        return [e for e in edges if self.sees(e.target)]

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        """Edges from visible nodes, and the requirements and conflicts led here (`out_edges`)."""
        if not self.sees(node_id):
            return []
        edges = [e for e in self.snapshot.in_edges(node_id, kind) if self.sees(e.source)]
        if kind is None or kind in LED_KINDS:
            edges += self.stand_ins.led_into(node_id, kind)
        return edges

    # -- what dedup and budgets read ----------------------------------------------------
    @property
    def graph(self) -> GraphMatrices:
        """The snapshot's matrices (rows of invisible nodes too: mask with `row_mask`)."""
        return self.snapshot.graph

    @property
    def embeddings(self) -> NDArray[np.float32]:
        return self.snapshot.embeddings

    def row_mask(self) -> NDArray[np.bool_] | None:
        """Which rows of :attr:`graph` are visible; None when all are."""
        return self.snapshot.allowed_mask(self.filters)

    def token_count(self, node_id: str, encoding: str) -> int:
        return self.snapshot.token_count(self.get(node_id), encoding)

    def status(self) -> dict[str, Any]:
        """Counts of what the caller may see (nothing else is counted)."""
        return self.snapshot.status(self.filters)


def as_view(source: Index | CallerView, principals: Iterable[str] | None) -> CallerView:
    """``source`` itself when it is a view, else a view of its current snapshot."""
    if isinstance(source, CallerView):
        return source
    return CallerView(source.snapshot(), principals)
