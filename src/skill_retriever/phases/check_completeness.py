"""check_completeness and fill_gaps: does the candidate set cover the query's components
(keywords, bigrams, trigrams)? Below the threshold, targeted retrieval for each missing
component adds a few items, and the check runs again, at most N times.

Each component is searched once per query. A second search of the same component over
the same snapshot returns the same hits, all of them candidates by then, so it could add
nothing; before this rule the second round re-embedded every component the keyword
search had missed (a query embedding's cost again, for no change in the answer)."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from skill_retriever.algorithms.query_terms import coverage_of_vocabularies
from skill_retriever.context import QueryView, RetrievalContext
from skill_retriever.phases._phase import Update, phase
from skill_retriever.state import Candidate, GapRound, RetrievalState


@phase(optional=True)
def check_completeness(state: RetrievalState, view: QueryView) -> Update:
    snap = view.snapshot
    vocabularies = (snap.vocabulary(snap.nodes[c["id"]]) for c in state.get("candidates", []))
    cov = coverage_of_vocabularies(state["plan"]["components"], vocabularies)
    return {
        "coverage": cov.ratio,
        "missing_components": list(cov.missing),
        "stats": {
            "coverage": round(cov.ratio, 4),
            "threshold": view.config.coverage_threshold,
            "missing": len(cov.missing),
            "iteration": len(state.get("gap_rounds", [])),
        },
    }


def after_completeness(
    state: RetrievalState, runtime: Runtime[RetrievalContext]
) -> Literal["fill_gaps", "rank_multifactor"]:
    """Loop to gap filling while coverage is short and rounds remain."""
    config = runtime.context.view(state).config
    rounds = state.get("gap_rounds", [])
    unsearched = _unsearched(state.get("missing_components", []), rounds)
    short = state.get("coverage", 1.0) < config.coverage_threshold and bool(unsearched)
    if short and len(rounds) < config.completeness_max_iterations:
        return "fill_gaps"
    return "rank_multifactor"


def _unsearched(missing: list[str], rounds: list[GapRound]) -> list[str]:
    """The missing components no earlier round searched for (see the module docstring)."""
    searched = {c for r in rounds for c in r["searched"]}
    return [c for c in missing if c not in searched]


@phase(optional=True)
def fill_gaps(state: RetrievalState, view: QueryView) -> Update:
    snap, visible = view.snapshot, view.visible
    missing = _unsearched(state.get("missing_components", []), state.get("gap_rounds", []))
    candidates: dict[str, Candidate] = {c["id"]: c for c in state.get("candidates", [])}
    per = view.config.gap_fill_per_component
    # Coverage asks for a component's words, so a keyword search is the direct way to
    # find an item that has them. Only the components no item's words match (a
    # paraphrase, a misspelling) go to the vector search, embedded in one batch and
    # looked up in one pass. Embedding every missing component made this the slowest
    # phase of the smart route at 100k nodes / 1M edges (75 of 178 ms p50; docs/scaling.md).
    found: dict[str, list[str]] = {c: [h.id for h in snap.search_keywords(c, per, visible)] for c in missing}
    unmatched = [c for c in missing if not found[c]]
    if unmatched:
        vectors = snap.embedder.embed(unmatched)
        for component, hits in zip(unmatched, snap.search_nodes_many(vectors, per, visible), strict=True):
            found[component] = [h.id for h in hits]
    added = 0
    for component in missing:
        new = [i for i in dict.fromkeys(found[component]) if i not in candidates][:per]
        for node_id in new:
            candidates[node_id] = {"id": node_id, "similarity": 0.0, "via": "gap", "component": component}
        added += len(new)
    this: GapRound = {"components": len(state.get("missing_components", [])), "searched": missing,
                      "by_vector": len(unmatched), "added": added}
    rounds = [*state.get("gap_rounds", []), this]
    return {
        "candidates": list(candidates.values()),
        "gap_rounds": rounds[-1:],
        "stats": {"rounds": rounds, "added": sum(r["added"] for r in rounds)},
    }
