"""check_completeness and fill_gaps: does the candidate set cover the query's components
(keywords, bigrams, trigrams)? Below the threshold, targeted retrieval for each missing
component adds a few items, and the check runs again, at most N times."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from langgraph.runtime import Runtime

from skill_retriever.algorithms.query_terms import coverage_of_vocabularies
from skill_retriever.config import RetrievalContext
from skill_retriever.filters import Filters
from skill_retriever.phases._common import Update, filters_of, phase, settings
from skill_retriever.phases._graphview import coverage_vocabulary
from skill_retriever.state import Candidate, RetrievalState


def _vocabularies(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Iterator[frozenset[str]]:
    nodes = runtime.context.index.nodes
    for c in state.get("candidates", []):
        if (node := nodes.get(c["id"])) is not None:
            yield coverage_vocabulary(node)


@phase("check_completeness", optional=True)
def check_completeness(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    cov = coverage_of_vocabularies(state["plan"]["components"], _vocabularies(state, runtime))
    return {
        "coverage": cov.ratio,
        "missing_components": list(cov.missing),
        "stats": {
            "check_completeness": {
                "coverage": round(cov.ratio, 4),
                "threshold": config.coverage_threshold,
                "missing": len(cov.missing),
                "iteration": state.get("iterations", 0),
            }
        },
    }


def after_completeness(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Literal["fill_gaps", "rank_multifactor"]:
    """Loop to gap filling while coverage is short and iterations remain."""
    config = settings(state, runtime)
    short = state.get("coverage", 1.0) < config.coverage_threshold and bool(state.get("missing_components"))
    if short and state.get("iterations", 0) < config.completeness_max_iterations:
        return "fill_gaps"
    return "rank_multifactor"


@phase("fill_gaps", optional=True)
def fill_gaps(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    config = settings(state, runtime)
    index = runtime.context.index
    visible = Filters(principals=filters_of(state).principals)
    missing = state.get("missing_components", [])
    candidates: dict[str, Candidate] = {c["id"]: c for c in state.get("candidates", [])}
    per = config.gap_fill_per_component
    # Coverage asks for a component's words, so a keyword search is the direct way to
    # find an item that has them. Only the components no item's words match (a
    # paraphrase, a misspelling) go to the vector search, embedded in one batch and
    # looked up in one request. Embedding every missing component made this the slowest
    # phase of the smart route at 100k nodes / 1M edges (75 of 178 ms p50; docs/scaling.md).
    found: dict[str, list[str]] = {c: [h.id for h in index.search_keywords(c, per, visible)] for c in missing}
    unmatched = [c for c in missing if not found[c]]
    if unmatched:
        vectors = index.embedder.embed(unmatched)
        for component, hits in zip(unmatched, index.search_nodes_many(vectors, per, visible), strict=True):
            found[component] = [h.id for h in hits]
    added = 0
    for component in missing:
        new = [i for i in dict.fromkeys(found[component]) if i not in candidates][:per]
        for node_id in new:
            candidates[node_id] = {"id": node_id, "similarity": 0.0, "via": f"gap:{component}"}
        added += len(new)
    rounds = list((state.get("stats") or {}).get("fill_gaps", {}).get("rounds", []))
    rounds.append({"components": len(missing), "by_vector": len(unmatched), "added": added})
    return {
        "candidates": list(candidates.values()),
        "iterations": state.get("iterations", 0) + 1,
        "stats": {"fill_gaps": {"rounds": rounds, "added": sum(r["added"] for r in rounds)}},
    }
