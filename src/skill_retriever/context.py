"""The LangGraph context of the retrieval graph, and the view of one query that it pins.

``RetrievalContext`` carries what a caller provides once (the index, default settings, the
reranker). Each query pins, at its entry (``plan_query``), one :class:`QueryView`: one
index snapshot, the settings resolved once with the call's overrides, and its filters.
Every later phase reads that view and nothing else, so a query sees one version of the
index and resolves nothing twice.

Where the view lives: :class:`~skill_retriever.retriever.Retriever` (the door every
adapter uses) pins the snapshot itself, so its answer cache is keyed by the snapshot the
answer came from; the view is then kept in the context under a key written into the state
(``pin``), and released by the last phase. Stores and models never enter the state, which
stays JSON for checkpointers, LangGraph Server and Studio.
"""

from __future__ import annotations

import copy
import logging
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from skill_retriever.config import SETTING_NAMES, RetrievalConfig, unknown_profile
from skill_retriever.config_profiles import PROFILES
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.rerank_wanted import reranks

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    import numpy as np
    from numpy.typing import NDArray

    from skill_retriever.rerank import Reranker
    from skill_retriever.retriever_args import Default
    from skill_retriever.stores.index import Index
    from skill_retriever.stores.snapshot import IndexSnapshot

log = logging.getLogger("skill_retriever")

#: Queries whose views one context holds at once; an older one is released (a query that
#: failed half-way never reaches the phase that releases its view).
MAX_IN_FLIGHT = 1024
#: Index versions (snapshots) the held views may span; the views of the oldest go first.
#: A run that never reaches its last phase (a stream its reader stopped reading, an
#: ``ainvoke`` cancelled) holds its view for good, and after a write each such view holds
#: a whole old snapshot: without this bound, a long-lived context that is also written to
#: kept one per abandoned run, up to `MAX_IN_FLIGHT` (`tests/test_abandoned_runs.py`).
#: A query still running on a version this drops resolves its view again, on the index as
#: it is then, as one resumed from a checkpoint does (`RetrievalContext.view`).
MAX_HELD_VERSIONS = 4


@dataclass(frozen=True)
class QueryView:
    """What every phase of one query reads: one snapshot, resolved settings, filters."""

    snapshot: IndexSnapshot
    config: RetrievalConfig
    filters: Filters
    reranker: Reranker | None
    #: How many entries of each channel's list fusion reads (``channel_depth`` before
    #: ``resolve`` made the lists at least ``k`` long): a list's entries past it only
    #: append to the answer (`algorithms.fixed_depth`), so a larger ``k`` never reorders
    #: the top.
    fusion_depth: int
    #: Resolved again after the run began (resumed from a checkpoint, or its pinned view
    #: let go): the ids in the state may be of another version of the index, which the
    #: phases check against this one (`phases._helpers.held_only`). False for a pinned view,
    #: whose snapshot wrote every id in the state, so the check costs a run nothing.
    resolved_again: bool = False
    #: The settings (and ``profile``) the run's ``config["configurable"]`` gave
    #: (`run_configurable`): the plan's stats name them.
    configured: Mapping[str, Any] = field(default_factory=dict, compare=False)
    #: A warning for each key of that ``configurable`` one slip from a setting's name, left
    #: alone (`run_configurable.near_misses`): the plan's warnings carry them.
    configurable_misses: tuple[str, ...] = field(default=(), compare=False)
    #: The query's embedding by the text embedded (`embedding`): held here, not in the state.
    _embeddings: dict[str, NDArray[np.float32]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def visible(self) -> Filters:
        """Access only: what the caller may see at all (graph walks cross other kinds)."""
        return self.filters.visibility()

    def embedding(self, text: str) -> NDArray[np.float32]:
        """The query's one embedding, of ``text`` (what its channels search), for every phase.

        Not a state key: the state rides in every chunk of ``stream_mode="values"`` and
        ``"debug"``, in each node's inputs in a trace, and in every checkpoint of a thread,
        which then kept the last query's embedding: a list of the model's floats in every
        step, and no use to a reader. ``plan_query`` embeds the query once; a
        view resolved again (a run resumed in a process that holds no view of it) embeds
        the text again at its first use, once.
        """
        found = self._embeddings.get(text)
        if found is None:
            found = self._embeddings[text] = self.snapshot.embed_query(text)
        return found

    def keep_embedding(self, text: str, vector: Sequence[float]) -> None:
        """Hold ``vector`` (a caller's precomputed ``query_vector``) as the embedding of ``text``."""
        import numpy as np

        self._embeddings[text] = np.asarray(vector, dtype=np.float32)


#: The keys of the server graph's JSON context (``langgraph_server.ServerContext``): a
#: dict holding one was meant for that graph.
_SERVER_KEYS = ("index_dir", "rerank", "cross_encoder")
_HOW = "the retrieval graph runs with context=RetrievalContext(index=Index.open(...))"


class _Checked(type):
    """Checks the keywords a ``RetrievalContext`` is called with before the dataclass does.

    LangGraph builds the context from a plain dict (``graph.invoke(..., context={...})``)
    by calling the class with it; the dataclass's own ``TypeError`` (an unexpected
    ``index_dir``, a missing ``index``) would not say what to pass instead. A metaclass
    sees exactly those calls, and not ``copy``'s, which bypass ``__init__``.
    """

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(kwargs) - known)
        server = [k for k in unknown if k in _SERVER_KEYS]
        if server:
            raise ConfigError(
                f"{_HOW}, got {server[0]!r}: a JSON context like that is for the server graph "
                "(skill_retriever.adapters.langgraph_server.build_server_graph)"
            )
        if unknown:
            public = ", ".join(sorted(k for k in known if not k.startswith("_")))
            raise ConfigError(f"{_HOW}; it takes {public}, got unknown {unknown[0]!r}")
        if not args and "index" not in kwargs:
            raise ConfigError(f"{_HOW}; it got no index")
        return super().__call__(*args, **kwargs)


