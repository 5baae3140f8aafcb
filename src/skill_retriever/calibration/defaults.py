"""Defaults an index suggests for itself, decided from what it holds (no stored state).

The rest of this package *learns* from an index and stores what it learned
(:mod:`.compute`); this module only *looks*: the kinds of nodes a snapshot holds decide
which settings suit it, so the decision needs no calibration run and can never be stale
(:func:`index_defaults` caches it on the snapshot). It is made over what the caller may
see: a caller whose access hides some items gets the decision its own items and the
edges between them suggest, so private items neither move its settings nor show through
them (``tests/test_index_defaults_private.py``); ``stats`` shows the one over every item.

Settings resolve in this order, later wins: the built-in defaults of `RetrievalConfig`,
then :class:`IndexDefaults`, then the caller's config (``Retriever(index, config)``, a
profile), then the call's own overrides; the stored calibration's channel factors and
route then act as before (``phases.fuse_rrf``, ``phases.plan_query``). The defaults only
fill what the caller left alone: a setting still at its built-in default (``None`` for
the settings that exist only to be decided here, such as ``fact_seeds``; channel by
channel for ``channel_weights``, so ``channels={"graph": False}`` keeps the other
suggested weights). ``use_calibration=False`` keeps the built-in defaults.
`context.resolve` applies them once per query, where every other setting is resolved.

Decisions today (each says why in :attr:`IndexDefaults.reasons`):

* **passages**: most nodes a caller could ask for (everything but entities and facts) are
  passages, and the index holds facts (``ingest.facts``). Multi-hop questions over such a
  corpus want the HippoRAG-style walk: the ppr route for every question, facts seeding
  it, passages and BM25 hits in its restart vector, and the graph channel carrying the
  fusion. The values (:data:`PASSAGE_SETTINGS`) were chosen on the two HippoRAG *train*
  sets (hotpotqa_hipporag_train100, musique_hipporag_train100) only; the README's
  multi-hop table reports them on the other two. The route is ``default_route="ppr"``,
  as a catalogue's is, never ``route``: ``route`` is how a caller forces one, and with
  the index setting it a response could not say whether its route was forced or
  suggested (``route_why``). Every question takes the same route either way: a passage
  corpus has no typed hop, and no calibration learns a route.
* **catalogue**: most askable nodes are components, tools or documents (skills, agents,
  commands, hooks, MCP servers, plugins, tools; documents: a folder of runbooks or docs,
  ``ingest.documents``, one item per file as a skill is one, named and described). The
  route, in this order:

  1. the ppr route for every query (``default_route="ppr"``) when at least
     :data:`MIN_WORKFLOW_SHARE` of its edges say that using one item needs another
     (:data:`WORKFLOW_KINDS`: a prerequisite, ``DEPENDS_ON``, or a data flow, ``FEEDS``).
     An answer then holds both ends of such an edge, and the request seldom names the
     second: "add this song to my playlist 'Road trip'" needs the search and the
     playlist listing (``ingest.openapi_links``). The walk follows an edge whatever its
     far end's similarity to the query; the smart route's expansion does not;
  2. the smart route for every query (``default_route="smart"``; a typed hop still
     takes the ppr route) when the index has no edges, or when its edges mostly join
     items alike (the median cosine of their ends at least :data:`MIN_EDGE_COSINE`, the
     similarity the smart route's expansion asks at its second level);
  3. otherwise by complexity (complex questions take the ppr route, whose walk crosses
     edges whatever the similarity).

  Measured on the eight judged catalogue sets (``skill-retriever benchmark --only
  skills,toolret --max-queries 500``, commit d950b3b, before the first rule existed; the
  default at b063547 equals the chosen route's figure on each set),
  nDCG@10 of the routes smart / ppr / by complexity: restbench-spotify 69.8 / 74.2 /
  70.3 and restbench-tmdb 55.1 / 61.1 / 59.1 (every edge a ``DEPENDS_ON`` from
  ``ingest.openapi_links``; their median cosine, 0.67 and 0.41, sent them down the
  smart route), ultratool 74.0 / 78.3 / 78.2 (every edge ``FEEDS``: a task plan's
  tools), traject-bench 54.5 / 54.9 / 54.9 (71 % ``FEEDS``); skills dev 75.5 / 68.8 /
  70.5 (its edges are ``PART_OF`` and ``MENTIONS``, median cosine 0.54) and
  stabletoolbench 69.8 / 69.2 / 69.3 (``RELATED_TO`` siblings, 0.66) keep the smart
  route, and so do metatool and seal-tools, which have no edges. The bundled sample
  (22 % of its edges are workflow edges) keeps the smart route too. Each index's reason
  names its share (``skill-retriever stats``; the benchmark's notes), the README's table
  each route's figures.

  Fusion by scores (``fusion="scores"``,
  ``algorithms.score_fusion``): each channel's min-max normalised scores, weighted per query
  by how clearly its best item stands out, so a channel with nothing to say (BM25 on a
  paraphrase, the graph on a catalogue with few edges) barely moves the order. Measured
  on the eight judged catalogue sets of the benchmark against RRF, the router's route,
  no reranker (nDCG@10, ``fusion`` the only change): skills dev 68.7 -> 69.7, metatool
  63.6 -> 65.6, restbench-spotify 62.8 -> 61.1, restbench-tmdb 42.3 -> 42.6, seal-tools
  76.1 -> 83.5, stabletoolbench 65.6 -> 66.9, traject-bench 53.8 -> 54.2, ultratool
  75.3 -> 77.7 (``skill-retriever benchmark --only skills,toolret --max-queries 500``,
  commit 72644d0; the README's table).

  A request that chains several asks gets a top that answers each
  (``clause_coverage=0.5``, ``phases.cover_clauses``: xQuAD over its clauses, each
  searched by BM25). A catalogue is where one request needs several items, and where
  near-duplicates of one item crowd a top ten (four thousand tools in seal-tools). Measured
  on the eight judged catalogue sets, the default with and without it (the benchmark's
  rows "full" and "full, one ask", same command, commit 10b5b25), nDCG@10: skills dev 75.5
  -> 75.8, metatool 70.8 -> 70.5, restbench-spotify and -tmdb unchanged (74.2, 61.1),
  seal-tools 86.1 -> 91.8, stabletoolbench 69.7 -> 71.1, traject-bench 54.9 -> 55.7,
  ultratool 78.3 -> 78.0; Completeness@10: seal-tools 72.2 -> 84.6, stabletoolbench 64.2
  -> 66.0, traject-bench 13.2 -> 14.8, the others unchanged. λ 0.5 weighs the fused
  score and the asks alike; a larger λ favoured seal-tools, whose requests chain the most
  asks, over the other sets (issue 14's closing note gives those scratch figures).
  Passages are left out: a multi-hop question is one ask whose hops the walk follows.

  A catalogue whose items mostly run past what the embedding model reads (skills,
  agents, documents) has its semantic channel search again from the query moved toward
  the best items of a first fusion, and the smart route's ranking left out of the fusion
  (:mod:`.long_items`, where both are measured).

  Documents count as a catalogue since a folder of them became a source: each is one
  file, named and described, as a skill is. Measured on the benchmark's set "skills
  dev-as-documents" (the dev queries over the same three folders read with ``--kind
  docs``: the same files and ids, each a document; ``skill-retriever benchmark --only
  skills`` at ``b176be9`` and ``a996c31``, files whole), the default with the built-in
  settings and with these: nDCG@10 71.6 -> 75.8, MRR 86.9 -> 89.5 (BM25 alone 73.7: the
  built-in fusion fell below its best channel).
* **operations**: most askable nodes are services, deploys and incidents (an operations
  graph: what depends on what, what was deployed where, what broke). Fusion by scores, as
  on a catalogue, where RRF let a keyword hit at rank 26 lift a typed hop's fifth end
  above its first ("the deploy of a service that ledger-db depends on"); how score fusion
  reads a typed hop's walk and a time window is ``phases.fuse_rrf``'s. Measured on the
  incident benchmark (``skill-retriever benchmark --only incidents``, world seed 7, the
  default search, RRF -> scores), MRR / R@10: all 90.3 / 88.1 -> 96.1 / 90.2; MRR
  conceptual 67.7 -> 80.6, connected 89.3 -> 100, mixed 94.5 -> 100; R@10 connected 86.9
  -> 85.8 (the walk alone: 85.8). On two worlds the rule was not chosen on (the same
  command with ``--world-seed 11`` and ``--world-seed 23``, at a1b6007): 92.7 / 90.0 and 94.3 / 91.2.
* anything else (a passage corpus indexed before facts existed, a mix of passages and
  other items, a JSON graph of other kinds): the built-in defaults.

Extending it: a new decision is a new :data:`CorpusKind`, a rule in :func:`decide` and the
settings it suggests, with the evidence in ``reasons``. Keep the rule cheap: it runs once
per snapshot. What must be learned from the index rather than seen in it belongs in
:mod:`.channels` and the stored `Calibration`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from skill_retriever.calibration.index_shape import median_edge_cosine, workflow_share
from skill_retriever.calibration.long_items import (
    FEEDBACK_DOCS,
    LONG_ITEM_WORDS,
    MIN_LONG_SHARE,
    long_item_settings,
)
from skill_retriever.config import RetrievalConfig
from skill_retriever.config_profiles import PROFILES
from skill_retriever.model import SCAFFOLD_KINDS, EdgeKind, Node, NodeKind
from skill_retriever.stores.kind_counts import kind_counts

if TYPE_CHECKING:
    from skill_retriever.filters import Filters
    from skill_retriever.stores.snapshot import IndexSnapshot

CorpusKind = Literal["passages", "catalogue", "operations", "other", "empty"]

#: Settings that exist to be calibrated (``None`` = "as the index suggests"), with the
#: value they take when the index suggests nothing.
NEUTRAL: Mapping[str, Any] = MappingProxyType({
    "fact_seeds": 0,
    "named_seed_weight": 1.0,
    "specificity": 0.0,
    "ppr_dense_weight": 0.0,
    "ppr_keyword_weight": 0.0,
    "synonyms": True,
    "fusion": "rrf",
    "default_route": "by-complexity",
    "clause_coverage": 0.0,
    "feedback_docs": 0,
    "multifactor_ranking": True,
})

#: A passage corpus with facts: ``config_profiles.PROFILES["multihop"]`` (where each value is
#: explained), chosen on hotpotqa_hipporag_train100 and musique_hipporag_train100, with
#: its ``route`` (which forces one, as a caller does) as the ``default_route`` it suggests.
PASSAGE_SETTINGS: Mapping[str, Any] = MappingProxyType({
    **{name: value for name, value in PROFILES["multihop"].items() if name != "route"},
    "default_route": PROFILES["multihop"]["route"],
})

#: Share of the askable nodes (all but entities and facts) that must be passages. The
#: passage settings leave the fusion to the walk from facts (keyword and semantic weigh
#: 0.001), which reaches passages only: in an index that also holds runbooks, skills or
#: incidents, every one of them ranked below every passage the walk reached ("build a
#: slack gif" answered with a passage first, the skill at score 0: found in a walkthrough
#: with HotpotQA passages beside runbooks and skills; `tests/test_index_defaults.py`). So a
#: corpus is one of passages only when nearly all of it is.
MIN_PASSAGE_SHARE = 0.99
#: Below `MIN_PASSAGE_SHARE`, an index at least this share passages is a mix of passages
#: and other items: the built-in defaults, and a reason that says why.
MIXED_PASSAGE_SHARE = 0.5

#: What a catalogue holds: things an agent installs or calls.
CATALOGUE_KINDS = frozenset({
    NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.MCP_SERVER, NodeKind.PLUGIN,
    NodeKind.TOOL, NodeKind.DOCUMENT,
})

#: Share of the askable nodes that must be catalogue kinds.
MIN_CATALOGUE_SHARE = 0.5

#: A component or tool catalogue (see the module docstring for the measurements).
CATALOGUE_SETTINGS: Mapping[str, Any] = MappingProxyType({"fusion": "scores", "clause_coverage": 0.5})

#: What an operations graph holds: the services, what was deployed to them, what broke.
OPERATIONS_KINDS = frozenset({NodeKind.SERVICE, NodeKind.DEPLOY, NodeKind.INCIDENT})
#: Share of the askable nodes that must be operations kinds.
MIN_OPERATIONS_SHARE = 0.5
#: An operations graph (see the module docstring for the measurements).
OPERATIONS_SETTINGS: Mapping[str, Any] = MappingProxyType({"fusion": "scores"})

#: A catalogue whose edges' ends are at least this alike (median cosine) takes the smart
#: route for every query: the similarity to the query the smart route's expansion asks
#: at its second level (``RetrievalConfig.expand_thresholds``).
MIN_EDGE_COSINE = 0.35
#: Edges that say using one item needs another: a prerequisite, or a data flow (an
#: output that fills the other's input). ``USES`` is not among them: no judged set has it.
WORKFLOW_KINDS = frozenset({EdgeKind.DEPENDS_ON, EdgeKind.FEEDS})
#: A catalogue where at least this share of the edges are `WORKFLOW_KINDS` takes the ppr
#: route for every query.
MIN_WORKFLOW_SHARE = 0.5
#: Decisions kept per snapshot for callers who may not see every item (the accesses
#: most recently asked), as `calibration.access_fit` keeps their lines.
ACCESS_KEPT = 8


@dataclass(frozen=True)
class IndexDefaults:
    """The settings an index suggests for itself, and why.

    Attributes:
        corpus: What the index was judged to hold.
        settings: `RetrievalConfig` field -> suggested value.
        reasons: One line per decision, in words (shown in stats and docs).
    """

    corpus: CorpusKind
    settings: Mapping[str, Any] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if "route" in self.settings:  # a rule's mistake, caught where it is written
            raise ValueError("an index's defaults suggest default_route, never route: route is how a caller "
                             "forces one, and a response says which of them chose its route (route_why)")

    def apply(self, config: RetrievalConfig) -> RetrievalConfig:
        """``config`` with every setting the caller left at its built-in default set as
        suggested, and the calibrated-only settings still ``None`` set to `NEUTRAL`."""
        defaults = _defaults()
        changes: dict[str, Any] = {}
        if config.use_calibration:
            for name, value in self.settings.items():
                current = getattr(config, name)
                if name == "channel_weights":
                    base = defaults[name]
                    merged = {ch: (value[ch] if ch in value and w == base.get(ch) else w) for ch, w in current.items()}
                    if merged != dict(current):
                        changes[name] = merged
                elif current == defaults[name]:
                    changes[name] = value
        for name, value in NEUTRAL.items():
            if changes.get(name, getattr(config, name)) is None:
                changes[name] = value
        return dataclasses.replace(config, **changes) if changes else config


@cache
def _defaults() -> dict[str, Any]:
    base = RetrievalConfig()
    return {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}


def decide(snapshot: IndexSnapshot, who: Filters | None = None) -> IndexDefaults:
    """Decide what ``snapshot`` holds and what it suggests (see the module docstring): over
    the items ``who``'s access lets it see and the edges between them, or every item
    when ``who`` is None."""
    seen = None if who is None else who.can_see
    counts = kind_counts(snapshot) if seen is None else Counter(n.kind.value for n in snapshot.nodes.values() if seen(n))
    askable = sum(n for kind, n in counts.items() if kind not in SCAFFOLD_KINDS)
    passages = counts.get(NodeKind.PASSAGE.value, 0)
    facts = counts.get(NodeKind.FACT.value, 0)
    if askable == 0:
        return IndexDefaults("empty", reasons=("nothing to search: built-in defaults",))
    share = passages / askable
    if share >= MIN_PASSAGE_SHARE and facts:
        return IndexDefaults("passages", PASSAGE_SETTINGS, (
            (f"passage corpus: {passages:,} of {askable:,} askable nodes are passages, with {facts:,} facts: "
             "ppr route, facts seed the walk (settings chosen on the multi-hop train sets)"),
        ))
    if share >= MIN_PASSAGE_SHARE:
        return IndexDefaults("other", reasons=(_passages_without_facts(snapshot),))
    if share >= MIXED_PASSAGE_SHARE:
        return IndexDefaults("other", reasons=(
            (f"built-in defaults: {passages:,} of {askable:,} askable nodes are passages, the rest other "
             "kinds; the passage settings walk from facts alone, which reach passages only, and would rank "
             "every other item below them (profile='multihop' asks for them when only passages are wanted)"),))
    components = sum(n for kind, n in counts.items() if kind in CATALOGUE_KINDS)
    if components / askable >= MIN_CATALOGUE_SHARE:
        what = "components, tools or documents" if counts.get(NodeKind.DOCUMENT.value) else "components or tools"
        fusion = (f"catalogue: {components:,} of {askable:,} askable nodes are {what}: "
                  "fusion by scores, each channel weighted by how clearly its best item stands out; "
                  f"a request with several asks gets a top that covers each (xQuAD over its clauses, "
                  f"λ {CATALOGUE_SETTINGS['clause_coverage']})")
        route, why_route = _catalogue_route(snapshot, seen)
        feedback, why_feedback = long_item_settings(snapshot, seen)
        return IndexDefaults("catalogue", {**CATALOGUE_SETTINGS, **route, **feedback}, (fusion, why_route, why_feedback))
    operations = sum(n for kind, n in counts.items() if kind in OPERATIONS_KINDS)
    if operations / askable >= MIN_OPERATIONS_SHARE:
        return IndexDefaults("operations", OPERATIONS_SETTINGS, (
            (f"operations graph: {operations:,} of {askable:,} askable nodes are services, deploys or incidents: "
             "fusion by scores, so a typed hop's walk keeps its order and a time window counts as the items "
             "inside it"),))
    return IndexDefaults("other", reasons=(
        (f"built-in defaults: {share:.0%} passages, {components / askable:.0%} components, "
         f"{operations / askable:.0%} services, deploys or incidents"),))


def _passages_without_facts(snapshot: IndexSnapshot) -> str:
    """Why a passage corpus holds no facts. An index run writes a corpus's passages first
    and its facts last, so one that has not finished (Ctrl-C) is the likeliest reason
    while its mark stays (``stores.run_marks``): indexing again completes it."""
    from skill_retriever.stores.run_marks import run_state

    marks = snapshot.unfinished_runs
    if marks and all(run_state(m) == "running" for m in marks.values()):
        return ("built-in defaults: passages without facts yet: the index run under way writes a corpus's "
                "facts after its passages, and the passage settings apply once they are in")
    if marks:
        return ("built-in defaults: passages without facts, because an index run did not finish (it writes a "
                "corpus's facts after its passages): run the same `index` command again to complete it "
                "(the warning below names the run)")
    return ("built-in defaults: passages without facts (an index built before facts existed gets them "
            "when indexed again; a corpus whose texts hold no sentence long enough yields none)")


def _catalogue_route(snapshot: IndexSnapshot, seen: Callable[[Node], bool] | None) -> tuple[dict[str, Any], str]:
    """A catalogue's route (the module docstring's three rules, in order) and why, over
    the edges both of whose ends ``seen`` admits (every edge when None)."""
    nodes = snapshot.nodes
    edges = snapshot.edges.values() if seen is None else [
        e for e in snapshot.edges.values()
        if (a := nodes.get(e.source)) is not None and (b := nodes.get(e.target)) is not None and seen(a) and seen(b)]
    workflow = workflow_share(edges, WORKFLOW_KINDS)
    if workflow is not None and workflow >= MIN_WORKFLOW_SHARE:
        return {"default_route": "ppr"}, (
            f"the ppr route for every query: {workflow:.0%} of its edges (>= {MIN_WORKFLOW_SHARE:.0%}) say one item "
            "needs another (DEPENDS_ON, FEEDS), and the walk follows them whatever the query names")
    # The first rule's evidence, said whichever rule decides.
    few = "" if workflow is None else (f"; {workflow:.0%} of its edges say one item needs another "
                                       f"(< {MIN_WORKFLOW_SHARE:.0%})")
    alike = median_edge_cosine(snapshot, seen=seen)
    if alike is None or alike >= MIN_EDGE_COSINE:
        why = ("no edges between items with vectors" if alike is None
               else f"its edges join items alike (median cosine {alike:.2f} >= {MIN_EDGE_COSINE})")
        return {"default_route": "smart"}, f"the smart route for every query without a typed hop: {why}{few}"
    return {}, (f"the route by complexity: its edges mostly join unlike items (median cosine {alike:.2f} "
                f"< {MIN_EDGE_COSINE}), which only the ppr route's walk crosses{few}")


def index_defaults(snapshot: IndexSnapshot, filters: Filters | None = None) -> IndexDefaults:
    """:func:`decide` for the caller of ``filters`` (every item when None: ``stats``, the
    benchmark's notes), once per snapshot and access.

    A caller who may see every item reads the decision over all of them; any other, the
    one over what it may see, so items it may not see neither move its settings nor show
    through them (a label's private passages could make a public catalogue "a mix of
    passages" and take its fusion by scores away)."""
    if filters is None or _sees_every_item(snapshot, filters):
        return snapshot.memo("index_defaults", None, lambda: decide(snapshot))
    who = filters.visibility()
    return snapshot.memo("index defaults seen by", who.principals, lambda: decide(snapshot, who), ACCESS_KEPT)


def _sees_every_item(snapshot: IndexSnapshot, filters: Filters) -> bool:
    if filters.sees_all_labels(snapshot.has_access_labels):
        return True
    who = filters.visibility()
    return snapshot.memo("sees every item", who.principals,
                         lambda: all(who.can_see(n) for n in snapshot.nodes.values()), ACCESS_KEPT)


__all__ = [
    "ACCESS_KEPT", "CATALOGUE_KINDS", "CATALOGUE_SETTINGS", "FEEDBACK_DOCS", "LONG_ITEM_WORDS", "MIN_CATALOGUE_SHARE", "MIN_EDGE_COSINE",
    "MIN_LONG_SHARE", "MIN_OPERATIONS_SHARE", "MIN_PASSAGE_SHARE", "MIN_WORKFLOW_SHARE", "MIXED_PASSAGE_SHARE", "NEUTRAL",
    "OPERATIONS_KINDS", "OPERATIONS_SETTINGS", "PASSAGE_SETTINGS", "WORKFLOW_KINDS", "CorpusKind", "IndexDefaults",
    "decide", "index_defaults",
]
