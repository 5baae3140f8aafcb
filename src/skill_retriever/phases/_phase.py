"""What every phase shares: the query's pinned view, and the wrapper that times a phase,
logs one line, files its stats under its name, and turns a failure of an optional phase
into a warning.

A phase is a function ``(state, view) -> Update`` decorated with :func:`phase`; its node
name, its log tag and its stats key are all the function's own name, written once. It
returns its stats as ``{"stats": {...}}`` and the wrapper files them under that name. On a
view resolved again (a run resumed from a checkpoint), the wrapper hands the phase only
the ids that view still holds (`_helpers.held_only`), and the last phase says how many
were left out.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from skill_retriever.context import QueryView, RetrievalContext
from skill_retriever.exceptions import ConfigError, PhaseTimeoutError, SkillRetrieverError
from skill_retriever.phases._helpers import held_only
from skill_retriever.responses import index_changed_warning
from skill_retriever.state import RetrievalState
from skill_retriever.tracing import annotate_phase

log = logging.getLogger("skill_retriever")

Update = dict[str, Any]
Body = Callable[[RetrievalState, QueryView], Update]


class Node(Protocol):
    """A graph node: LangGraph passes the run's context as the keyword ``runtime``."""

    __name__: str

    def __call__(self, state: RetrievalState, *, runtime: Runtime[RetrievalContext]) -> Update: ...


def phase(*, optional: bool, pins: bool = False, releases: bool = False) -> Callable[[Body], Node]:
    """Make ``fn(state, view)`` a graph node named ``fn.__name__``.

    A failing optional phase returns only a warning (the state keeps what earlier phases
    produced); a failing required phase raises. A phase that runs past its limit
    (``RetrievalConfig.timeout_for(name)``) has failed with `PhaseTimeoutError`.

    Args:
        optional: Degrade instead of failing the query.
        pins: The first phase: pin the query's view (snapshot, settings, filters).
        releases: The last phase: release the view once it has run.
    """

    def wrap(fn: Body) -> Node:
        name = fn.__name__

        def node(state: RetrievalState, runtime: Runtime[RetrievalContext]) -> Update:
            if not isinstance(runtime.context, RetrievalContext):  # the likeliest first mistake
                raise ConfigError(
                    f"the retrieval graph runs with context=RetrievalContext(index=Index.open(...)); "
                    f"it got {type(runtime.context).__name__} (graph.invoke(state, context=...), or a "
                    "parent graph whose context_schema is RetrievalContext; a parent context with fields "
                    "of its own may subclass RetrievalContext, as a @dataclass(frozen=True))"
                )
            start = time.perf_counter()
            pin = ""
            dropped: list[str] = []
            try:
                if pins:
                    pin, view = runtime.context.pin(state)
                else:
                    view = runtime.context.view(state)
                    # Here, once, rather than in each phase that reads ids: a phase that
                    # forgot would fail (or answer a deleted item) only on a resumed run.
                    state, dropped = held_only(state, view)
                update = _call(name, fn, state, view)
            except Exception as exc:
                ours = isinstance(exc, SkillRetrieverError)  # said already; anything else is a bug's
                if not optional:
                    # The query ends here: its pinned view (a whole snapshot) is let go, or a
                    # long-lived context would hold one per failed query.
                    runtime.context.release({"pin": pin} if pins else state)
                    if ours:
                        raise
                    raise SkillRetrieverError(f"{name} failed: {type(exc).__name__}: {exc}") from exc
                if not ours:
                    log.warning("[skill_retriever][%s] failed, degrading: %r", name, exc, exc_info=True)
                update = _degrade(name, start, None if ours else exc)
            else:
                mine = dict(update.get("stats") or {})
                mine["ms"] = round((time.perf_counter() - start) * 1000.0, 3)
                update["stats"] = {name: mine}
                detail = " ".join(f"{k}={v}" for k, v in mine.items() if not isinstance(v, (list, dict)))
                log.info("[skill_retriever][%s] %s", name, detail)
            if dropped:
                update["dropped_ids"] = dropped
            if releases:
                runtime.context.release(state)
                if gone := {*state.get("dropped_ids", ()), *dropped}:  # said once, for the whole run
                    update["warnings"] = [*update.get("warnings", []), index_changed_warning(len(gone))]
            annotate_phase(name, state, update)  # query, route, stats on this node's trace run
            if pin:  # the first phase: this run's stats and warnings start here
                update["pin"] = pin
                update["stats"] = Overwrite(update["stats"])
                update["warnings"] = Overwrite(update.get("warnings") or [])
            return update

        # Not functools.wraps: LangGraph reads the node's own signature to pass `runtime`.
        node.__name__ = node.__qualname__ = name
        node.__doc__ = fn.__doc__
        node.__module__ = fn.__module__
        return node

    return wrap


def _call(name: str, fn: Body, state: RetrievalState, view: QueryView) -> Update:
    """Run a phase body; under a time limit, in a worker thread.

    A thread cannot be stopped from outside: when the limit passes, the caller goes on
    (an optional phase degrades, a required one raises `PhaseTimeoutError`) while the
    abandoned work runs to its end in the background and its result is discarded. The
    worker runs in a copy of the caller's context, so LangGraph's runtime and tracing
    context reach it.
    """
    limit = view.config.timeout_for(name)
    if limit is None:
        return fn(state, view)
    box: dict[str, Any] = {}
    context = contextvars.copy_context()

    def work() -> None:
        try:
            box["update"] = context.run(fn, state, view)
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