#: The context's JSON schema: what it holds, in words. It is Python objects, not JSON (a
#: caller with JSON only runs the server graph, whose context is ``ServerContext``).
_JSON_SCHEMA: dict[str, Any] = {
    "title": "RetrievalContext",
    "description": f"Python objects, not JSON: {_HOW}. A JSON context (index_dir, rerank, cross_encoder) is "
    "the server graph's (skill_retriever.adapters.langgraph_server).",
    "type": "object",
    "properties": {
        "index": {"description": "The Index to search: Index.open(path)."},
        "config": {"description": "Default settings, a RetrievalConfig; left out: RetrievalConfig()."},
        "reranker": {"description": "A Reranker, DEFAULT_RERANKER (Retriever's default), or null for none (the default)."},
        "snapshot": {"description": "An IndexSnapshot of the index to search; null: its current one."},
        "read_configurable": {"description": "Whether a run's config['configurable'] settings apply (default true)."},
    },
    "required": ["index"],
}


@dataclass(frozen=True)
class RetrievalContext(metaclass=_Checked):
    """The LangGraph context of the retrieval graph: the index, default settings, reranker.

    Args:
        index: The index to search.
        config: Default settings; a call's ``profile``, ``k``, ``token_budget`` and
            ``route`` override them.
        reranker: The reranker, None for none, or `DEFAULT_RERANKER` for `Retriever`'s
            default (a cross-encoder when one loads offline, else none), loaded at the
            context's first query.
        snapshot: A snapshot to search (``Retriever`` pins one per query); None searches
            the index's current snapshot, taken when the query starts.
        read_configurable: Apply the settings (and ``profile``) of a run's
            ``config["configurable"]`` over ``config`` (`run_configurable`); the input's own
            ``profile``, ``k``, ``token_budget`` and ``route`` still come last. False for
            the contexts ``Retriever`` and the served graphs make: the one has its own
            settings per call (its answer cache is keyed by them), the others bound what a
            client may set.
    """

    index: Index
    config: RetrievalConfig = field(default_factory=RetrievalConfig)
    reranker: Reranker | Default | None = None
    snapshot: IndexSnapshot | None = None
    read_configurable: bool = True
    #: `DEFAULT_RERANKER` as loaded (`_reranker`): one entry once the first query loaded it.
    _loaded: list[Reranker | None] = field(default_factory=list, compare=False, repr=False)
    _views: OrderedDict[str, QueryView] = field(default_factory=OrderedDict, compare=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """What pydantic makes of this context (LangGraph's ``get_context_jsonschema``):
        an instance, checked as one, with the JSON schema `_JSON_SCHEMA`. From the fields
        pydantic failed: their types (an Index, a Reranker) are imported only for type
        checkers, as importing them at once slowed ``import skill_retriever``, and they are
        Python objects with no JSON form anyway."""
        from pydantic_core import core_schema

        return core_schema.is_instance_schema(cls)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> dict[str, Any]:
        return copy.deepcopy(_JSON_SCHEMA)

    def __post_init__(self) -> None:
        """Refuse an index, config, reranker or snapshot that is not one here, not at the first search
        (where a path given for the index failed as ``'str' object has no attribute
        'snapshot'``, a dict of settings for the config as ``'dict' object has no attribute
        'use_calibration'``, and a model name for the reranker in every query's rerank
        phase, logged and skipped), in `Retriever`'s words for the last two."""
        from skill_retriever.retriever_args import check_config, check_reranker
        from skill_retriever.stores.index import Index

        if not isinstance(self.index, Index):
            raise ConfigError(
                "context.index must be an Index (RetrievalContext(index=Index.open(path))), "
                f"got {type(self.index).__name__}"
            )
        if self.config is None:  # Retriever's None is the default; a context leaves it out
            raise ConfigError("context.config must be a RetrievalConfig (leave it out for RetrievalConfig()), got None")
        try:
            check_config(self.config)
            check_reranker(self.reranker)
        except ConfigError as exc:
            raise ConfigError(f"context.{exc}") from None
        if not isinstance(self.read_configurable, bool):
            raise ConfigError(f"context.read_configurable must be True or False, got {self.read_configurable!r:.40}")
        from skill_retriever.stores.snapshot import IndexSnapshot

        snap = self.snapshot  # anything else failed every query: "'str' object has no attribute 'memo'"
        if snap is not None and not (isinstance(snap, IndexSnapshot) and snap.path == self.index.path):
            got = f"one of {snap.path}" if isinstance(snap, IndexSnapshot) else type(snap).__name__
            raise ConfigError(f"context.snapshot must be one its index gave (index.snapshot()) or None, got {got}")

    def pin(self, state: dict[str, Any] | Any) -> tuple[str, QueryView]:
        """Pin this query's view: take the snapshot, resolve the settings and filters.

        Raises:
            ConfigError: A bad profile or filter (the caller's error, raised at once).
        """
        key = uuid.uuid4().hex
        return key, self._hold(key, self._resolve(state))

    def view(self, state: dict[str, Any] | Any) -> QueryView:
        """The view ``plan_query`` pinned for this query."""
        key = state.get("pin")
        with self._lock:
            found = self._views.get(key) if key else None
        if found is not None:
            return found
        # A state resumed from a checkpoint in another process (or a view released by
        # the in-flight limit): resolve again, on the index as it is now, and hold it under
        # the query's key, where the later phases find it and the last one releases it.
        log.info("[skill_retriever] query view %r not held; resolving it again", key)
        view = replace(self._resolve(state), resolved_again=True)
        return self._hold(key, view) if key else view

    def _resolve(self, state: dict[str, Any] | Any) -> QueryView:
        from skill_retriever.run_configurable import (
            configurable_settings,
            near_misses,
            run_configurable,
            with_configurable,
        )

        snap = self.snapshot if self.snapshot is not None else self.index.snapshot()
        configurable = run_configurable() if self.read_configurable else {}
        taken = configurable_settings(configurable)
        base = with_configurable(self.config, taken) if taken else self.config
        filters = Filters.from_spec(state.get("filters"))
        settings = _settings(base, state, snap, filters)
        config = _deep_enough(settings)
        reranker = self._reranker() if reranks(config) else None  # none loaded for a search that reranks nothing
        return QueryView(snap, config, filters, reranker, settings.channel_depth, configured=taken,
                         configurable_misses=tuple(near_misses(configurable)))

    def _reranker(self) -> Reranker | None:
        """The reranker, `DEFAULT_RERANKER` resolved as `Retriever` resolves it: at the first
        query that reranks, once (it passed the check, and every query then failed its
        rerank phase: "'Default' object has no attribute 'score'")."""
        from skill_retriever.retriever_args import Default

        if not isinstance(self.reranker, Default):
            return self.reranker
        with self._lock:  # one load, however many queries start at once
            if not self._loaded:
                from skill_retriever.rerank import default_reranker

                self._loaded.append(default_reranker())
            return self._loaded[0]

    def _hold(self, key: str, view: QueryView) -> QueryView:
        with self._lock:
            self._views[key] = view
            while len(self._views) > MAX_IN_FLIGHT:
                self._views.popitem(last=False)
            _drop_oldest_versions(self._views, MAX_HELD_VERSIONS)
        return view

    def release(self, state: dict[str, Any] | Any) -> None:
        with self._lock:
            self._views.pop(state.get("pin") or "", None)


def _drop_oldest_versions(views: OrderedDict[str, QueryView], keep: int) -> None:
    """Release the views of all but the ``keep`` newest snapshots among ``views`` (held
    oldest first, so a snapshot's first view says how old it is)."""
    versions = list(dict.fromkeys(id(v.snapshot) for v in views.values()))
    if len(versions) <= keep:
        return
    old = set(versions[: len(versions) - keep])
    for key in [k for k, v in views.items() if id(v.snapshot) in old]:
        del views[key]


def resolve(config: RetrievalConfig, state: dict[str, Any] | Any, snapshot: IndexSnapshot | None = None) -> RetrievalConfig:
    """``config`` with the call's ``profile``, ``k``, ``token_budget`` and ``route``, then
    what the snapshot suggests for the settings still at their built-in defaults
    (``calibration.defaults``; without a snapshot, the neutral values). Each channel's
    list (``channel_depth``) is made at least ``k`` long; fusion still reads only the
    depth set before that (``QueryView.fusion_depth``).

    Raises:
        ConfigError: The profile is not a mapping of settings, or a value is bad.
    """
    return _deep_enough(_settings(config, state, snapshot))


def _settings(config: RetrievalConfig, state: dict[str, Any] | Any, snapshot: IndexSnapshot | None,
              filters: Filters | None = None) -> RetrievalConfig:
    """The settings of a query: the call's, then the caller's config, then what the index
    suggests, decided over what ``filters``' caller may see (over every item when None)."""
    from skill_retriever.calibration.defaults import IndexDefaults, index_defaults

    defaults = index_defaults(snapshot, filters) if snapshot is not None else IndexDefaults("other")
    return defaults.apply(_with_call(config, state))


def _deep_enough(settings: RetrievalConfig) -> RetrievalConfig:
    if settings.k > settings.channel_depth:  # each channel's list is at least as long as the answer
        # (it stopped at 50 deep: k=500 came back with far fewer, and nothing said why)
        return settings.override(channel_depth=settings.k)
    return settings


#: Where a bad ``profile`` input may come from: a parent graph that runs this graph as its node
#: passes its whole state, so its own key of that name (a user's profile) reached the graph,
#: which said only "unknown setting(s) ['name']; see RetrievalConfig", naming no input key.
PARENT_PROFILE_HINT = ("a parent graph's own state key 'profile' is read as it: rename that key, or call the "
                       "graph from a wrapper node that maps your state")


def _with_call(config: RetrievalConfig, state: dict[str, Any] | Any) -> RetrievalConfig:
    profile = state.get("profile") or {}
    if isinstance(profile, str):  # a named profile, as the served graph and the CLI take one
        if profile not in PROFILES:
            raise unknown_profile(profile, ", or give a mapping of settings")
        profile = dict(PROFILES[profile])
    if not isinstance(profile, dict) or not all(isinstance(k, str) for k in profile):
        raise ConfigError(f"profile must be a profile name ({', '.join(sorted(PROFILES))}) or map RetrievalConfig "
                          f"settings to values, got {profile!r:.60} ({PARENT_PROFILE_HINT})")
    changes: dict[str, Any] = dict(profile)
    if state.get("k") is not None:
        changes["k"] = state["k"]
    if "token_budget" in state:
        changes["token_budget"] = state["token_budget"]
    if state.get("route"):
        changes["route"] = state["route"]
    if not changes:
        return config
    try:
        return config.override(**changes)
    except TypeError as exc:
        raise ConfigError(f"bad retrieval profile: {exc}") from exc
    except ConfigError:
        if profile:  # said of the profile when its own settings are what fails
            try:
                config.override(**profile)
            except ConfigError as own:
                # a key that is no setting at all: likely no profile of settings (a user's)
                hint = f" ({PARENT_PROFILE_HINT})" if set(profile) - SETTING_NAMES else ""
                raise ConfigError(f"the input's profile: {own}{hint}") from None
        raise


__all__ = ["MAX_HELD_VERSIONS", "MAX_IN_FLIGHT", "QueryView", "RetrievalContext", "resolve"]
