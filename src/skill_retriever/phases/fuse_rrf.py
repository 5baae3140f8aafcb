"""fuse_rrf: weighted Reciprocal Rank Fusion of every channel's list (k = 60; Cormack et
al. 2009), or score fusion weighted by each channel's confidence for this query
(``fusion="scores"``, ``algorithms.score_fusion``), plus a "named" list of the items whose identifier-like name, or whose id
(`written_ids`), the query writes out. A text channel's entries inside the query's time window count past
the depth too: they came from its search inside the window (`window_hits`). Two weights follow the query: the graph channel's rises for a typed hop (the one
channel that reads the relation), the temporal channel's for a time window. The weights
used are reported in the stats, so a fused score can be checked against its ranks.

Score fusion reads two lists as what the query asked for, not by their scores alone:

* a time window's list is the set of items inside it, each alike. Its scores say only how
  recent an item is, and the newest one outweighed the item the text and the graph agreed
  on ("two writes blocked each other forever ... in the past 7 days");
* the items that more of the asked-for lists hold (a typed hop's walk, a time window) come
  first, each tier in fused order (``algorithms.score_fusion.listed_first``). A walk's
  scores fall steeply past the ends nearest its start, and text matches with no tie to
  the hop came in between ("deploys shipped to the dependencies of checkout-api": three of
  its seven answers below four deploys of other services); an incident outside the
  window came before those inside it. For a typed hop the tiers count what the question
  asked (`_hop_tier`): to lie next to the hop's far ends rather than anywhere the walk
  reached (the walk also flows back through the item the hop names, and piled more on
  that item's own incident than on its dependencies'), to be of the kind its words name
  ("the deploy of a service that ledger-db depends on" wants deploys, with no kinds
  filter), and to lie inside the window. With the benchmark's row "fusion, no kinds
  filter" (the question as a user types it), MRR 63.3 -> 84.6; with the kinds filter,
  R@10 90.2 -> 91.6 and MRR unchanged (commits 823761d -> ba8af5a).

Measured on the incident benchmark (``skill-retriever benchmark --only incidents``), the
default search on the operations graph, which these rules came with
(``calibration.defaults``): MRR / R@10 90.3 / 88.1 with RRF (commit c168de3), 96.1 / 90.2
with score fusion and both rules (cf1817e); ``--world-seed 11`` and ``23`` (a1b6007), which nothing
was chosen on, 92.7 / 90.0 and 94.3 / 91.2. By their scores alone, the newest item in
the window came first on "mixed" questions, and a walk's far ends fell below text
matches on "connected" ones. No judged catalogue set has a dated item or a typed hop
that resolves, so no other set moves."""

from __future__ import annotations

from collections.abc import Callable

from skill_retriever.algorithms.fixed_depth import head_of, with_deeper
from skill_retriever.algorithms.rrf import FusedItem, reciprocal_rank_fusion
from skill_retriever.algorithms.score_fusion import listed_first, score_fusion, tiered
from skill_retriever.algorithms.tokenize import is_identifier
from skill_retriever.calibration import calibration_of
from skill_retriever.context import QueryView
from skill_retriever.named_query import whole_query_names
from skill_retriever.phases._helpers import hop_neighbourhood
from skill_retriever.phases._phase import Update, phase
from skill_retriever.phases.window_hits import in_window_past
from skill_retriever.state import Fused, RetrievalState
from skill_retriever.written_ids import ids_written


