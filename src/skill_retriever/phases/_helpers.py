"""Small helpers the graph phases share: ids to matrix rows, similarity to the query, a
channel's ranked list cut to what the filters admit, where a typed hop leads, and the
state's ids cut to what a view resolved again still holds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from skill_retriever.filters import Filters
from skill_retriever.model import EdgeKind, NodeKind
from skill_retriever.state import ChannelHit, QueryPlan, RelationHop, RetrievalState
from skill_retriever.stores.graph import GraphMatrices
from skill_retriever.stores.snapshot import IndexSnapshot

if TYPE_CHECKING:
    from skill_retriever.context import QueryView


#: State keys that hold item ids as lists of ``{"id": ...}``.
_ID_LISTS = ("seeds", "candidates", "semantic_before_feedback", "fused")


def held_only(state: RetrievalState, view: QueryView) -> tuple[RetrievalState, list[str]]:
    """``state`` with only the items ``view`` holds and shows the caller, and the ids it left out.

    A run resumed from a checkpoint (or one whose pinned view was let go) resolves its view
    again, on the index as it is now (`RetrievalContext.view`), while the seeds, candidates,
    rankings and fused list in its state were read from the snapshot it began on: an item
    deleted since failed the phase that looked it up (``KeyError``), and one hidden from the
    caller since would have been answered. A pinned view wrote every id itself: as it is.
    """
    if not view.resolved_again:
        return state, []
    nodes, visible = view.snapshot.nodes, view.visible
    gone: set[str] = set()

    def held(node_id: str) -> bool:
        node = nodes.get(node_id)
        if node is not None and visible.can_see(node):
            return True
        gone.add(node_id)
        return False

    out: dict[str, Any] = dict(state)
    for key in _ID_LISTS:
        if key in state:
            out[key] = [item for item in state[key] if held(item["id"])]  # type: ignore[literal-required]
    if "channel_rankings" in state:
        out["channel_rankings"] = {ch: [h for h in hits if held(h["id"])] for ch, hits in state["channel_rankings"].items()}
    if "ppr_scores" in state:
        out["ppr_scores"] = {i: s for i, s in state["ppr_scores"].items() if held(i)}
    if "paths" in state:  # a path through an item gone or hidden is no explanation to give
        for target, path in state["paths"].items():
            for node_id in (target, *path["nodes"]):
                held(node_id)
        out["paths"] = {i: p for i, p in state["paths"].items() if gone.isdisjoint((i, *p["nodes"]))}
    return cast("RetrievalState", out), sorted(gone)


def embedded_text(plan: QueryPlan) -> str:
    """What the query's embedding embeds: the search text, without the names its typed hops
    start from when they lead somewhere (``plan_query``)."""
    return plan.get("content_text", plan["search_text"])


def query_vector(state: RetrievalState, view: QueryView) -> NDArray[np.float32]:
    """The query's one embedding, which its view holds (`QueryView.embedding`)."""
    return view.embedding(embedded_text(state["plan"]))


def rows_of(gm: GraphMatrices, ids: Iterable[str]) -> list[int]:
    return [gm.index[i] for i in ids if i in gm.index]


def similarity_fn(emb: NDArray[np.float32], q: NDArray[np.float32]) -> Callable[[NDArray[np.int64]], NDArray[np.float32]]:
    """Cosine to the original query for given rows (vectors are normalised)."""
    return lambda rows: emb[np.asarray(rows, dtype=np.int64)] @ q


def admitted_ranking(
    snapshot: IndexSnapshot, filters: Filters, scored: Sequence[tuple[str, float]], depth: int
) -> list[ChannelHit]:
    """A channel's ranked list, keeping only items every filter admits, best first."""
    pred = snapshot.allowed(filters)
    out: list[ChannelHit] = []
    for node_id, score in sorted(scored, key=lambda p: (-p[1], p[0])):
        if pred is None or pred(node_id):
            out.append({"id": node_id, "score": float(score)})
            if len(out) >= depth:
                break
    return out


def relation_ends(snap: IndexSnapshot, relations: list[RelationHop], visible: Filters) -> dict[str, str]:
    """Far ends of the query's typed hops that the caller may see:
    ``id -> "KIND direction of name"`` (what the seed's ``relation`` explains). Kept on the
    snapshot for the query's hops and caller: ``plan_query`` asks first (does a hop lead
    anywhere?), ``retrieve_seeds`` next (where the walk starts)."""
    key = (tuple((h["kind"], h["name"], h["direction"]) for h in relations), visible)
    return dict(snap.memo("relation_ends", key, lambda: _relation_ends(snap, relations, visible), 8))


def _relation_ends(snap: IndexSnapshot, relations: list[RelationHop], visible: Filters) -> dict[str, str]:
    ends: dict[str, str] = {}
    for hop in relations:
        kind = EdgeKind(hop["kind"])
        for node in snap.nodes_named({hop["name"].casefold()}):
            if not visible.can_see(node):
                continue
            found: list[str] = []
            if hop["direction"] in ("out", "both"):
                found += [e.target for e in snap.out_edges(node.id, kind)]
            if hop["direction"] in ("in", "both"):
                found += [e.source for e in snap.in_edges(node.id, kind)]
            for end in found:  # a fact is a sentence of its passage, never a relation's end
                if end != node.id and visible.can_see(snap.nodes[end]) and snap.nodes[end].kind != NodeKind.FACT:
                    ends.setdefault(end, f"{kind.value} {hop['direction']} of {node.name}")
    return ends


def hop_neighbourhood(snap: IndexSnapshot, relations: list[RelationHop], visible: Filters) -> frozenset[str]:
    """What a typed hop's answer can be: the far ends (``relation_ends``) and the items one
    edge from them, without the items the hops start from. "incidents on the dependencies
    of checkout-api" wants the incidents of payments and auth; the walk from those two
    also flows back through checkout-api, which both touch, and piled more on
    checkout-api's own incident than on theirs."""
    key = (tuple((h["kind"], h["name"], h["direction"]) for h in relations), visible)

    def build() -> frozenset[str]:
        ends = relation_ends(snap, relations, visible)
        starts = {n.id for n in snap.nodes_named({h["name"].casefold() for h in relations})}
        near = set(ends)
        for end in ends:
            for edge in snap.edges_of(end):
                near.update((edge.source, edge.target))
        return frozenset(i for i in near - starts if i in snap.nodes and visible.can_see(snap.nodes[i]))

    return snap.memo("hop_neighbourhood", key, build, 8)
