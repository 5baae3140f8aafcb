"""A run's settings from LangGraph's ``config["configurable"]``, where LangGraph users pass
per-run settings: ``graph.invoke(state, {"configurable": {"k": 3}}, context=ctx)`` searched
for the default 10 before this, the k dropped without a word.

What is read: keys that are ``RetrievalConfig`` settings (``channels`` too, as ``override``
takes it) and ``profile`` (a profile's name), applied over the context's config, the profile
first, through ``RetrievalConfig.override`` and so with all its checks. What is left alone:
LangGraph's own keys (``thread_id``, ``checkpoint_ns``, ``checkpoint_id``, ``checkpoint_map``,
``__pregel_*`` and anything starting with ``__``), the LangGraph API's (``langgraph_*``,
``run_id``, ``user_id``, ...) and a parent application's own keys (``model``, ``user_id``):
the configurable is shared by every node of a run, so a key of another meaning is no error.
What is refused: a key one slip from a setting's name (``kk``, ``token_budgt``: `config.close_name`,
as everywhere else), which would otherwise be dropped as silently as ``k`` was. That rule also
catches some names of other meanings (``timeout``, ``rank``); the message says how to keep one.

Read from the run's config (``langgraph.config.get_config``) where the view is resolved, so
a view resolved again in a later phase (a run resumed from a checkpoint) reads it as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.config import (
    PROFILES,
    SETTING_NAMES,
    RetrievalConfig,
    close_name,
    unknown_profile,
)
from skill_retriever.exceptions import ConfigError

__all__ = ["PROFILE_KEY", "configurable_settings", "run_configurable", "with_configurable"]

PROFILE_KEY = "profile"
#: Keys LangGraph and the LangGraph API put in a run's configurable: never a slip of ours.
_LANGGRAPH_KEYS = frozenset({"thread_id", "checkpoint_ns", "checkpoint_id", "checkpoint_map", "run_id", "user_id",
                             "graph_id", "assistant_id", "task_id"})
_WHERE = "config['configurable']"


def run_configurable() -> Mapping[str, Any]:
    """The running graph's ``configurable`` ({} outside a run: a check before it)."""
    from langgraph.config import get_config

    try:
        found = get_config().get("configurable")
    except RuntimeError:  # not inside a runnable context
        return {}
    return found if isinstance(found, Mapping) else {}


def configurable_settings(configurable: Mapping[str, Any]) -> dict[str, Any]:
    """The settings (and ``profile``) ``configurable`` holds, in its order.

    Raises:
        ConfigError: A key one slip from a setting's name, with that name.
    """
    taken: dict[str, Any] = {}
    for key, value in configurable.items():
        if not isinstance(key, str) or key.startswith(("__", "langgraph_")) or key in _LANGGRAPH_KEYS:
            continue
        if key in SETTING_NAMES or key == PROFILE_KEY:
            taken[key] = value
        elif meant := close_name(key, (*SETTING_NAMES, PROFILE_KEY)):
            raise ConfigError(
                f"{_WHERE} key {key!r} is no setting{meant}; the retrieval graph reads RetrievalConfig's settings "
                "and 'profile' from there and leaves other keys alone (a key of your own by that name: rename it, "
                "or give RetrievalContext(..., read_configurable=False))"
            )
    return taken


def with_configurable(config: RetrievalConfig, taken: Mapping[str, Any]) -> RetrievalConfig:
    """``config`` with ``taken`` (`configurable_settings`): the profile, then the settings.

    Raises:
        ConfigError: An unknown profile, or a value ``override`` refuses, naming where it came from.
    """
    changes = {k: v for k, v in taken.items() if k != PROFILE_KEY}
    profile = taken.get(PROFILE_KEY)
    if profile is not None:
        if not isinstance(profile, str):
            raise ConfigError(f"{_WHERE}['profile'] must be a profile's name ({', '.join(sorted(PROFILES))}); "
                              f"give settings as keys of their own, got {profile!r:.60}")
        if profile not in PROFILES:
            raise ConfigError(f"{_WHERE}['profile']: {unknown_profile(profile)}")
        changes = {**PROFILES[profile], **changes}
    try:
        return config.override(**changes)
    except ConfigError as exc:
        raise ConfigError(f"{_WHERE} {sorted(taken)}: {exc}") from None