@phase(optional=False)
def fuse_rrf(state: RetrievalState, view: QueryView) -> Update:
    config, depth = view.config, view.fusion_depth
    # Only each list's first `depth` entries are fused; the entries past it, there for a
    # k above it, only append (algorithms.fixed_depth): a larger k never reorders the top.
    channels = {ch: hits for ch, hits in (state.get("channel_rankings") or {}).items() if config.channel_on(ch)}
    whole = {ch: [h["id"] for h in hits] for ch, hits in channels.items()}
    rankings = head_of(whole, depth)
    window = frozenset(whole.get("temporal", ()))  # a time window's items: kept past the depth too (window_hits)
    if window:
        rankings = in_window_past(rankings, whole, depth, window, lambda i: i)
    if config.channel_on("named") and (named := named_items(state, view)):
        rankings["named"] = named  # every item the query names, however many: no k in it
    weights = dict(config.channel_weights)
    calibration = calibration_of(view.snapshot) if config.use_calibration else None
    if calibration is not None:  # what this index learned about its channels
        weights = {ch: w * calibration.weight(ch) for ch, w in weights.items()}
    if state.get("relational") and "graph" in weights:
        weights["graph"] *= config.relation_graph_boost
    if state["plan"].get("time_window") and "temporal" in weights:
        weights["temporal"] *= config.temporal_window_boost
    if config.fusion == "scores":
        pairs = {ch: [(h["id"], h["score"]) for h in hits] for ch, hits in channels.items()}
        scored: dict[str, list[tuple[str, float | None]]] = head_of(pairs, depth)
        if window:
            scored = in_window_past(scored, pairs, depth, window, lambda p: p[0])
        if "temporal" in scored:  # the window as a set (the module docstring)
            scored["temporal"] = [(i, None) for i, _ in scored["temporal"]]
        if "named" in rankings:
            scored["named"] = [(i, None) for i in rankings["named"]]
        # A typed hop's walk is what the query asked for, however flat its scores.
        fused = score_fusion(scored, weights, confident={"graph"} if state.get("relational") else ())
        if state.get("relational"):
            fused = tiered(fused, _hop_tier(state, view, window="temporal" in scored))
        elif "temporal" in scored:
            fused = listed_first(fused, {"temporal"})
    else:
        fused = reciprocal_rank_fusion(rankings, k=config.rrf_k, weights=weights)
    fused_head = len(fused)
    fused = with_deeper(fused, whole, depth, weights)
    out: list[Fused] = [{"id": f.id, "score": f.score, "ranks": dict(f.ranks)} for f in fused]
    return {
        "fused": out,
        "stats": {
            "fusion": config.fusion,
            "k": config.rrf_k,
            "channels": {ch: len(ids) for ch, ids in rankings.items()},
            "fused": len(fused),
            "depth": depth,
            "appended_past_depth": len(fused) - fused_head,
            "weights": weights,
        },
    }


def named_items(state: RetrievalState, view: QueryView) -> list[str]:
    """Items every filter admits whose identifier-like name the query writes out, or whose
    name the whole query is (`named_query`); the item a typed hop starts from is left out
    (the question is about its neighbours)."""
    plan = state["plan"]
    hop_names = {r["name"].casefold() for r in plan.get("relations", [])}
    names = ({e.casefold() for e in plan["entities"] if is_identifier(e)} | whole_query_names(plan["query"])) - hop_names
    # and the ids it writes out: an incident's ticket is often its id, its name a title
    ids = ids_written(plan["search_text"][: view.config.plan_query_chars], view.snapshot)
    if not names and not ids:
        return []
    admits = view.snapshot.allowed(view.filters)
    found = {n.id for n in view.snapshot.nodes_named(names)} | ids
    return sorted(i for i in found if admits is None or admits(i))


def _hop_tier(state: RetrievalState, view: QueryView, *, window: bool) -> Callable[[FusedItem], int]:
    """A typed hop's tiers: how many of what the query asked for an item meets: to lie
    next to where the hop leads (``hop_neighbourhood``, not anywhere the walk reached), to
    be of the kind its words name ("the deploy of a service that ledger-db depends on"),
    to lie inside its time window."""
    plan = state["plan"]
    near = hop_neighbourhood(view.snapshot, plan.get("relations", []), view.visible)
    kind, nodes = plan.get("answer_kind"), view.snapshot.nodes

    def tier(f: FusedItem) -> int:
        node = nodes.get(f.id)
        return (f.id in near) + (kind is not None and node is not None and node.kind == kind) + (
            window and "temporal" in f.ranks)

    return tier
