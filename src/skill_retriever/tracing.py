"""Tracing: each retrieval phase is its own named run, tagged with the query, route and stats.

LangGraph already opens one run per node, named after the node (``plan_query``,
``run_ppr``, ...), nested under the graph's run; LangSmith, Studio and any LangChain
tracer see that tree. What a node's run lacks is what the phase decided, because that is
known only when the phase has run. :func:`annotate_phase` adds it to the node's own run
while the run is still open, so the tracer sends it with the run's end:

* metadata ``phase``, ``query``, ``route`` and ``stats`` (the phase's stats dict, the
  same one the graph writes into ``state["stats"][phase]``);
* tags ``skill_retriever``, ``phase:<name>``, ``route:<route>``, plus ``degraded`` when an
  optional phase failed and was skipped.

What is known before a phase runs, its name, :func:`tag_phase_nodes` puts on the node
itself as the tags ``skill_retriever`` and ``phase:<name>``, so the run carries them from
its start (and its child runs inherit them): an event stream (``astream_events``, v1 and v2) takes a run's
tags and metadata when it starts and sees nothing added later, and v2's handler is no
tracer, so ``include_tags=["skill_retriever"]`` streamed no event at all.

A tracer sees the phase runs when it is handed down to them: one built on
:class:`langchain_core.tracers.base.BaseTracer` and passed in the call's config
(``graph.invoke(..., config={"callbacks": [tracer]})``, the same for the retriever and the
agent tool) gets every phase run with these tags and metadata, and so does LangSmith's
tracer, which ``LANGSMITH_TRACING=true`` (with ``LANGSMITH_API_KEY``) adds to every run.
``with collect_runs() as cb:`` alone records only the outermost run (with LangGraph, the
graph's run with no children): LangChain does not hand its collector down to nested runs.
Pass ``cb`` itself in ``config={"callbacks": [cb]}`` and it gets them all.
It costs a few attribute reads when no tracer is attached, and never sends anything itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.tracers.base import BaseTracer

#: Tag on every phase run, to filter a trace down to the retrieval.
TAG = "skill_retriever"
#: Metadata values longer than this are cut (a query may be 4,000 characters).
MAX_QUERY_CHARS = 500


class _Node(Protocol):
    tags: Sequence[str] | None


def phase_tags(name: str) -> list[str]:
    """The tags of a phase's run known before it runs (`phase_annotations` adds the rest)."""
    return [TAG, f"phase:{name}"]


def tag_phase_nodes(nodes: Mapping[str, _Node], names: Iterable[str]) -> None:
    """Give each compiled phase node (``compiled.nodes[name]``, a LangGraph ``PregelNode``)
    its `phase_tags`, which LangGraph puts on the node's run when it starts.
    ``StateGraph.add_node`` takes no tags; its ``metadata`` would do for the ``phase`` key,
    but ``get_graph()`` draws a node's metadata into the node (Studio's picture too)."""
    for name in names:
        node = nodes[name]
        node.tags = [*(node.tags or ()), *phase_tags(name)]


def annotate_current_run(metadata: Mapping[str, Any], tags: Sequence[str] = ()) -> int:
    """Add ``metadata`` and ``tags`` to the run of the LangGraph node now executing.

    Returns:
        How many tracers' runs were annotated (0 outside a traced node).
    """
    config = var_child_runnable_config.get()
    callbacks = config.get("callbacks") if config else None
    run_id = getattr(callbacks, "parent_run_id", None)  # the node's run: we run inside it
    if run_id is None:
        return 0
    annotated = 0
    for handler in getattr(callbacks, "handlers", ()):
        if not isinstance(handler, BaseTracer):
            continue
        run = handler.run_map.get(str(run_id))
        if run is None:
            continue
        run.add_metadata(dict(metadata))
        run.add_tags([t for t in tags if t not in (run.tags or [])])
        annotated += 1
    return annotated


def phase_annotations(
    name: str, state: Mapping[str, Any], update: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """The metadata and tags of one phase's run, from its input state and its update."""
    route = update.get("route_taken") or state.get("route_taken") or ""
    plan = state.get("plan") or update.get("plan") or {}
    query = str(plan.get("query") or state.get("query") or "")[:MAX_QUERY_CHARS]
    stats = dict((update.get("stats") or {}).get(name, {}))
    metadata = {"phase": name, "query": query, "route": route, "stats": stats}
    tags = phase_tags(name)
    if route:
        tags.append(f"route:{route}")
    if "failed" in stats:
        tags.append("degraded")
    return metadata, tags


def annotate_phase(name: str, state: Mapping[str, Any], update: Mapping[str, Any]) -> int:
    """Tag the running phase's run with its query, route and stats (see module doc)."""
    metadata, tags = phase_annotations(name, state, update)
    return annotate_current_run(metadata, tags)


__all__ = ["TAG", "annotate_current_run", "annotate_phase", "phase_annotations", "phase_tags", "tag_phase_nodes"]
