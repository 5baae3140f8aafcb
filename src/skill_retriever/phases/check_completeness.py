"""check_completeness and fill_gaps: does the candidate set cover the query's components
(keywords, bigrams, trigrams)? Below the threshold, targeted retrieval for each missing
component adds a few items, and the check runs again for the coverage the ranking reads.

Gap filling runs once per query. The candidates only grow, so whatever is still missing
after a round was searched in that round, and searching it again over the same snapshot
returns the same hits, all candidates by then: a second round could add nothing. (It used
to run one, which re-embedded every component the keyword search had missed.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from langgraph.runtime import Runtime

from skill_retriever.algorithms.query_terms import coverage_of_vocabularies
from skill_retriever.context import QueryView, RetrievalContext
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import Candidate, RetrievalState

if TYPE_CHECKING:
    from skill_retriever.config import RetrievalConfig


@phase(optional=True)
def check_completeness(state: RetrievalState, view: QueryView) -> Update:
    snap = view.snapshot
    if view.config.multifactor_ranking is False:  # the ranking that reads coverage is off
        return {"stats": {"skipped": "multifactor_ranking=False: no ranking reads the coverage"}}
    vocabularies = (snap.vocabulary(snap.nodes[c["id"]]) for c in state.get("candidates", []))
    cov = coverage_of_vocabularies(state["plan"]["components"], vocabularies)
    stats: dict[str, object] = {
        "coverage": round(cov.ratio, 4),
        "threshold": view.config.coverage_threshold,
        "missing": len(cov.missing),
        "iteration": len(state.get("gap_rounds", [])),
    }
    if off := filling_off(view.config):
        stats["gap_filling"] = f"off: {off}"
    return {"coverage": cov.ratio, "missing_components": list(cov.missing), "stats": stats}


def filling_off(config: RetrievalConfig) -> str | None:
    """The setting whose 0 switches gap filling off, as ``name=0``; None while it is on.
    ``gap_fill_per_component=0`` searched each missing component for no item, and the
    stats told of a round that left every component unmatched."""
    off = [name for name in ("completeness_max_iterations", "gap_fill_per_component") if getattr(config, name) == 0]
    return ", ".join(f"{name}=0" for name in off) or None


def after_completeness(
    state: RetrievalState, runtime: Runtime[RetrievalContext]
) -> Literal["fill_gaps", "rank_multifactor"]:
    """To gap filling when coverage is short, it is on and it has not run yet. Not when
    the ranking that reads the candidates is off (``multifactor_ranking=False``): the
    items it would add would count nowhere."""
    config = runtime.context.view(state).config
    short = state.get("coverage", 1.0) < config.coverage_threshold and bool(state.get("missing_components"))
    filling = filling_off(config) is None and config.multifactor_ranking is not False
    if short and filling and not state.get("gap_rounds"):
        return "fill_gaps"
    return "rank_multifactor"


@phase(optional=True)
def fill_gaps(state: RetrievalState, view: QueryView) -> Update:
    snap, visible = view.snapshot, view.visible
    missing = state.get("missing_components", [])
    candidates: dict[str, Candidate] = {c["id"]: c for c in state.get("candidates", [])}
    per = view.config.gap_fill_per_component
    # Coverage asks for a component's words, so a keyword search is the direct way to
    # find an item that has them. With ``gap_fill_by_vector``, the components no item's
    # words match (a paraphrase, a misspelling) also go to the vector search, embedded in
    # one batch and looked up in one pass. That second model call is off by default: on
    # the benchmark's eight catalogue sets it moved nDCG@10 by -1.6 to 0 (README, "Skills,
    # tools and incidents", the row "route smart, gap filling by vector").
    found: dict[str, list[str]] = {c: [h.id for h in snap.search_keywords(c, per, visible)] for c in missing}
    unmatched = [c for c in missing if not found[c]]
    by_vector = unmatched if view.config.gap_fill_by_vector else []
    if by_vector:
        vectors = snap.embedder.embed(by_vector)
        for component, hits in zip(by_vector, snap.search_nodes_many(vectors, per, visible), strict=True):
            found[component] = [h.id for h in hits]
    added = 0
    for component in missing:
        new = [i for i in dict.fromkeys(found[component]) if i not in candidates][:per]
        for node_id in new:
            candidates[node_id] = {"id": node_id, "similarity": 0.0, "via": "gap", "component": component}
        added += len(new)
    round_ = {"components": len(missing), "unmatched": len(unmatched), "by_vector": len(by_vector), "added": added}
    rounds = [*state.get("gap_rounds", []), round_]
    return {
        "candidates": list(candidates.values()),
        "gap_rounds": rounds[-1:],
        "stats": {"rounds": rounds, "added": sum(r["added"] for r in rounds)},
    }
