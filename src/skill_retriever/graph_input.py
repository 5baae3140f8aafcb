"""Refusing input a compiled graph would drop unread: a key it does not take, no query;
and input that is no dict at all (``invoke("add tracing")``), which LangGraph fails on.

LangGraph writes only the input schema's keys into a run's state and drops every other
key without a word, before any node runs (the ``START`` writer of
``CompiledStateGraph.attach_node``): ``{"query": "fuzzing", "topk": 3}`` searched for the
default 10, and the served graph dropped a ``query_vector``. LangGraph has no strict-input
switch, so the compiled graphs are made `InputCheckedGraph`, which checks a dict input's
keys before the run starts, and names the keys the graph takes. The key a run cannot do
without is the retrieval graph's ``query`` by default; another graph names its own
(``graphs/coding_agent.py``: ``input_checked(graph, required="task", hint=...)``).

Only a direct call's keys are checked. A parent graph that adds the compiled graph as one
of its nodes passes its whole state, its own keys too (``graphs/coding_agent.py``'s ``task``,
``skills``), and calls it as a node: with its task's config (which carries the parent's
namespace, ``checkpoint_ns``, where a direct call's is empty) and no ``context`` of its own
(the subgraph inherits the parent's). A node that calls ``graph.invoke(...,
context=...)`` itself is a direct call, checked. A node that calls ``graph.invoke(input,
config)`` with its own config, and a ``Send`` to the graph, look to LangGraph exactly like
the graph run as a node (the same config, one task of the parent), so their unknown keys are
dropped unread as LangGraph drops them. What the run needs is checked in its first node
whatever the call: no query (`NO_QUERY_IN_STATE`), a bad ``k``, ``route``, ``filters`` or
``profile`` (the settings resolved there) raise there with the same words. A direct call's
values are also checked before its run (``check_values``, `input_values`): a checkpointed
thread keeps a run's input from its start, and a failed run's on purpose, so a value
refused inside the run failed every later call of the thread that left that key out.

A graph may name its per-call inputs (``per_call``: each key with the value that reads as
"left out"). A direct call on a checkpointed thread with a new input (a dict; None resumes)
starts from that value for each of those keys it leaves out and the thread's state holds:
a run paused (``interrupt_before``) or failed before the node that reads them, then given
a new input, searched with the old run's ``kinds`` and ``k`` (no node had set them back). A
key the state does not hold yet (a thread's first run) stays out, as it is threadless.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph.state import CompiledStateGraph
from langgraph.typing import ContextT, InputT, OutputT, StateT

from skill_retriever.config import close_name
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.filters import FILTER_KEYS
from skill_retriever.recursion_limit import recursion_said, recursion_said_async

__all__ = ["NO_QUERY", "NO_QUERY_IN_STATE", "InputCheckedGraph", "input_checked"]

NO_QUERY = 'the input needs "query", the text to search for, e.g. {"query": "add tracing", "k": 5}'
#: What the first node says of a state without a query: the check before the run never sees
#: a parent's state, a Send's payload or a node's ``invoke(input, config)``.
NO_QUERY_IN_STATE = (
    f"{NO_QUERY} (a parent graph that runs this graph as its node passes its own state, and a "
    'Send its payload: give that a "query" key)'
)

#: What a key that is not an input means, or where it goes (the slips a walkthrough met, and
#: the names other retrievers use); any other key gets `config.close_name`'s guess.
_MEANT: dict[str, str] = {
    **dict.fromkeys(("top_k", "topk", "limit"), " (did you mean 'k'?)"),
    **dict.fromkeys(("budget", "max_tokens"), " (did you mean 'token_budget'?)"),
    **{key: f' (a filter: filters={{"{key}": ...}})' for key in FILTER_KEYS},
    "index": ": the index goes in the context, context=RetrievalContext(index=...)",
    **dict.fromkeys(("index_dir", "rerank", "cross_encoder"), ": a setting of the run's context, not its input"),
    "query_vector": ": this graph searches through Retriever, which embeds the query itself "
    "(skill_retriever.graph.graph takes a precomputed vector)",
}


def _called_as_node(config: RunnableConfig | None, context: Any) -> bool:
    """Whether a parent graph runs this graph as one of its nodes (see the module doc)."""
    return context is None and bool(config and config.get("configurable", {}).get("checkpoint_ns"))


def _on_thread(config: RunnableConfig | None) -> bool:
    """Whether the call names a checkpointed thread, whose state may hold the query of an
    earlier run (``invoke({"k": 3}, config)`` runs it again with another k)."""
    return bool(config and config.get("configurable", {}).get("thread_id"))


class InputCheckedGraph(CompiledStateGraph[StateT, ContextT, InputT, OutputT]):
    """A compiled graph that refuses, before the run, an input key its input schema lacks,
    and a missing required key (outside a checkpointed thread). Everything else is
    LangGraph's: ``invoke``, ``batch`` and ``stream_events`` run through ``stream`` /
    ``astream``.

    Args:
        required_key: the input key a run needs (``query``); None: none.
        missing_hint: what a run without it is told.
        check_values: called with a direct call's input and context before the run; raises
            on a value the run would refuse (`input_values`), which a checkpointed thread
            would otherwise keep, failing its later calls. None: no check.
        per_call: each per-call input key with the value that reads as left out; a new
            input on a thread starts from it for a key it leaves out (the module doc).
        names_steps: a recursion error of its run names the limit the retrieval graph
            needs (`recursion_limit`), also run as a parent's node.
        **kwargs: LangGraph's own (``CompiledStateGraph``); its ``copy`` and
            ``with_config`` pass the five above back in with them.
    """

    def __init__(
        self,
        *,
        required_key: str | None = "query",
        missing_hint: str = NO_QUERY,
        check_values: Callable[[Mapping[str, Any], Any], None] | None = None,
        per_call: Mapping[str, Any] | None = None,
        names_steps: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.required_key = required_key
        self.missing_hint = missing_hint
        self.check_values = check_values
        self.per_call = per_call
        self.names_steps = names_steps

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        self.check_input(input, config, kwargs.get("context"))
        if self._starts_afresh(input, config, kwargs.get("context")):
            assert config is not None and self.per_call is not None
            input = left_out_reset(input, self.get_state(config).values, self.per_call)
        chunks = super().stream(input, config, **kwargs)
        return recursion_said(chunks) if self.names_steps else chunks

    def astream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        self.check_input(input, config, kwargs.get("context"))
        if self._starts_afresh(input, config, kwargs.get("context")):
            chunks = self._astream_afresh(input, config, **kwargs)
        else:
            chunks = super().astream(input, config, **kwargs)
        return recursion_said_async(chunks) if self.names_steps else chunks

    async def _astream_afresh(self, input: Any, config: Any, **kwargs: Any) -> Any:
        held = (await self.aget_state(config)).values  # the async saver's read, as the run's own
        assert self.per_call is not None
        upstream: Any = super().astream  # its overloads match no **kwargs spread
        async for chunk in upstream(left_out_reset(input, held, self.per_call), config, **kwargs):
            yield chunk

    def _starts_afresh(self, input: Any, config: RunnableConfig | None, context: Any) -> bool:
        """Whether this call is a new input on a thread whose state it reads (`per_call`)."""
        if not self.per_call or not isinstance(input, Mapping) or not _on_thread(config):
            return False
        if _called_as_node(config, context) or self.checkpointer is False:
            return False  # a parent's state is the parent's to keep
        lent = {**(self.config or {}).get("configurable", {}), **(config or {}).get("configurable", {})}
        return isinstance(lent.get(CONFIG_KEY_CHECKPOINTER, self.checkpointer), BaseCheckpointSaver)

    def check_input(self, input: Any, config: RunnableConfig | None, context: Any = None) -> None:
        """Refuse an input that is no dict (text, a list), or a dict input that names a key
        this graph does not take, lacks the required one, or holds a value the run would
        refuse (``check_values``).

        Raises:
            ConfigError: Text or a list as the input, with the dict to give; an unknown key, named with where it goes or the keys taken; a bad
                value, as the run words it.
            QueryError: No required key (or None), on a direct call outside a thread; a
                bad one, as the run words it.
        """
        taken = list(self.builder.schemas[self.builder.input_schema])
        if isinstance(input, _NEVER_A_STATE):
            raise ConfigError(not_a_dict_message(input, self.required_key, self.missing_hint, taken))
        if not isinstance(input, Mapping) or _called_as_node(config, context):
            return  # None resumes a run, a Command steers one: no input keys to check
        if unknown := [k for k in input if k not in taken]:
            raise ConfigError(unknown_keys_message(unknown, taken))
        required = self.required_key
        if required in taken and input.get(required) is None and not _on_thread(config):
            raise QueryError(self.missing_hint)
        if self.check_values is not None:
            self.check_values(input, context)


#: Inputs LangGraph can never write into a state (it takes a dict, None, a Command, or an
#: object with annotated fields): without this check, ``invoke("slack gif")`` failed inside
#: the run with "InvalidUpdateError: Expected dict, got slack gif".
_NEVER_A_STATE = (str, bytes, bytearray, int, float, list, tuple, set, frozenset)


def not_a_dict_message(input: Any, required: str | None, hint: str, taken: list[str]) -> str:
    """One line: the input is a dict; the dict to give (text becomes the required key's
    value), or, for a list, that several inputs are ``batch``'s."""
    head = f"the graph's input is a dict of its keys, not a {type(input).__name__}"
    keys = f"(this graph's input takes {', '.join(taken)})"
    if isinstance(input, list | tuple | set | frozenset):
        return f"{head}: several inputs are graph.batch([...]), each a dict {keys}"
    if isinstance(input, str) and required is not None:
        shown = input if len(input) <= 60 else input[:60] + "..."
        return f"{head}: give {{{required!r}: {shown!r}}} {keys}"
    return f"{head}; {hint} {keys}" if required is not None else f"{head} {keys}"


