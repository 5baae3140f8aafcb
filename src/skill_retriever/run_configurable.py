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
A key one slip from a setting's name (``kk``, ``token_budgt``: `config.close_name`, as everywhere
else) is left alone too, but named in the answer's warnings with the setting it may mean, so it
is not dropped as silently as ``k`` was. It is not refused: that rule also matches keys of other
meanings that parent applications use (``timeout`` -> phase_timeouts, ``provider`` -> profile,
``budget`` -> budget_fill, ``alpha``), and one would fail every run of their graph.

Read from the run's config (``langgraph.config.get_config``) where the view is resolved, so
a view resolved again in a later phase (a run resumed from a checkpoint) reads it as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.config import (
    SETTING_NAMES,
    RetrievalConfig,
    close_name,
    unknown_profile,
)
from skill_retriever.config_profiles import PROFILES
from skill_retriever.exceptions import ConfigError

__all__ = ["PROFILE_KEY", "WHERE", "configurable_settings", "near_misses", "run_configurable", "with_configurable"]

PROFILE_KEY = "profile"
#: Keys LangGraph and the LangGraph API put in a run's configurable: never a slip of ours.
_LANGGRAPH_KEYS = frozenset({"thread_id", "checkpoint_ns", "checkpoint_id", "checkpoint_map", "run_id", "user_id",
                             "graph_id", "assistant_id", "task_id"})
WHERE = "config['configurable']"


def run_configurable() -> Mapping[str, Any]:
    """The running graph's ``configurable`` ({} outside a run: a check before it)."""
    from langgraph.config import get_config

    try:
        found = get_config().get("configurable")
    except RuntimeError:  # not inside a runnable context
        return {}
    return found if isinstance(found, Mapping) else {}


def _ours_to_read(key: object) -> bool:
    return isinstance(key, str) and not key.startswith(("__", "langgraph_")) and key not in _LANGGRAPH_KEYS


def configurable_settings(configurable: Mapping[str, Any]) -> dict[str, Any]:
    """The settings (and ``profile``) ``configurable`` holds, in its order."""
    return {k: v for k, v in configurable.items() if _ours_to_read(k) and (k in SETTING_NAMES or k == PROFILE_KEY)}


def near_misses(configurable: Mapping[str, Any], served: bool = False) -> list[str]:
    """One warning for each key of ``configurable`` one slip from a setting's name (left alone).
    ``served``: said to a LangGraph server's client, who has no ``RetrievalContext`` to change."""
    names = (*SETTING_NAMES, PROFILE_KEY)
    reader, other = ("this server", "") if served else (
        "the retrieval graph", ", or give RetrievalContext(..., read_configurable=False) to read none")
    return [
        f"{WHERE} key {key!r} is no setting{meant}, so it was left alone; {reader} reads "
        f"RetrievalConfig's settings and 'profile' from there (a key of your own: nothing to do{other})"
        for key in configurable
        if _ours_to_read(key) and key not in names and (meant := close_name(str(key), names))
    ]


def with_configurable(config: RetrievalConfig, taken: Mapping[str, Any]) -> RetrievalConfig:
    """``config`` with ``taken`` (`configurable_settings`): the profile, then the settings.

    Raises:
        ConfigError: An unknown profile, or a value ``override`` refuses, naming where it came from.
    """
    changes = {k: v for k, v in taken.items() if k != PROFILE_KEY}
    profile = taken.get(PROFILE_KEY)
    if profile is not None:
        if not isinstance(profile, str):
            raise ConfigError(f"{WHERE}['profile'] must be a profile's name ({', '.join(sorted(PROFILES))}); "
                              f"give settings as keys of their own, got {profile!r:.60}")
        if profile not in PROFILES:
            raise ConfigError(f"{WHERE}['profile']: {unknown_profile(profile)}")
        changes = {**PROFILES[profile], **changes}
    try:
        return config.override(**changes)
    except ConfigError as exc:
        raise ConfigError(f"{WHERE} {sorted(taken)}: {exc}") from None
