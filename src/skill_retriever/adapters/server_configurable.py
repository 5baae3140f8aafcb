"""A served run's settings from LangGraph's ``config["configurable"]``: where LangGraph Platform
keeps an assistant's settings (``client.assistants.create("retrieval", config={"configurable":
{"k": 3}})``) and where a client passes per-run ones. The served graphs run the retrieval graph
with ``read_configurable=False`` (a client's settings there would pass unbounded), so such an
assistant searched for the default 10, its k dropped without a word.

Read here instead, through the checks a run's own ``profile`` input passes: a profile's name
(this package's own, taken as it is), settings each checked by ``RetrievalConfig.override``, a
cost setting at most what the server runs on its index (`server_inputs.run_profile`,
``COST_CAPS``), ``encoding`` refused; each refusal names ``config['configurable']``. What is
read and what is left alone is as for the compiled graph (`run_configurable`): LangGraph's and
the LangGraph API's own keys pass unread, a key one slip from a setting's name is left alone
and named in a warning. The run's own input (``profile``, ``k``, ``token_budget``, ``route``)
comes after these, as it comes after them in the compiled graph.

The LangGraph API copies a run's JSON context into its configurable (and an assistant's
configurable into its context): the keys of `ServerContext` there (``rerank`` is also a
setting's name) are the context's, which the served graph already applies, and are not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from skill_retriever.adapters.server_inputs import run_profile
from skill_retriever.config import RetrievalConfig
from skill_retriever.config_profiles import PROFILES
from skill_retriever.run_configurable import (
    PROFILE_KEY,
    WHERE,
    configurable_settings,
    near_misses,
    run_configurable,
    with_configurable,
)

__all__ = ["CONTEXT_KEYS", "ServedConfigurable", "served_configurable", "with_taken"]

#: `langgraph_server.ServerContext`'s fields (named here: that module imports this one).
CONTEXT_KEYS = frozenset({"index_dir", "rerank", "cross_encoder"})


@dataclass(frozen=True)
class ServedConfigurable:
    """What a served run takes from its ``configurable``.

    Attributes:
        taken: the settings (and ``profile``) as given there: the answer's stats name them.
        settings: what they set, the profile's settings first, for `Retriever.search`.
        warnings: one for each key one slip from a setting's name (left alone).
    """

    taken: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def served_configurable(own: RetrievalConfig, configurable: Mapping[str, Any] | None = None) -> ServedConfigurable:
    """The checked settings of ``configurable`` (default: the running graph's).

    Args:
        own: what the server runs on the index searched (`langgraph_server.server_settings`):
            the limits of the cost settings.
        configurable: the run's ``configurable``; None reads it from the run (`run_configurable`).

    Raises:
        ConfigError: An unknown profile, a value ``override`` refuses, a cost setting over
            the server's limit, or ``encoding``, each naming ``config['configurable']``.
    """
    given = {k: v for k, v in (run_configurable() if configurable is None else configurable).items()
             if k not in CONTEXT_KEYS}
    taken = configurable_settings(given)
    own_settings = {k: v for k, v in taken.items() if k != PROFILE_KEY}
    run_profile(own_settings, own, where=WHERE)  # the limits first: encoding is never handed to override
    with_configurable(own, taken)  # types, ranges and the profile's name, in the compiled graph's words
    profile = taken.get(PROFILE_KEY)
    named = dict(PROFILES[profile]) if isinstance(profile, str) else {}
    return ServedConfigurable(taken, {**named, **own_settings}, near_misses(given, served=True))


def with_taken(stats: Mapping[str, Any], warnings: list[str], configured: ServedConfigurable
               ) -> tuple[dict[str, Any], list[str]]:
    """An answer's ``stats`` and ``warnings`` saying what ``configured`` took and missed, where the
    compiled graph says it (``stats["plan_query"]["configurable"]``). New dicts: the answer may
    be the `Retriever`'s cached one, which another run's configurable must not mark."""
    out = dict(stats)
    if configured.taken:
        plan = out.get("plan_query")
        out["plan_query"] = {**(plan if isinstance(plan, Mapping) else {}), "configurable": dict(configured.taken)}
    return out, [*warnings, *configured.warnings]
