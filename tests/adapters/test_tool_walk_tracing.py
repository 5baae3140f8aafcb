"""What ``tracing``'s docstring promises, as a user walkthrough checked it: it said the
phase tags work with ``collect_runs()``, but ``with collect_runs() as cb:`` alone records
only the outermost run (LangChain hands that collector to no nested run), so a user saw the
graph's run with no children. What holds, and is checked here with a real tracer passed
in the call's config: every phase run, nested under the agent tool's run, carries its tags
and metadata (test_phase_tracing.py checks the graph and the retriever).
"""

from __future__ import annotations

from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.context import collect_runs
from langchain_core.tracers.schemas import Run

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index
from skill_retriever.tracing import TAG

#: The phases every route runs (test_phase_tracing.py's COMMON).
EVERY_ROUTE = {"plan_query", "retrieve_seeds", "search_keywords", "search_temporal", "fuse_rrf",
               "cover_clauses", "rerank_cross_encoder", "apply_token_budget"}  # fmt: skip


class RunsTracer(BaseTracer):
    """Keeps each finished root run, its child runs attached (what LangSmith shows)."""

    def __init__(self) -> None:
        super().__init__()
        self.roots: list[Run] = []

    def _persist_run(self, run: Run) -> None:
        self.roots.append(run)


def _all(run: Run) -> list[Run]:
    return [run, *(r for child in run.child_runs for r in _all(child))]


def test_a_tracer_in_the_config_gets_every_phase_run_under_the_tool(sample_index: Index) -> None:
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None))
    tracer = RunsTracer()
    tool.invoke({"query": "review a postgres migration", "k": 3}, config={"callbacks": [tracer], "tags": ["my-agent"]})
    (root,) = tracer.roots
    assert root.name == "search_skills" and root.run_type == "tool"
    (graph_run,) = root.child_runs
    assert graph_run.name == "skill_retriever"
    phases = {r.name: r for r in graph_run.child_runs if (r.extra or {}).get("metadata", {}).get("phase") == r.name}
    assert EVERY_ROUTE <= set(phases)
    route = phases["plan_query"].extra["metadata"]["route"]  # type: ignore[index]
    for name, run in phases.items():
        meta = run.extra["metadata"]  # type: ignore[index]
        assert meta["query"] == "review a postgres migration" and meta["route"] == route and "ms" in meta["stats"]
        assert {TAG, f"phase:{name}", f"route:{route}", "my-agent"} <= set(run.tags or [])


def test_collect_runs_alone_sees_no_phase_and_passed_in_sees_them_all(sample_index: Index) -> None:
    """The docstring's caveat, held to LangChain's behaviour: should LangChain start
    handing its collector down, this fails, and the docstring can say so."""
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None))
    with collect_runs() as alone:
        tool.invoke({"query": "format python code on commit"})  # a new query: the answer cache holds none
    (root,) = alone.traced_runs
    assert root.name == "search_skills"
    assert not any(r.tags and f"phase:{r.name}" in r.tags for r in _all(root))
    with collect_runs() as passed:
        tool.invoke({"query": "lint python before a commit"}, config={"callbacks": [passed]})
    (root,) = passed.traced_runs
    assert EVERY_ROUTE <= {r.name for r in _all(root) if r.tags and f"phase:{r.name}" in r.tags}
