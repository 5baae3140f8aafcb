"""retrieve_seeds: the semantic channel, and the seeds the graph routes start from.

One dense search over nodes (the semantic channel's ranked list, with every filter) and
one over edges (a matching relation seeds both its ends). Seeds only need to be visible
to the caller, not of a requested kind: an entity node can lead to the passages.

When facts seed the walk (``fact_seeds`` > 0 and the index holds FACT nodes: a passage
corpus, see ``calibration``), the best facts and the entities they name replace the
nodes nearest the query as seeds (HippoRAG 2's query-to-triple linking instead of
query-to-node; ``algorithms.restart.fact_seeds``), and an entity the query names seeds
with ``named_seed_weight``.

With a time window in the query, the window's own best matches join the list
(`window_hits`). With ``feedback_docs`` > 0 (a catalogue of long items: ``calibration.defaults``), the
semantic channel's list is a second search, with the query moved toward the best items of
a first keyword + semantic fusion (``algorithms.feedback``); the seeds and the "nothing
fits" judgement keep the first search, against the query alone.

Tried for the semantic channel and left out (December 2026, skills dev and metatool,
scratch patches of its search): each of a request's asks (`algorithms.clauses`) embedded
on its own, their mean or best cosine mixed into the query's (skills dev's nDCG@10 fell at
every mix); and a hubness correction of the cosine (CSLS, Conneau et al. 2018: each item's
mean cosine to its 10 nearest items, times a weight, subtracted), which lowered metatool's
dense search at every positive weight and raised it by well under a point with the sign
turned. Both need no labels; neither earned its cost.
"""

from __future__ import annotations

import numpy as np

from skill_retriever.advice import command
from skill_retriever.algorithms.feedback import feedback_items, rocchio
from skill_retriever.algorithms.fixed_depth import searched_past_depth
from skill_retriever.algorithms.restart import FactHit, fact_seeds
from skill_retriever.context import QueryView
from skill_retriever.filters import Filters
from skill_retriever.model import NodeKind
from skill_retriever.phases._helpers import query_vector, relation_ends
from skill_retriever.phases._phase import Update, phase
from skill_retriever.phases.window_hits import window_filters, with_window_hits
from skill_retriever.state import Candidate, ChannelHit, RetrievalState
from skill_retriever.stores import run_marks
from skill_retriever.stores.kind_counts import kind_counts
from skill_retriever.stores.passage_views import (
    answer_filters,
    fact_links,
    proper_name_ids,
    search_facts,
    search_within,
)
from skill_retriever.stores.snapshot import IndexSnapshot
from skill_retriever.stores.vectors import VectorHit

MIN_SEEDS = 3  # when nothing clears the similarity threshold, start from the best few


