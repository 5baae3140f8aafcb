"""An example coding agent that uses the retrieval graph as a subgraph, both ways LangGraph
supports, retrieves the skills a user's coding task needs and passes their text on.

1. **Wrapper node** (:func:`build_agent_with_wrapper_node`, the ``graph`` that
   langgraph.json serves): the agent's state has its own keys (``task``, ``skills``,
   ``prompt``); the node ``retrieve_skills`` maps them to the retrieval graph's input,
   invokes it with a ``RetrievalContext`` and maps its output back.
2. **Subgraph as a node** (:func:`build_agent_with_subgraph_node`): the agent's state
   shares the retrieval graph's input and output keys (``query``, ``k``, ``token_budget``,
   ``filters`` in; ``results``, ``route_taken``, ``reranker``, ``stats``, ``warnings``,
   ``fit`` out), so the compiled graph is added as the node ``skill_retriever`` itself. It
   inherits the agent's context, which is therefore a ``RetrievalContext``.

Both answer ``skills``, ``prompt`` and ``answer``, with the retrieval's ``warnings`` (what
the budget dropped, that nothing fits, ...) and ``fit`` (how well the catalogue answers the
task; None when the index was never calibrated), which the prompt also puts in words.

Either way, each retrieval phase runs as its own node in the subgraph's namespace
(``stream(..., subgraphs=True)`` shows them) and its own run in a trace, and a
checkpointer on the agent checkpoints the subgraph too. Once its retrieval has read them,
a run sets ``k``, ``token_budget``, ``kinds`` and ``budget_fill`` back to their defaults
(`per_call_defaults`), so the next task of a checkpointed thread gets what it asks for,
not what the last one asked (also after a run paused before ``act`` and left). A new
task on a thread also starts from them for what it leaves out (``per_call`` of
`graph_input.input_checked`), so one given after a run paused or failed before its
retrieval read them gets its own too. Both refuse, before the run, an input key they do not take
(``topk``, ``max_tokens``: LangGraph would drop it unread), a run without ``task``
(`graph_input.input_checked`) and a bad value (``k=0``, an unknown kind:
`agent_task.task_values_checked`, so a checkpointed thread never keeps it), as the
retrieval graph does. Served, the settings of a run's ``config["configurable"]`` (where
LangGraph Platform keeps an assistant's) apply under the task's own input, bounded as the
served retrieval graph bounds them (`server_configurable`).

The last node, ``act``, needs no model: it assembles a prompt with the task and the full
text of each retrieved item. Give the builders any LangChain chat model and ``act`` also
asks it, with that prompt as the system message.

The default token budget, ``DEFAULT_BUDGET`` (16,000), is sized for real skills, which run
2,000-5,000 tokens each (the trailofbits catalogue: median skill 2,649 tokens, 90th
percentile 5,055, largest 11,250): the top 5 of a task at the median size fit with room to
spare, and 16,000 tokens is under a tenth of a 200k-token context window. Measured there at
k=5 over five tasks, the old 4,000 kept 6 of 25 results (none for "set up codeql in CI",
whose best skill has 4,261 tokens); 16,000 keeps 24 of 25, 20,000 all 25
(``python -m skill_retriever.bench.agent_budget INDEX_DIR`` on an index of
``trailofbits__skills``).
"""

# No `from __future__ import annotations` here: LangGraph Server loads this file by path,
# and the state TypedDicts' annotations must resolve without the module in sys.modules.
from typing import Any, NotRequired, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Checkpointer
from typing_extensions import TypedDict  # pydantic's JSON schemas need it before Python 3.12

from skill_retriever.adapters.agent_prompt import (  # the prompt, assembled (re-exported here)
    DEFAULT_BUDGET,
    assemble_prompt,
    budget_stats_of,
)
from skill_retriever.adapters.agent_task import (  # the task input, read (re-exported here)
    DEFAULT_K,
    DEFAULT_KINDS,
    NO_TASK,
    task_k,
    task_kinds,
    task_of,
    task_profile,
    task_values_checked,
)
from skill_retriever.adapters.langgraph_server import (
    ServerContext,
    _context_of,
    retrieval_context,
    server_principals,
    server_retriever,
    server_settings,
)
from skill_retriever.adapters.server_configurable import (
    ServedConfigurable,
    served_configurable,
    with_taken,
)
from skill_retriever.adapters.server_inputs import client_warnings
from skill_retriever.context import RetrievalContext
from skill_retriever.entry_k import entry_k
from skill_retriever.exceptions import QueryTooLongError
from skill_retriever.graph import graph as compiled_retrieval_graph
from skill_retriever.graph_input import input_checked
from skill_retriever.state import FilterSpec, FitInfo, Result
from skill_retriever.stores.index import Index

retrieval_graph = cast("CompiledStateGraph[Any, Any, Any, Any]", compiled_retrieval_graph)


class SkillText(TypedDict):
    """One retrieved item with the full text the agent passes on."""

    id: str
    kind: str
    name: str
    text: str
    token_count: int
    fusion_score: float
    rerank_score: float | None
    channels: dict[str, int]