def unknown_keys_message(unknown: list[Any], taken: list[str]) -> str:
    """One line: the first unknown key, what it means (or the nearest taken key), how
    many other unknown keys there are, and every key the graph takes."""
    first = str(unknown[0])
    shown = first if len(first) <= 60 else first[:60] + "..."
    meant = _MEANT.get(first) or close_name(shown, taken)
    more = f" (and {len(unknown) - 1} more unknown key(s))" if len(unknown) > 1 else ""
    return f"unknown input key {shown!r}{meant}{more}; this graph's input takes {', '.join(taken)}"


def left_out_reset(input: Mapping[str, Any], held: Mapping[str, Any], per_call: Mapping[str, Any]) -> dict[str, Any]:
    """``input`` with each `per_call` key it leaves out and ``held`` (a thread's state) holds
    set to its left-out value; a key ``held`` lacks stays out (a thread's first run)."""
    return {**{key: value for key, value in per_call.items() if key in held}, **input}


def input_checked(
    graph: CompiledStateGraph[StateT, ContextT, InputT, OutputT],
    *,
    required: str | None = "query",
    hint: str = NO_QUERY,
    values: Callable[[Mapping[str, Any], Any], None] | None = None,
    per_call: Mapping[str, Any] | None = None,
    names_steps: bool = False,
) -> InputCheckedGraph[StateT, ContextT, InputT, OutputT]:
    """``graph`` as an `InputCheckedGraph`: the same compiled graph (nodes, channels, name,
    checkpointer), made as LangGraph's own ``copy`` makes one.

    Args:
        graph: the compiled graph.
        required: the input key a run needs; None: none.
        hint: what a run without it is told: the key, what it holds, an example input.
        values: checks a direct call's input values before the run (`InputCheckedGraph`).
        per_call: the per-call input keys, each with its left-out value (`InputCheckedGraph`).
        names_steps: its recursion error names the limit the retrieval graph needs.
    """
    attrs = {k: v for k, v in graph.__dict__.items() if k != "__orig_class__"}
    attrs.update(required_key=required, missing_hint=hint, check_values=values, per_call=per_call,
                 names_steps=names_steps)
    return InputCheckedGraph(**attrs)
