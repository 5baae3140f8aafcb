"""What a LangGraph Server run's input may ask for, beyond its query: whom it searches as
(``filters.principals``, only narrowing the deployment's ``$SKILL_RETRIEVER_PRINCIPALS``)
and which settings its ``profile`` names. ``adapters.langgraph_server`` applies them; the
limits on the cost settings a profile may set are here (``COST_CAPS``, `run_profile`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from skill_retriever.config import (
    SETTING_NAMES,
    RetrievalConfig,
    close_name,
    unknown_profile,
)
from skill_retriever.config_profiles import PROFILES
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.filters import Filters, kinds_named
from skill_retriever.model import Node

__all__ = [
    "COST_CAPS", "NONE_CAPS", "PRINCIPALS_ENV", "RUN_REFUSED", "client_warnings", "profile_settings", "run_principals",
    "run_profile", "served_values_checked", "server_principals",
]

PRINCIPALS_ENV = "SKILL_RETRIEVER_PRINCIPALS"

#: Keys a profile is mistaken for, and where each goes instead. A profile's keys became
#: the search's keyword arguments: ``principals`` or ``kinds`` there searched past the
#: run's own filters (principals past the deployment's), ``run_config`` set the server's
#: own RunnableConfig, ``query`` failed with a TypeError from inside.
_ELSEWHERE = {
    **dict.fromkeys(("kinds", "tags", "principals", "since", "until"), 'a filter: it goes in the run\'s "filters" input'),
    "filters": 'the run\'s own "filters" input, beside "profile"',
    "query": 'the run\'s own "query" input, beside "profile"',
    "budget": 'the token budget: the run\'s "token_budget" input (or the setting token_budget)',
}


def profile_settings(asked: Mapping[str, Any]) -> dict[str, Any]:
    """A run's profile mapping, each key checked to be a setting (`config.SETTING_NAMES`).

    Raises:
        ConfigError: A key that is not a setting, in one line naming it and where it goes
            (a filter, the run's own input) or what a profile takes.
    """
    for key in asked:
        if key in SETTING_NAMES:
            continue
        if key in _ELSEWHERE:
            raise ConfigError(f"profile key {key!r} is not a setting but {_ELSEWHERE[key]}")
        raise ConfigError(
            f"unknown profile setting {key!r}{close_name(key, SETTING_NAMES)}; a profile is a profile name ({', '.join(sorted(PROFILES))}) "
            "or a mapping of RetrievalConfig settings (e.g. channel_depth, rrf_k, channels, route)"
        )
    return dict(asked)


def server_principals() -> list[str]:
    """The principals every server run searches as: ``$SKILL_RETRIEVER_PRINCIPALS``,
    comma-separated (unset or empty: none, so public items only; ``*``: everything)."""
    return [p.strip() for p in os.environ.get(PRINCIPALS_ENV, "").split(",") if p.strip()]


def client_warnings(warnings: Iterable[str], principals: list[str], nodes: Iterable[Node]) -> list[str]:
    """A served run's warnings as its client can act on them: a kind the index lacks is
    answered with the kinds the run's ``principals`` may see among ``nodes`` (the index
    the run searched), as the agent tool and the MCP tools answer it (`filters.kinds_named`),
    where the search's own words point at ``stats``, a command a server's client cannot run."""
    visible = Filters(principals=principals)
    held = list(nodes)
    return [kinds_named(w, visible, held) for w in warnings]


def run_principals(asked: Any, granted: list[str]) -> list[str]:
    """The principals a run searches as: ``granted`` (the deployment's), or the run's own
    ``filters.principals`` when they only narrow it (a subset, or anything under ``*``).

    Raises:
        ConfigError: the run names a principal the deployment did not grant, or names
            them as something other than a list of strings. The message does not say
            which principals the deployment holds.
    """
    if asked is None:
        return list(granted)
    if isinstance(asked, str):  # one string is one principal, as everywhere (`filters.names_of`)
        asked = [asked]
    if not isinstance(asked, (list, tuple)) or not all(isinstance(p, str) for p in asked):
        raise ConfigError("filters.principals must be a list of strings")
    if "*" in granted or set(asked) <= set(granted):
        return list(asked)
    raise ConfigError(
        "filters.principals may only narrow the principals this server searches as; "
        f"the deployment sets them (${PRINCIPALS_ENV}), not a run"
    )


#: Settings that bound what one run costs. A run's ``profile`` may lower them (a smaller
#: walk, a shorter query cap), never raise them above the server's own: the input comes
#: from the server's clients, the limits from whoever runs it. ``ppr_tol`` bounds from below.
#: The caps of the cost settings whose default, None, means "as the index suggests"
#: (fact_seeds: 0 or a profile's 2) or "the k delivered" (rerank_top_n).
NONE_CAPS = {"fact_seeds": 16, "rerank_top_n": 100}
#: Settings a run may not set at all: ``encoding`` names a tokenizer, which tiktoken would
#: fetch over the network when it is not one shipped offline.
RUN_REFUSED = ("encoding",)

COST_CAPS = ("seed_nodes", "seed_edges", "channel_depth", "expand_max_nodes", "expand_max_edges",
             "completeness_max_iterations", "gap_fill_per_component", "keep_nodes", "keep_edges",
             "fact_seeds", "ppr_max_iter", "ppr_settle", "flow_max_endpoints", "flow_max_paths",
             "flow_max_hops", "clause_hits", "rerank_top_n", "snippet_chars", "max_query_chars",
             "keyword_query_chars", "plan_query_chars")


def run_profile(asked: Any, own: RetrievalConfig | None = None, where: str = "profile") -> dict[str, Any]:
    """The settings a run's ``profile`` input asks for: a named profile (``"multihop"``:
    this package's own, bounded, taken as it is) or a mapping of settings, each cost
    setting at most what the server runs on its index (`COST_CAPS`): ``own``, the
    server's settings with what the index suggests (`calibration.defaults`: a passage
    index runs ``flow_max_endpoints`` 50, so a run may ask 50 there), default the built-in ones.

    Raises:
        ConfigError: Another shape, an unknown profile, a key that is no setting (a filter,
            ``query``, ``run_config``: `server_inputs.profile_settings`), or a cost setting raised.
    """
    if asked is None:
        return {}
    if isinstance(asked, str):
        if asked not in PROFILES:
            raise unknown_profile(asked)
        return dict(PROFILES[asked])
    if not isinstance(asked, dict):
        raise ConfigError(f"profile must be a profile name or a mapping of settings, got {asked!r:.60}")
    profile_settings(asked)  # settings only: the rest is the run's own input, or no run's
    own = own or RetrievalConfig()
    if refused := sorted(set(asked) & set(RUN_REFUSED)):
        raise ConfigError(f"{where} setting(s) {refused} are this server's to set, not a run's")
    for key, value in asked.items():
        cap = getattr(own, key, None) if key in COST_CAPS or key == "ppr_tol" else None
        if key in NONE_CAPS:  # "as the index suggests" (0 on a catalogue): the fixed cap, or more if it runs more
            cap = max(NONE_CAPS[key], cap or 0)
        if cap is None or not isinstance(value, int | float) or isinstance(value, bool):
            continue
        if (value < cap) if key == "ppr_tol" else (value > cap):
            bound = "at least" if key == "ppr_tol" else "at most"
            raise ConfigError(f"{where} setting {key}={value!r} is over this server's limit: {bound} {cap}")
    return dict(asked)


def served_values_checked(given: Mapping[str, Any], context: Any = None) -> None:
    """Refuse, before the run, a served run's input value its node would refuse, in the
    node's words: a query that is not text or is empty, a bad ``k``, ``token_budget`` or
    ``route``, filters that are not an object or name an unknown filter, kind or a
    principal the deployment did not grant, a profile of another shape or naming an
    unknown profile or setting (`input_values`: a thread keeps a failed run's input).
    What needs the run's index (a cost setting over the server's limit, `run_profile`)
    the served graph checks beside this (`langgraph_server.build_server_graph`), before
    the run too. ``context`` is the run's JSON context, which none of these reads.

    Raises:
        ConfigError: A bad value, named.
        QueryError: A bad query.
    """
    from skill_retriever.context import resolve
    from skill_retriever.filters import Filters
    from skill_retriever.graph_input import NO_QUERY
    from skill_retriever.querytext import clean_query

    query = given.get("query")
    if query is not None:
        if not isinstance(query, str):
            raise QueryError(NO_QUERY)
        clean_query(query, max(len(query), 1))  # empty or blank; its length is the server's to judge
    resolve(RetrievalConfig(), {key: given[key] for key in ("k", "token_budget", "route") if given.get(key) is not None})
    filters = given.get("filters")
    if filters is not None:
        if not isinstance(filters, dict):
            raise ConfigError(f"filters must be an object (kinds, tags, principals, since, until), got {filters!r:.60}")
        filters = dict(filters)
        run_principals(filters.pop("principals", None), server_principals())
        Filters.from_spec(filters)
    profile = given.get("profile")
    if isinstance(profile, dict):
        profile_settings(profile)
        if refused := sorted(set(profile) & set(RUN_REFUSED)):
            raise ConfigError(f"profile setting(s) {refused} are this server's to set, not a run's")
        resolve(RetrievalConfig(), {"profile": profile})  # each value's type and range
    else:
        run_profile(profile)  # None, a name, or another shape (refused)