class TaskInput(TypedDict):
    task: str  # the user's coding task
    k: NotRequired[int | None]  # left out (or null): DEFAULT_K
    token_budget: NotRequired[int | None]  # None: no budget
    # one string is one kind; left out (or null): every component kind
    kinds: NotRequired[list[str] | str | None]
    # with a token_budget, fill it with lower-ranked items that fit (what the budget's
    # warning advises); left out (or null): as the retrieval's settings say (no filling)
    budget_fill: NotRequired[bool | None]


def per_call_defaults() -> dict[str, Any]:
    """The update that sets each per-call input back to its default, written once the
    retrieval has read them (the wrapper's ``retrieve_skills``, the shared-state agent's
    ``collect_texts``) and again by ``act``.

    A checkpointed thread keeps every key from run to run, and a node cannot tell an input
    given to this run from one a run before gave: without this, ``{"kinds": "hook", "k": 1}``
    for one task searched hooks only, one of them, for every later task of the thread that
    left them out. Written by a node that succeeded, never before the retrieval: a failed run
    keeps its inputs, so ``invoke(None, config)`` resumes it with them (the first node could
    not tell a resumed run from a new one either). Not by ``act`` alone: a run paused before
    it (a person reviewing the skills found) and left for a new task gave that task the
    paused one's inputs. ``k`` goes back to null, which reads as left out:
    `DEFAULT_K`, or served, a run's configurable k (written as 5, it beat an assistant's k on
    every later run of a thread). ``token_budget`` goes back to the default rather than None,
    because a ``token_budget`` of None is an input of its own (no budget).
    """
    return {"k": None, "token_budget": DEFAULT_BUDGET, "kinds": None, "budget_fill": None}


class AgentOutput(TypedDict):
    skills: list[SkillText]
    prompt: str
    answer: str | None
    # the retrieval's own: what the budget dropped, that nothing fits, a phase that failed
    warnings: list[str]
    fit: FitInfo | None  # how well the catalogue answers the task; None: never calibrated


# -- shared by both agents --------------------------------------------------------------


def skill_texts(results: list[Result], index: Index) -> list[SkillText]:
    """The retrieved items with their full text (the text their token counts measure)."""
    out: list[SkillText] = []
    for r in results:
        node = index.nodes.get(r["id"])
        out.append(
            {
                "id": r["id"],
                "kind": r["kind"],
                "name": r["name"],
                "text": node.embedding_text() if node is not None else r["snippet"],
                "token_count": r["token_count"],
                "fusion_score": r["fusion_score"],
                "rerank_score": r.get("rerank_score"),
                "channels": dict(r["channels"]),
            }
        )
    return out


def make_act(model: BaseChatModel | None) -> Any:
    def act(state: dict[str, Any]) -> dict[str, Any]:
        prompt = assemble_prompt(
            state["task"], state.get("skills") or [], fit=state.get("fit"), budget=budget_stats_of(state),
            warnings=state.get("warnings"),
        )
        answer = None
        if model is not None:
            reply = model.invoke([SystemMessage(prompt), HumanMessage(state["task"])])
            answer = reply.text
        return {"prompt": prompt, "answer": answer, **per_call_defaults()}  # the run is done

    return act


# -- 1. wrapper node: the agent maps its own state --------------------------------------


class WrapperAgentState(TaskInput, AgentOutput):
    retrieval: dict[str, Any]  # route taken, reranker, stats and warnings of the retrieval


