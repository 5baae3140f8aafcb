"""What a LangGraph Server run's input may ask for, beyond its query: whom it searches as
(``filters.principals``, only narrowing the deployment's ``$SKILL_RETRIEVER_PRINCIPALS``)
and which settings its ``profile`` names. ``adapters.langgraph_server`` applies them; the
limits on the cost settings a profile may set are there (``COST_CAPS``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from skill_retriever.config import PROFILES, SETTING_NAMES, close_name
from skill_retriever.exceptions import ConfigError

__all__ = ["PRINCIPALS_ENV", "profile_settings", "run_principals", "server_principals"]

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