@phase(optional=False)
def retrieve_seeds(state: RetrievalState, view: QueryView) -> Update:
    config, snap, filters, visible = view.config, view.snapshot, view.filters, view.visible
    qvec = query_vector(state, view)

    # The first `fusion_depth` hits as a search that deep finds them, whatever k asks past
    # it (ties at the cut included): a larger k only appends (algorithms.fixed_depth).
    answers = answer_filters(snap, filters)
    semantic = searched_past_depth(lambda n: search_within(snap, qvec, n, answers), view.fusion_depth,
                                   config.channel_depth)
    same = filters.kinds is None and filters.tags is None and filters.since is None and filters.until is None
    facts = _fact_seeds(snap, qvec, config.fact_seeds or 0, visible)
    seeds: dict[str, Candidate]
    fallback = False
    if facts:
        # Facts seed the walk, with the names the query writes as proper names (accents
        # ignored: "the state where" does not name the entity "State", nor "West" inside
        # "Johnnycake, West Virginia"); the nodes nearest the query are not seeds.
        seeds = {i: {"id": i, "similarity": w, "via": "fact"} for i, w in facts.items()}
        named = config.named_seed_weight if config.named_seed_weight is not None else 1.0
        by_name = [i for i in proper_name_ids(snap, state["plan"]["query"], state["plan"]["entities"])
                   if visible.can_see(snap.nodes[i])]
        for node_id in by_name:
            seed = seeds.setdefault(node_id, {"id": node_id, "similarity": 0.0, "via": "entity"})
            seed["similarity"] += named
    else:
        pool = semantic if same else snap.search_nodes(qvec, config.seed_nodes, visible)
        seeds = {hit.id: {"id": hit.id, "similarity": hit.score, "via": "seed"}
                 for hit in pool[: config.seed_nodes] if hit.score >= config.seed_node_min_similarity}
        fallback = len(seeds) < MIN_SEEDS
        if fallback:
            for hit in pool[:MIN_SEEDS]:
                seeds.setdefault(hit.id, {"id": hit.id, "similarity": hit.score, "via": "seed"})
        # Named entities that are item names seed the graph directly (the specific case).
        by_name = _names_to_ids(snap, state["plan"]["entities"], visible)
    for node_id in by_name:
        seeds.setdefault(node_id, {"id": node_id, "similarity": 1.0, "via": "entity"})
    edge_hits = [
        (e, s) for e, s in snap.search_edges(qvec, config.seed_edges, visible) if s >= config.seed_edge_min_similarity
    ]
    for edge, score in edge_hits:
        for end in (edge.source, edge.target):
            seeds.setdefault(end, {"id": end, "similarity": score, "via": "edge-seed"})
    # A typed hop ("what checkout-api depends on") names where the answer hangs: the walk
    # starts there alone. Similar texts and the named item's own neighbourhood are what
    # the question rules out; the semantic and keyword channels still rank on their own.
    related = relation_ends(snap, state["plan"].get("relations", []), visible)
    if related:
        seeds = {
            node_id: {"id": node_id, "similarity": 1.0, "via": "relation", "relation": how}
            for node_id, how in related.items()
        }

    fed, feedback, moved = _feedback_search(state, view, qvec, semantic)
    listed = fed if feedback else semantic
    on = config.channel_on("semantic")
    if on and (inside := window_filters(state["plan"], view.filters)) is not None:  # the window's own best matches too
        found = search_within(snap, moved if feedback else qvec, view.fusion_depth, answer_filters(snap, inside))
        listed = with_window_hits(listed, found, lambda h: h.id, lambda h: h.score)
    ranking: list[ChannelHit] = [{"id": h.id, "score": h.score} for h in listed]
    # Items whose stored vector is damaged are missing from this channel: say so, counting
    # only what the caller may see.
    unusable = sum(1 for i in snap.unusable_vectors[0] if i in snap.nodes and visible.can_see(snap.nodes[i]))
    warnings = [(
        f"{unusable} item(s) have an unusable stored vector: the semantic channel cannot find them "
        f"(keywords and the graph still do); run `{command(['repair'], snap.path)}` on the index"
    )] if unusable else []
    warnings += [w for w in [run_marks.answer_warning(snap.unfinished_runs)] if w]
    warnings += snap.search_notes()  # vectors searched in memory although the index names a server: why
    return {
        **({"warnings": warnings} if warnings else {}),
        **({"semantic_before_feedback": [{"id": h.id, "score": h.score} for h in semantic]} if feedback and on else {}),
        "seeds": list(seeds.values()),
        "relational": bool(related),
        "channel_rankings": {"semantic": ranking} if on else {},
        "stats": {
            "semantic_hits": len(semantic),
            "seeds": len(seeds),
            "edge_seeds": len(edge_hits),
            "entity_seeds": len(by_name),
            "relation_seeds": len(related),
            "facts": sum(1 for i in facts if snap.nodes[i].kind == NodeKind.FACT),
            "fact_seeds": sum(1 for s in seeds.values() if s["via"] == "fact"),
            "threshold_nodes": config.seed_node_min_similarity,
            "threshold_edges": config.seed_edge_min_similarity,
            "fallback": fallback,
            "feedback": feedback,
        },
    }


def _feedback_search(
    state: RetrievalState, view: QueryView, qvec: np.ndarray, semantic: list[VectorHit]
) -> tuple[list[VectorHit], list[str], np.ndarray]:
    """The semantic channel searched again from the query moved toward the best items of
    the keyword + semantic fusion (``algorithms.feedback``), those items, and the moved
    query; ``([], [], qvec)`` when feedback is off or there is no evidence from both
    channels to move toward."""
    config, snap = view.config, view.snapshot
    if not config.feedback_docs or not config.channel_on("semantic"):
        return [], [], qvec
    # Both lists hold only what every filter admits (access labels included), so an item the
    # caller may not see never moves the query.
    keyword = [(h["id"], h["score"]) for h in (state.get("channel_rankings") or {}).get("keyword", [])]
    # The two lists' first `fusion_depth` entries, as fuse_rrf reads them: their score
    # fusion min-max normalises each list, and a longer one (a k past the depth) moved
    # which items the query is moved toward, and so the whole channel.
    depth = view.fusion_depth
    chosen = feedback_items(keyword[:depth], [(h.id, h.score) for h in semantic[:depth]], config.feedback_docs)
    vectors = {i: v for i in chosen if (v := snap.node_vector(i)) is not None}  # an item may have none
    if not vectors:
        return [], [], qvec
    moved = rocchio(qvec, np.stack(list(vectors.values())), config.feedback_weight)
    answers = answer_filters(snap, view.filters)
    fed = searched_past_depth(lambda n: search_within(snap, moved, n, answers), depth, config.channel_depth)
    return fed, list(vectors), moved


def _fact_seeds(snap: IndexSnapshot, qvec: np.ndarray, k: int, visible: Filters) -> dict[str, float]:
    """Seeds from the ``k`` facts nearest the query and the entities they name."""
    if k <= 0 or not kind_counts(snap).get(NodeKind.FACT.value):
        return {}
    hits = search_facts(snap, qvec, k, visible)
    return fact_seeds([
        FactHit(h.id, h.score, tuple(e for e in fact_links(snap, h.id) if visible.can_see(snap.nodes[e])))
        for h in hits
    ])


def _names_to_ids(snap: IndexSnapshot, names: list[str], visible: Filters) -> list[str]:
    if not names:
        return []
    return [node.id for node in snap.nodes_named({n.casefold() for n in names}) if visible.can_see(node)]