def build_agent_with_wrapper_node(
    *,
    model: BaseChatModel | None = None,
    retrieval: RetrievalContext | None = None,
    checkpointer: Checkpointer = None,
    name: str = "coding_agent",
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The agent whose node ``retrieve_skills`` calls the retrieval graph.

    Args:
        model: optional chat model for ``act``.
        retrieval: the index, config and reranker to retrieve with; None = open the index
            that the run's JSON context (``ServerContext``) names, as the server does.
        checkpointer: the agent's checkpointer (the subgraph checkpoints with it).
    """

    def retrieve_skills(
        state: WrapperAgentState, runtime: Runtime[ServerContext]
    ) -> dict[str, Any]:
        task = task_of(state)
        # Served: the run's JSON context, refused when it is not an object, as the served
        # retrieval graph refuses it (context=["x"] ran on the default index).
        ctx = retrieval or retrieval_context(_context_of(runtime))
        filters: FilterSpec = {"kinds": task_kinds(state)}
        configured = ServedConfigurable()
        if retrieval is None:  # served: search as the deployment says, as the server graph does
            filters["principals"] = server_principals()
            # an assistant's settings (or a client's), bounded as the served retrieval graph bounds them
            configured = served_configurable(server_settings(server_retriever(_context_of(runtime))))
        settings = configured.settings  # under the task's own input, as a run's profile is
        try:
            out = retrieval_graph.invoke(
                {
                    "query": task,
                    "k": task_k(state, settings.get("k", entry_k(ctx.config, DEFAULT_K))),
                    "token_budget": state.get("token_budget", settings.get("token_budget", DEFAULT_BUDGET)),
                    "filters": filters,
                    "profile": {**settings, **task_profile(state)},
                },
                context=ctx,
            )
        except QueryTooLongError as exc:  # said of the task, this input's key; served: shorten it
            raise exc.said_of("task", served=retrieval is None) from None
        stats, warnings = with_taken(out.get("stats") or {}, list(out.get("warnings") or []), configured)
        if retrieval is None:  # served: a client cannot run `stats`, so absent kinds name those it may ask for
            warnings = client_warnings(warnings, filters["principals"], ctx.index.snapshot().nodes.values())
        summary = {"route_taken": out.get("route_taken"), "reranker": out.get("reranker"), "stats": stats}
        return {
            "skills": skill_texts(out["results"], ctx.index),
            "retrieval": {**summary, "warnings": warnings},
            # written on every run, so a checkpointed thread never shows the last task's
            "warnings": warnings,
            "fit": out.get("fit"),
            **per_call_defaults(),  # read: the next task, even after a pause before act, gets its own
        }

    builder = StateGraph(
        WrapperAgentState,
        context_schema=ServerContext,
        input_schema=TaskInput,
        output_schema=AgentOutput,
    )
    builder.add_node(retrieve_skills)
    builder.add_node("act", make_act(model))
    builder.add_edge(START, "retrieve_skills")
    builder.add_edge("retrieve_skills", "act")
    builder.add_edge("act", END)
    # input_checked: an input key it lacks (topk, max_tokens) is refused, not dropped unread,
    # and a bad value before the run, which a checkpointed thread would keep
    return input_checked(builder.compile(checkpointer=checkpointer, name=name), required="task", hint=NO_TASK,
                         values=task_values_checked, per_call=per_call_defaults())


# -- 2. the compiled retrieval graph as a node: the agent shares its keys ----------------


class SharedAgentState(TaskInput, AgentOutput):
    # the retrieval graph's input keys ...
    query: str
    filters: FilterSpec
    profile: dict[str, Any] | str  # the task's budget_fill (`task_profile`)
    # ... and its output keys
    # (no reducers: each retrieval's stats and warnings replace the last one's, or a
    # checkpointed thread would show an earlier task's warnings beside this one's results)
    results: list[Result]
    route_taken: str | None
    reranker: str
    stats: dict[str, Any]
    # warnings and fit, the last two, are declared by AgentOutput (the agent answers them
    # too; declaring a key twice is an error to type checkers). A parent state without
    # fit drops it: the subgraph's answer keeps only the keys the parent declares.


def frame_query(state: SharedAgentState, runtime: Runtime[RetrievalContext]) -> dict[str, Any]:
    """Turn the task into the retrieval graph's input keys (each written on every run, so
    a checkpointed thread never searches with the last task's); ``k`` left out, the
    context's config's where it sets one (`entry_k`), else `DEFAULT_K`.

    Raises:
        QueryError: No ``task``, in the wrapper agent's words (it was a bare KeyError).
    """
    return {
        "query": task_of(state),
        "k": task_k(state, entry_k(getattr(runtime.context, "config", None), DEFAULT_K)),
        "token_budget": state.get("token_budget", DEFAULT_BUDGET),
        "filters": {"kinds": task_kinds(state)},
        "profile": task_profile(state),
    }


def collect_texts(state: SharedAgentState, runtime: Runtime[RetrievalContext]) -> dict[str, Any]:
    # the retrieval has read the inputs: a pause before act, then a new task, gets the defaults
    return {"skills": skill_texts(state.get("results") or [], runtime.context.index), **per_call_defaults()}


def build_agent_with_subgraph_node(
    *,
    model: BaseChatModel | None = None,
    checkpointer: Checkpointer = None,
    name: str = "coding_agent_shared_state",
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The agent with the compiled retrieval graph as its node ``skill_retriever``.

    Invoke it with ``context=RetrievalContext(index=...)``: the subgraph inherits it.
    """
    builder = StateGraph(
        SharedAgentState,
        context_schema=RetrievalContext,
        input_schema=TaskInput,
        output_schema=AgentOutput,
    )
    builder.add_node(frame_query)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_node(collect_texts)
    builder.add_node("act", make_act(model))
    builder.add_edge(START, "frame_query")
    builder.add_edge("frame_query", "skill_retriever")
    builder.add_edge("skill_retriever", "collect_texts")
    builder.add_edge("collect_texts", "act")
    builder.add_edge("act", END)
    return input_checked(builder.compile(checkpointer=checkpointer, name=name), required="task", hint=NO_TASK,
                         values=task_values_checked, per_call=per_call_defaults())


graph = build_agent_with_wrapper_node()  # what langgraph.json serves as "coding_agent"

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_K",
    "DEFAULT_KINDS",
    "NO_TASK",
    "assemble_prompt",
    "build_agent_with_subgraph_node",
    "build_agent_with_wrapper_node",
    "graph",
    "per_call_defaults",
    "task_kinds",
]
