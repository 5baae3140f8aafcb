"""langgraph-bigtool: the retrieval functions ``create_agent`` calls, and a tool registry
indexed as TOOL nodes.

:func:`make_bigtool_retrieve` / :func:`make_bigtool_aretrieve` build the functions that
``langgraph_bigtool.create_agent(retrieve_tools_function=..., retrieve_tools_coroutine=...)``
calls, and :func:`index_tool_registry` indexes a bigtool tool registry as TOOL nodes whose
ids are the registry's ids, mirroring it. Searches go through a
:class:`~skill_retriever.retriever.Retriever` like every other adapter.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from langchain_core.tools import BaseTool

from skill_retriever.adapters.langchain import arun_search, as_retriever, run_search
from skill_retriever.adapters.search_settings_check import check_search_overrides
from skill_retriever.adapters.tool_registry_check import check_registry
from skill_retriever.calibration import ensure_calibration
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.model import Node, NodeKind
from skill_retriever.responses import is_nothing_fits
from skill_retriever.retriever import Retriever, SearchResponse
from skill_retriever.stores.index import Index, WriteReport

log = logging.getLogger("skill_retriever")

ToolRegistry = Mapping[str, "BaseTool | Callable[..., Any]"]

#: The attrs key that marks a node :func:`index_tool_registry` wrote, naming its registry's
#: ``source``: the nodes a later call with that source may delete.
REGISTRY_SOURCE_KEY = "registry_source"
#: The ``source`` of :func:`index_tool_registry` when none is given.
DEFAULT_SOURCE = "tool_registry"


@dataclass(frozen=True)
class RegistryReport(WriteReport):
    """What :func:`index_tool_registry` did. The counts are the upsert's and the
    deletion's together: ``nodes_deleted`` counts the tools gone from the registry.

    Attributes:
        deleted: the ids deleted: tools an earlier call with the same ``source`` wrote
            that the registry no longer holds.
        unmarked_kept: tools written by an ``index_tool_registry`` older than the
            ``source`` mark that this registry does not hold: kept, as they may be another
            registry's (``index.delete(report.unmarked_kept)`` when they are gone).
        name_clashes: tool name -> the registry ids sharing it (two or more): a model
            bound to both sees one name twice, and bigtool's ToolNode runs only one.
        calibrated: whether the "nothing fits" calibration was computed again now.
    """

    deleted: tuple[str, ...] = ()
    unmarked_kept: tuple[str, ...] = ()
    name_clashes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    calibrated: bool = False


#: What the retrieval function returns when the answer is flagged "nothing fits": the
#: closest tools anyway, or none (the model then has only ``retrieve_tools`` bound).
WhenNothingFits = Literal["closest", "none"]


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


def _check_when_nothing_fits(value: object) -> None:
    if value not in get_args(WhenNothingFits):
        raise ConfigError(
            f"when_nothing_fits must be 'closest' (return the closest tools anyway) or 'none' "
            f"(return no tools), got {value!r}"
        )


def _tool_ids(
    query: str,
    response: SearchResponse,
    registry: ToolRegistry | None,
    limit: int,
    when_nothing_fits: WhenNothingFits,
) -> list[str]:
    if response.nothing_fits:
        # The ids are all bigtool passes on, so the log is where a builder learns of it.
        said = next((w for w in response.warnings if is_nothing_fits(w)), "nothing fits")
        if when_nothing_fits == "none":
            log.warning("retrieve_tools: no tools for %r (when_nothing_fits='none'): %s",
                        query[:80], said)
            return []
        log.info("retrieve_tools: %r: %s", query[:80], said)
    keep = [i for i in response.ids if registry is None or i in registry]
    return keep[:limit]


def _unusable(query: object, exc: QueryError) -> list[str]:
    """No tools for a query the search refuses (empty, too long, not text).

    langgraph-bigtool (0.0.3) calls the function through a tool without
    ``handle_tool_error`` and reads whatever it returns as registry ids, so neither an
    exception nor an error text can reach the model: an exception ends the whole agent
    run, while no tools ("Available tools: []") lets the model ask again."""
    shown = repr(query)[:80]
    log.warning("retrieve_tools: no tools for the query %s: %s", shown, exc)
    return []


def make_bigtool_retrieve(
    index_or_retriever: Index | Retriever,
    *,
    limit: int = 2,
    registry: ToolRegistry | None = None,
    kinds: Sequence[str] = ("tool",),
    when_nothing_fits: WhenNothingFits = "closest",
    **overrides: Any,
) -> Callable[[str], list[str]]:
    """A ``retrieve_tools_function`` for ``langgraph_bigtool.create_agent``.

    bigtool turns it into the agent's ``retrieve_tools`` tool (its docstring is the tool's
    description, ``query`` its one argument) and binds the tools whose registry ids it
    returns. Index the registry first with :func:`index_tool_registry`, so node ids are
    the registry's ids and the index's "nothing fits" line is drawn.

    A query the search refuses (the model sent ``""``, or a query over the length limit)
    returns ``[]`` and logs a warning on the ``skill_retriever``
    logger: bigtool gives a retrieval function no way to send the model an error (it
    reads the return value as ids and lets an exception end the agent run), and told
    "Available tools: []" the model can call ``retrieve_tools`` again.

    Args:
        index_or_retriever: what to search.
        limit: most tool ids per call (bigtool's own default is 2).
        registry: when given, ids not in it are never returned.
        kinds: item kinds that count as tools.
        when_nothing_fits: what to return when the answer is flagged "nothing fits"
            (`SearchResponse.nothing_fits`): ``"closest"`` (the default) the closest
            tools anyway, logged at INFO; ``"none"`` no tools, so none are bound, logged
            as a warning (both on the ``skill_retriever`` logger; bigtool tells the model
            "Available tools: []"). The default keeps the tools because the flag is also
            raised on some answerable requests (README, "nothing fits": 17 % of
            metatool's answerable requests, up to 3.2 % on the other tool sets), where a
            tool the model may decline is better than none.
        **overrides: RetrievalConfig settings for every call (e.g. ``rerank=False``).

    Raises:
        ConfigError: ``limit`` is not a positive int, ``when_nothing_fits`` is neither
            ``"closest"`` nor ``"none"``, or an override is one the search would refuse
            at every call (an unknown name, a bad value, ``k``: ``limit`` sets it).
    """
    retriever = as_retriever(index_or_retriever)
    fetch = _fetch(limit, registry)
    _check_when_nothing_fits(when_nothing_fits)
    check_search_overrides(retriever, overrides, "make_bigtool_retrieve", {"k": "limit"})

    def retrieve_tools(query: str) -> list[str]:
        """Retrieve a tool to use, given a search query."""
        try:
            response = run_search(retriever, query, k=fetch, kinds=kinds, **overrides)
        except QueryError as exc:
            return _unusable(query, exc)
        return _tool_ids(query, response, registry, limit, when_nothing_fits)

    return retrieve_tools


def make_bigtool_aretrieve(
    index_or_retriever: Index | Retriever,
    *,
    limit: int = 2,
    registry: ToolRegistry | None = None,
    kinds: Sequence[str] = ("tool",),
    when_nothing_fits: WhenNothingFits = "closest",
    **overrides: Any,
) -> Callable[[str], Awaitable[list[str]]]:
    """The async twin of :func:`make_bigtool_retrieve` (``retrieve_tools_coroutine``)."""
    retriever = as_retriever(index_or_retriever)
    fetch = _fetch(limit, registry)
    _check_when_nothing_fits(when_nothing_fits)
    check_search_overrides(retriever, overrides, "make_bigtool_aretrieve", {"k": "limit"})

    async def retrieve_tools(query: str) -> list[str]:
        """Retrieve a tool to use, given a search query."""
        try:
            response = await arun_search(retriever, query, k=fetch, kinds=kinds, **overrides)
        except QueryError as exc:
            return _unusable(query, exc)
        return _tool_ids(query, response, registry, limit, when_nothing_fits)

    return retrieve_tools


def tool_node(tool_id: str, tool: BaseTool | Callable[..., Any], source: str = DEFAULT_SOURCE) -> Node:
    """A TOOL node for one registry entry: id = the registry id; text = description + args;
    ``attrs`` name the registry id and the registry's ``source``."""
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
        attrs={"registry_id": tool_id, REGISTRY_SOURCE_KEY: source},
    )


def _held_elsewhere(held: Mapping[str, Node], ids: Iterable[str], source: str) -> list[str]:
    """Registry ids the index holds as another source's item: another registry's (its
    mark) or an indexed source's (``source_name``: a tools.jsonl, a skills catalogue)."""
    out = []
    for i in ids:
        node = held.get(i)
        if node is None:
            continue
        mark = node.attrs.get(REGISTRY_SOURCE_KEY)
        if (mark is not None and mark != source) or (mark is None and node.attrs.get("source_name")):
            out.append(i)
    return out


def _owner(node: Node) -> str:
    mark = node.attrs.get(REGISTRY_SOURCE_KEY)
    if mark is not None:
        return f"registry source {mark!r}"
    return f"indexed source {node.attrs.get('source_name')!r}"


def _name_clashes(nodes: Sequence[Node]) -> dict[str, tuple[str, ...]]:
    by_name: dict[str, list[str]] = {}
    for n in nodes:
        by_name.setdefault(n.name, []).append(n.id)
    return {name: tuple(ids) for name, ids in by_name.items() if len(ids) > 1}


def _unmarked(held: Mapping[str, Node], registry: ToolRegistry) -> tuple[str, ...]:
    """Tools an index_tool_registry before the source mark wrote (a TOOL node whose
    ``registry_id`` is its id, and no mark nor indexed source) that ``registry`` lacks."""
    return tuple(sorted(
        i for i, n in held.items()
        if i not in registry and n.kind is NodeKind.TOOL and n.attrs.get("registry_id") == i
        and REGISTRY_SOURCE_KEY not in n.attrs and not n.attrs.get("source_name")
    ))


def index_tool_registry(
    index: Index, registry: ToolRegistry, *, source: str = DEFAULT_SOURCE, calibrate: bool = True
) -> RegistryReport:
    """Mirror a bigtool registry in the index: each tool a TOOL node whose id is its
    registry id (unchanged tools are not re-embedded), and the tools an earlier call with
    the same ``source`` wrote that the registry no longer holds deleted (renamed ids
    too), so a retrieval never returns an id bigtool cannot look up.

    Only this ``source``'s tools are deleted: each node records it (attrs
    ``registry_source``), so an index holding two registries, each indexed under its own
    ``source``, mirrors each alone, and items of other sources (a tools.jsonl or a skills
    catalogue indexed by the CLI) are never touched. Tools written before the mark existed
    carry none: those this registry holds are marked now; the rest are kept and named in
    ``unmarked_kept`` and a warning (they may be another registry's). An empty registry
    writes and deletes nothing, with a warning (an emptied registry must not wipe its
    tools; ``index.delete`` takes them out). Tool names that two registry ids share are
    named in ``name_clashes`` and a warning: bigtool would bind both under one name.

    Args:
        index: a writable index, e.g. ``Index.open(dir, create=True)``.
        registry: bigtool's registry, ``{id: BaseTool or function}``.
        source: the registry's name in the index; give each registry of one index its own.
        calibrate: bring the index's "nothing fits" calibration up to date after the
            write, as ``skill-retriever index`` does (computed again only when the index
            changed since; a few seconds with the bundled model on hundreds of tools).
            Without it an index built only through this call is never calibrated, and no
            answer is flagged "nothing fits".

    Raises:
        ConfigError: ``source`` is not a non-empty string, a registry id is held by
            another source's item (another registry's, or one the CLI indexed), the
            registry is not a mapping, or an entry is not a tool bigtool can bind
            (`check_registry`): before anything is written.
    """
    if not isinstance(source, str) or not source.strip():
        raise ConfigError(f"source must be a non-empty string naming the registry, got {source!r}")
    check_registry(registry)
    nodes = [tool_node(tool_id, tool, source) for tool_id, tool in registry.items()]
    held = index.snapshot().nodes
    taken = _held_elsewhere(held, registry, source)
    if taken:
        raise ConfigError(
            f"registry id {taken[0]!r} ({len(taken)} id(s) in all) is held by {_owner(held[taken[0]])}; "
            "give the registry's tools other ids, or index it under that source"
        )
    clashes = _name_clashes(nodes)
    for name, ids in clashes.items():
        log.warning("tool registry %r: ids %s share the tool name %r; a model bound to both "
                    "sees one name twice (give each tool its own name)",
                    source, ", ".join(map(repr, ids)), name)
    if not nodes:  # a registry built wrong must not wipe its tools
        mine = sum(1 for n in held.values() if n.attrs.get(REGISTRY_SOURCE_KEY) == source)
        log.warning("tool registry %r is empty: nothing written, and its %d indexed tool(s) kept; "
                    "to take them out, index.delete the ids whose attrs[%r] is %r",
                    source, mine, REGISTRY_SOURCE_KEY, source)
        return RegistryReport(calibrated=calibrate and _calibrate(index))
    written = index.upsert(nodes)
    gone = tuple(sorted(i for i, n in index.snapshot().nodes.items()
                        if n.attrs.get(REGISTRY_SOURCE_KEY) == source and i not in registry))
    removed = index.delete(gone) if gone else WriteReport()
    unmarked = _unmarked(index.snapshot().nodes, registry)
    if unmarked:
        shown = ", ".join(map(repr, unmarked[:5])) + (" ..." if len(unmarked) > 5 else "")
        log.warning("tool registry %r: %d tool(s) an earlier index_tool_registry wrote before "
                    "registries were named are not in it and are kept, as they may be another "
                    "registry's: %s; if your registry dropped them: index.delete(report.unmarked_kept)",
                    source, len(unmarked), shown)
    return RegistryReport(
        **{f.name: getattr(written, f.name) + getattr(removed, f.name) for f in fields(WriteReport)},
        deleted=gone, unmarked_kept=unmarked, name_clashes=clashes,
        calibrated=calibrate and _calibrate(index),
    )


def _calibrate(index: Index) -> bool:
    return ensure_calibration(index)[1]


__all__ = [
    "DEFAULT_SOURCE",
    "REGISTRY_SOURCE_KEY",
    "RegistryReport",
    "ToolRegistry",
    "WhenNothingFits",
    "index_tool_registry",
    "make_bigtool_aretrieve",
    "make_bigtool_retrieve",
    "tool_node",
]
