"""What every phase shares: the per-call settings, filters, and the phase wrapper that
times, logs one line, and turns a failure of an optional phase into a warning."""

from __future__ import annotations

import contextvars
import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from langgraph.runtime import Runtime

from skill_retriever.adapters.tracing import annotate_phase
from skill_retriever.config import RetrievalConfig, RetrievalContext
from skill_retriever.exceptions import ConfigError, PhaseTimeoutError, SkillRetrieverError
from skill_retriever.filters import Filters
from skill_retriever.identity_cache import IdentityLRU
from skill_retriever.state import RetrievalState

log = logging.getLogger("skill_retriever")

Update = dict[str, Any]
PhaseFn = Callable[[RetrievalState, Runtime[RetrievalContext]], Update]
F = TypeVar("F", bound=PhaseFn)


def settings(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> RetrievalConfig:
    """The context's config with this call's profile, k, budget and route applied."""
    config = runtime.context.config
    profile = state.get("profile") or {}
    if not isinstance(profile, dict) or not all(isinstance(k, str) for k in profile):
        raise ConfigError(f"profile must map RetrievalConfig settings to values, got {profile!r:.60}")
    changes: dict[str, Any] = dict(profile)
    if state.get("k") is not None:
        changes["k"] = state["k"]
    if "token_budget" in state:
        changes["token_budget"] = state["token_budget"]
    if state.get("route"):
        changes["route"] = state["route"]
    if not changes:
        return config
    return _resolved(config, changes)


#: Resolved configs by (base config, changes). Every phase of a search resolves the same
#: changes, and each resolution builds and validates a RetrievalConfig: done once per
#: search instead of once per phase. Keyed by the repr of the changes (values are plain
#: data: numbers, strings, tuples, dicts, datetimes) and guarded by the base config object.
_RESOLVED: IdentityLRU[RetrievalConfig] = IdentityLRU(256)


def _resolved(config: RetrievalConfig, changes: dict[str, Any]) -> RetrievalConfig:
    def build() -> RetrievalConfig:
        try:
            return config.override(**changes)
        except TypeError as exc:
            raise ConfigError(f"bad retrieval profile: {exc}") from exc

    key = (id(config), repr(sorted(changes.items(), key=lambda kv: kv[0])))
    return _RESOLVED.get_or_build(key, (config,), build)


def filters_of(state: RetrievalState) -> Filters:
    spec = state.get("filters") or {}
    if not isinstance(spec, dict):
        raise ConfigError(f"filters must be a mapping, got {type(spec).__name__}")
    unknown = set(spec) - {"kinds", "tags", "principals", "since", "until"}
    if unknown:
        raise ConfigError(f"unknown filter(s) {sorted(unknown)}; use kinds, tags, principals, since, until")
    return Filters(**spec)  # type: ignore[arg-type]


def phase(name: str, *, optional: bool) -> Callable[[F], F]:
    """Wrap a phase: time it, log one line, record stats, tag its trace run; degrade if
    ``optional``.

    A failing optional phase returns only a warning (the state keeps what earlier phases
    produced); a failing required phase raises. Every failure is logged with its cause.
    A phase that runs past its limit (``RetrievalConfig.timeout_for(name)``) has failed
    with `PhaseTimeoutError` (see `_call`).
    """

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
            start = time.perf_counter()
            try:
                update = _call(name, fn, state, runtime)
            except SkillRetrieverError:
                if not optional:
                    raise
                update = _degrade(name, start)
            except Exception as exc:
                if not optional:
                    raise SkillRetrieverError(f"{name} failed: {type(exc).__name__}: {exc}") from exc
                log.warning("[skill_retriever][%s] failed, degrading: %r", name, exc, exc_info=True)
                update = _degrade(name, start, exc)
            else:
                ms = (time.perf_counter() - start) * 1000.0
                mine = dict((update.get("stats") or {}).get(name, {}))
                mine["ms"] = round(ms, 3)
                update["stats"] = {**(update.get("stats") or {}), name: mine}
                detail = " ".join(f"{k}={v}" for k, v in mine.items() if not isinstance(v, (list, dict)))
                log.info("[skill_retriever][%s] %s", name, detail)
            annotate_phase(name, state, update)  # query, route, stats on this node's trace run
            return update

        return run  # type: ignore[return-value]

    return wrap


def _timeout(name: str, state: RetrievalState, runtime: Runtime[RetrievalContext]) -> float | None:
    config = runtime.context.config
    profile = state.get("profile")
    asked = isinstance(profile, dict) and ("phase_timeout_s" in profile or "phase_timeouts" in profile)
    if config.phase_timeout_s is None and not config.phase_timeouts and not asked:
        return None  # the common case: no settings() call, no thread
    try:
        return settings(state, runtime).timeout_for(name)
    except ConfigError:
        return None  # the phase itself raises the same error


def _call(name: str, fn: PhaseFn, state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
    """Run a phase body; under a time limit, in a worker thread.

    A thread cannot be stopped from outside: when the limit passes, the caller goes on
    (an optional phase degrades, a required one raises `PhaseTimeoutError`) while the
    abandoned work runs to its end in the background and its result is discarded. The
    worker runs in a copy of the caller's context, so LangGraph's runtime and tracing
    context reach it.
    """
    limit = _timeout(name, state, runtime)
    if limit is None:
        return fn(state, runtime)
    box: dict[str, Any] = {}
    context = contextvars.copy_context()

    def work() -> None:
        try:
            box["update"] = context.run(fn, state, runtime)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread below
            box["error"] = exc

    worker = threading.Thread(target=work, name=f"skill_retriever:{name}", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        raise PhaseTimeoutError(
            f"{name} did not finish within {limit:g} s; raise phase_timeouts[{name!r}] "
            "(or phase_timeout_s), or find what makes it slow"
        )
    if "error" in box:
        raise box["error"]
    update: Update = box["update"]
    return update


def _degrade(name: str, start: float, exc: BaseException | None = None) -> Update:
    import sys

    if exc is None:
        exc = sys.exc_info()[1]
        log.warning("[skill_retriever][%s] failed, degrading: %s", name, exc)
    reason = f"{type(exc).__name__}: {exc}"
    ms = round((time.perf_counter() - start) * 1000.0, 3)
    return {
        "warnings": [f"{name} failed and was skipped ({reason}); results come from the other phases"],
        "stats": {name: {"failed": reason, "ms": ms}},
    }
