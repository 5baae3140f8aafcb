"""langgraph-bigtool: the retrieval functions ``create_agent`` calls, and a tool registry
indexed as TOOL nodes.

:func:`make_bigtool_retrieve` / :func:`make_bigtool_aretrieve` build the functions that
``langgraph_bigtool.create_agent(retrieve_tools_function=..., retrieve_tools_coroutine=...)``
calls, and :func:`index_tool_registry` indexes a bigtool tool registry as TOOL nodes whose
ids are the registry's ids. Searches go through a :class:`~skill_retriever.retriever.Retriever`
like every other adapter.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from langchain_core.tools import BaseTool

from skill_retriever.adapters.langchain import arun_search, as_retriever, run_search
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index, WriteReport

ToolRegistry = Mapping[str, "BaseTool | Callable[..., Any]"]


def _fetch(limit: int, registry: ToolRegistry | None) -> int:
    """How many results to ask for: ``limit``, or three times it when ids outside the
    registry will be dropped.

    Raises:
        ConfigError: ``limit`` is not a positive int. Checked here, when the agent is
            built, not on the model's first ``retrieve_tools`` call, whose error would name
            ``k``, a setting the caller never passed.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ConfigError(f"limit must be a positive int (most tool ids per call), got {limit!r}")
    return limit * 3 if registry is not None else limit


def _registry_ids(ids: Sequence[str], registry: ToolRegistry | None, limit: int) -> list[str]:
    keep = [i for i in ids if registry is None or i in registry]
    return keep[:limit]


def make_bigtool_retrieve(
    index_or_retriever: Index | Retriever,
    *,
    limit: int = 2,
    registry: ToolRegistry | None = None,
    kinds: Sequence[str] = ("tool",),
    **overrides: Any,
) -> Callable[[str], list[str]]:
    """A ``retrieve_tools_function`` for ``langgraph_bigtool.create_agent``.

    bigtool turns it into the agent's ``retrieve_tools`` tool (its docstring is the tool's
    description, ``query`` its one argument) and binds the tools whose registry ids it
    returns. Index the registry first with :func:`index_tool_registry`, so node ids are
    the registry's ids.

    Args:
        index_or_retriever: what to search.
        limit: most tool ids per call (bigtool's own default is 2).
        registry: when given, ids not in it are never returned.
        kinds: item kinds that count as tools.
        **overrides: RetrievalConfig settings for every call (e.g. ``rerank=False``).

    Raises:
        ConfigError: ``limit`` is not a positive int.
    """
    retriever = as_retriever(index_or_retriever)
    fetch = _fetch(limit, registry)

    def retrieve_tools(query: str) -> list[str]:
        """Retrieve a tool to use, given a search query."""
        response = run_search(retriever, query, k=fetch, kinds=kinds, **overrides)
        return _registry_ids(response.ids, registry, limit)

    return retrieve_tools


def make_bigtool_aretrieve(
    index_or_retriever: Index | Retriever,
    *,
    limit: int = 2,
    registry: ToolRegistry | None = None,
    kinds: Sequence[str] = ("tool",),
    **overrides: Any,
) -> Callable[[str], Awaitable[list[str]]]:
    """The async twin of :func:`make_bigtool_retrieve` (``retrieve_tools_coroutine``)."""
    retriever = as_retriever(index_or_retriever)
    fetch = _fetch(limit, registry)

    async def retrieve_tools(query: str) -> list[str]:
        """Retrieve a tool to use, given a search query."""
        response = await arun_search(retriever, query, k=fetch, kinds=kinds, **overrides)
        return _registry_ids(response.ids, registry, limit)

    return retrieve_tools


def tool_node(tool_id: str, tool: BaseTool | Callable[..., Any]) -> Node:
    """A TOOL node for one registry entry: id = the registry id; text = description + args."""
    if isinstance(tool, BaseTool):
        name = tool.name
        description = tool.description or name
        args = {
            a: (spec.get("type", ""), spec.get("description", "")) for a, spec in tool.args.items()
        }
    elif callable(tool):
        name = getattr(tool, "__name__", tool_id)
        description = inspect.getdoc(tool) or name
        try:
            params = inspect.signature(tool).parameters
        except (TypeError, ValueError):  # builtins without a signature
            params = {}  # type: ignore[assignment]
        args = {
            p: (
                getattr(v.annotation, "__name__", "")
                if v.annotation is not inspect.Parameter.empty
                else "",
                "",
            )
            for p, v in params.items()
        }
    else:
        raise TypeError(f"registry entry {tool_id!r} is neither a BaseTool nor a callable")
    first = description.strip().splitlines()[0] if description.strip() else name
    arg_lines = [
        f"- {a}" + (f" ({t})" if t else "") + (f": {d}" if d else "") for a, (t, d) in args.items()
    ]
    text = description.strip() + ("\nArguments:\n" + "\n".join(arg_lines) if arg_lines else "")
    return Node(
        id=tool_id,
        kind=NodeKind.TOOL,
        name=name,
        description=first,
        text=text,
        attrs={"registry_id": tool_id},
    )


def index_tool_registry(index: Index, registry: ToolRegistry) -> WriteReport:
    """Upsert every tool of a bigtool registry as a TOOL node whose id is its registry id
    (unchanged tools are not re-embedded)."""
    return index.upsert([tool_node(tool_id, tool) for tool_id, tool in registry.items()])


__all__ = ["index_tool_registry", "make_bigtool_aretrieve", "make_bigtool_retrieve", "tool_node"]
