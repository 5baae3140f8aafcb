"""LangChain faces of the retrieval graph: a retriever, an agent tool, a bigtool retriever.

* :class:`SkillRetriever` is a ``BaseRetriever``: ``invoke``/``ainvoke`` return
  ``Document``\\ s whose text is the item's full text (what ``token_count`` counts) and
  whose metadata carries the id, kind, name, scores, channels and path, and the answer's
  ``warnings`` and ``nothing_fits`` (also logged on the ``skill_retriever`` logger).
* :func:`make_search_skills_tool` builds ``search_skills``, a tool with typed arguments
  (query, kinds, k, token_budget) whose answer is a compact ranked list a model can read.
* ``skill_retriever.adapters.bigtool`` has the functions ``langgraph_bigtool.create_agent``
  calls, and indexes a bigtool tool registry as TOOL nodes.

Each runs the compiled retrieval graph with the caller's callbacks, so a LangSmith trace
shows the retriever or tool run with every retrieval phase nested under it (the search
itself, and the snapshot each answer is built from: ``adapters.langchain_search``; the
tool's argument schema: ``adapters.search_skills_input``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Annotated, Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import ConfigDict, Field, PrivateAttr, StrictInt, ValidationError, field_validator

from skill_retriever.adapters.constructor_errors import constructor_message
from skill_retriever.adapters.langchain_search import (
    TOOL_ARGUMENTS,
    arun_search,
    as_retriever,
    asearch_with_snapshot,
    caller_visibility,
    documents_of,
    run_search,
    search_with_snapshot,
    to_document,
    tool_settings,
    without_own_arguments,
)
from skill_retriever.adapters.search_skills_input import (
    KindName,
    KindNames,
    SearchSkillsInput,
    schema_violation_message,
    schema_with_defaults,
)
from skill_retriever.components.view import CallerView
from skill_retriever.config import RetrievalConfig, Route
from skill_retriever.exceptions import (
    ConfigError,
    InvalidItemError,
    QueryError,
    QueryTooLongError,
    SkillRetrieverError,
)
from skill_retriever.filters import ALL_PRINCIPALS, Filters, kinds_named
from skill_retriever.ingest.document_sections import file_location, read_from
from skill_retriever.model import COMPONENT_KINDS, NodeKind
from skill_retriever.render import named_channels
from skill_retriever.responses import is_nothing_fits
from skill_retriever.retriever import Retriever, SearchResponse
from skill_retriever.snippet_display import readable_snippet
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

_DEFAULT: Any = object()

#: The errors a caller's arguments cause: the agent tool hands them back to the model to
#: fix. Every other error (a broken index, a bug) still raises.
BAD_INPUT_ERRORS: tuple[type[SkillRetrieverError], ...] = (QueryError, ConfigError, InvalidItemError)


class SkillRetriever(BaseRetriever):
    """LangChain retriever over a skill-retriever :class:`Index`.

    Example:
        ``SkillRetriever(index=Index.open(".skill-retriever"), k=5).invoke("add tracing")``

    Per call, ``invoke(query, k=..., token_budget=..., route=..., kinds=[...],
    filters={...}, **RetrievalConfig overrides)`` overrides the fields below (``budget=``,
    ``Retriever.search``'s name, is read as ``token_budget=``; ``query=``, ``run_config=``
    and ``snapshot=`` are refused: the retriever passes them itself).
    """

    # An argument it does not know is refused, not ignored: ``principals=["ops"]`` (that is
    # ``filters={"principals": [...]}``) or ``top_k=`` must not quietly search otherwise.
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    # Counts strict, as ``invoke`` takes them: k="5" or k=True refused, not read as 5 or 1.
    index: Index
    """The index to search."""
    k: StrictInt = Field(default=4, gt=0)
    """How many documents to return (at most)."""
    token_budget: Annotated[StrictInt, Field(ge=0)] | None = None
    """Drop the lowest-ranked documents until their token counts fit; None = no budget."""
    route: Route | None = None
    """Force a route (smart, ppr, quick); None = chosen by the query's complexity."""
    kinds: KindNames = None
    """Only these item kinds (skill, agent, command, hook, mcp_server, tool, ...); one alone
    may be a string."""
    filters: dict[str, Any] = Field(default_factory=dict)
    """Further filters: tags, principals, since, until (see ``skill_retriever.filters``)."""
    config: RetrievalConfig | None = None
    """Default settings of the retrieval; None = ``RetrievalConfig()``."""
    reranker: Any = _DEFAULT
    """A ``Reranker``, None for no reranking, or left out for the default."""

    _engine: Retriever | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        """Raises: ConfigError: A bad argument, in one line (`constructor_message`)."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ConfigError(constructor_message("SkillRetriever", exc, type(self).model_fields)) from None

    @field_validator("filters")
    @classmethod
    def _filters_checked(cls, filters: dict[str, Any]) -> dict[str, Any]:
        Filters.from_spec(filters)  # a bad filter is refused here, not at the first search
        return filters

    @classmethod
    def from_retriever(cls, retriever: Retriever, **kwargs: Any) -> SkillRetriever:
        """Wrap an existing :class:`Retriever` facade (shares its index, config, reranker)."""
        new = cls(index=retriever.index, config=retriever.config, **kwargs)
        new._engine = retriever
        return new

    @property
    def engine(self) -> Retriever:
        if self._engine is None:
            if self.reranker is _DEFAULT:
                self._engine = Retriever(self.index, self.config)
            else:
                self._engine = Retriever(self.index, self.config, self.reranker)
        return self._engine

    def _call_args(self, given: dict[str, Any]) -> dict[str, Any]:
        # Retriever.search's own arguments given here collided with the ones this retriever
        # passes (a TypeError from inside): budget= is read as token_budget=, the rest refused.
        kwargs = without_own_arguments(given, "SkillRetriever.invoke")
        args: dict[str, Any] = {
            "k": kwargs.pop("k", self.k),
            "token_budget": kwargs.pop("token_budget", self.token_budget),
            "route": kwargs.pop("route", self.route),
            "kinds": kwargs.pop("kinds", self.kinds),
            "filters": {**self.filters, **(kwargs.pop("filters", None) or {})},
        }
        return {**args, **kwargs}

    # The query positional-only (LangChain passes it so): a query= among invoke's arguments
    # then reaches _call_args, which says what is wrong, not a TypeError from LangChain.
    def _get_relevant_documents(  # type: ignore[override]
        self, query: str, /, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        response, snapshot = search_with_snapshot(
            self.engine,
            query,
            config={"callbacks": run_manager.get_child()},
            **self._call_args(kwargs),
        )
        return documents_of(response, snapshot)

    async def _aget_relevant_documents(  # type: ignore[override]
        self, query: str, /, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        response, snapshot = await asearch_with_snapshot(
            self.engine,
            query,
            config={"callbacks": run_manager.get_child()},
            **self._call_args(kwargs),
        )
        return documents_of(response, snapshot)


# -- the agent tool ---------------------------------------------------------------------


def format_results(
    response: SearchResponse,
    *,
    snapshot: IndexSnapshot | None = None,
    snippet_chars: int = 160,
    view: CallerView | None = None,
) -> str:
    """A compact ranked list a model can read: one item per two or three lines.

    The list is best first; each item shows its rank, its tokens, the searches that found
    it with its rank in each, and, given the ``snapshot`` searched, a document's file
    (``at FILE:LINE``) to open: a component is used by its id, a document only where it
    lies. The head gives the answer's ``confidence`` when the index was calibrated.

    No item shows a score (they are in the tool's artifact): each is relative to this one
    answer, and the fused one is each search's list min-max normalised (a search's last
    item counts 0), so in a short list a relevant item shows 0.0000, and a model reads 0
    as "irrelevant" (found in a walkthrough: the second of two matching documents). A
    reranker's score is on its model's own scale (a cross-encoder's may be below 0 for
    a good match). Rank, the searches that agree, and the calibrated confidence (0-1,
    with "nothing fits" said below 0.5) read rightly without knowing the fusion.
    What the token budget dropped is said first when it dropped everything, so the model
    raises the budget instead of rephrasing; the response's warnings always follow.
    The searches an item names leave out a graph walk over no edges (`render.named_channels`),
    judged on ``view``, the caller's view of ``snapshot`` (default: all of it).
    """
    dropped, budget = _budget_drops(response)
    items = "item" if dropped == 1 else "items"
    # "Nothing fits" comes first, where a model reads before it acts on the list.
    verdict = [f"Note: {w}" for w in response.warnings if is_nothing_fits(w)]
    notes = [f"note: {w}" for w in response.warnings if not is_nothing_fits(w)]
    if not response.results:
        if dropped:
            head = (
                f"No items fit the token budget of {budget} tokens: it dropped the {dropped} "
                f"matching {items}. Call again with a larger token_budget (or none) to get them."
            )
        else:
            head = "No matching items. Try other words, fewer words, or fewer kinds."
        return "\n".join([*verdict, head, *notes])
    total = sum(r.token_count for r in response.results)
    count = f"{len(response.results)} {'item' if len(response.results) == 1 else 'items'}"
    sure = "" if response.confidence is None else f"; confidence {response.confidence:.2f}"
    lines = [*verdict, f"{count} (route {response.route}{sure}; {total} tokens in all):"]
    if view is None and snapshot is not None:
        view = CallerView(snapshot, [ALL_PRINCIPALS])
    for rank, r in enumerate(response.results, 1):
        named = named_channels(r, view) if view is not None else sorted(r.channels, key=r.channels.__getitem__)
        via = ", ".join(f"{c} #{r.channels[c]}" for c in named)
        lines.append(f"{rank}. [{r.kind}] {r.name} (id: {r.id}) {r.token_count} tokens, via {via}")
        node = snapshot.nodes.get(r.id) if snapshot is not None else None
        if node is not None and node.source and node.kind not in _USED_BY_ID:
            lines.append(f"   at {file_location(node)}")
        if r.path:
            nodes = snapshot.nodes if snapshot is not None else {}
            names = " -> ".join(nodes[i].name if i in nodes else i for i in r.path)
            lines.append(f"   because: {names}")
        # Read as a person would (no written-out \\n or <example> of a description): the
        # model pays tokens for the noise; the artifact keeps the snippet as searched.
        text = readable_snippet(r.snippet)
        snippet = text if len(text) <= snippet_chars else text[: snippet_chars - 1].rstrip() + "…"
        lines.append(f"   {snippet}")
    if dropped:
        lines.append(
            f"{dropped} more matching {items} did not fit the token budget of {budget} tokens; "
            "a larger token_budget would return them."
        )
    return "\n".join([*lines, *notes])


#: Kinds an agent uses by id (installs them); any other item read from a file is opened there.
_USED_BY_ID = COMPONENT_KINDS | {NodeKind.PLUGIN}


def _budget_drops(response: SearchResponse) -> tuple[int, int | None]:
    """How many results the token budget dropped, and the budget (``apply_token_budget``'s
    stats; none when that phase did not report)."""
    stats = response.stats.get("apply_token_budget")
    if not isinstance(stats, Mapping):
        return 0, None
    return int(stats.get("dropped") or 0), stats.get("budget")


@contextmanager
def _bad_input_to_model() -> Iterator[None]:
    """Turn an error the model's arguments caused into a ``ToolException``, which the tool
    (``handle_tool_error=True``) answers with as an error ``ToolMessage`` the model can act
    on, as it answers a schema violation; anything else is not the model's to fix and
    raises out of the agent."""
    try:
        yield
    except QueryTooLongError as exc:  # the limit is the deployment's: the model can only shorten
        raise ToolException(f"Error: {exc.to_agent}") from exc
    except BAD_INPUT_ERRORS as exc:
        raise ToolException(f"Error: {exc}. Fix the arguments and call the tool again.") from exc


TOOL_DESCRIPTION = (
    "Search the catalogue of skills, agents, commands, hooks, MCP servers and documents for "
    "the items that help with a task. Returns a list, best first: kind, name, id, which "
    "searches found it (and its rank in each), why it matched, and a short summary; the "
    "first line gives the confidence (0 to 1) that the best item fits. Use the ids to load "
    "or install an item."
)


def make_search_skills_tool(
    index_or_retriever: Index | Retriever,
    *,
    name: str = "search_skills",
    description: str = TOOL_DESCRIPTION,
    **overrides: Any,
) -> BaseTool:
    """The ``search_skills`` tool over an index or a :class:`Retriever`.

    The tool's content is :func:`format_results`' text; its artifact (for
    ``ToolMessage.artifact`` when called with a tool call) is the list of result dicts.
    Arguments the schema or the search rejects (``k=0``, an unknown kind, an empty query,
    a bad setting) come back as an error message (``ToolMessage(status="error")`` for a
    tool call), not an exception, so an agent can retry.

    Args:
        index_or_retriever: what to search.
        name: the tool's name as the model sees it.
        description: the tool's description as the model sees it.
        **overrides: the tool's own arguments ``k``, ``kinds``, ``token_budget`` (or
            ``budget``) and ``budget_fill`` become its defaults, shown as such in its
            schema, which the model's arguments replace: they are the model's to choose
            per call, and a default is what a builder means by ``k=3``. Anything else is for
            every search: RetrievalConfig settings (e.g. ``rerank=False``), ``filters``
            (tags, principals, since, until) and ``principals``.

    Raises:
        ConfigError: An override the tool does not take (named, with what it takes) or
            a default the schema refuses: here, not as an error at every call.
    """
    retriever = as_retriever(index_or_retriever)
    defaults, settings = tool_settings(overrides)
    schema = schema_with_defaults(defaults)
    visible = caller_visibility(retriever, settings)

    def search_skills(query: str, **args: Any) -> tuple[str, list[dict[str, Any]]]:
        with _bad_input_to_model():
            return _answer(*search_with_snapshot(retriever, query, **settings, **_with_defaults(args)), visible)

    async def asearch_skills(query: str, **args: Any) -> tuple[str, list[dict[str, Any]]]:
        with _bad_input_to_model():
            found = await asearch_with_snapshot(retriever, query, **settings, **_with_defaults(args))
            return _answer(*found, visible)

    def _with_defaults(args: dict[str, Any]) -> dict[str, Any]:
        # The schema's defaults, not the function's: the builder's, as the model reads them.
        return {arg: args.get(arg, schema.model_fields[arg].default) for arg in TOOL_ARGUMENTS}

    return StructuredTool.from_function(
        func=search_skills,
        coroutine=asearch_skills,
        name=name,
        description=description,
        args_schema=schema,
        response_format="content_and_artifact",
        handle_tool_error=True,
        handle_validation_error=schema_violation_message,
    )


def _answer(
    response: SearchResponse, snapshot: IndexSnapshot, visible: Filters
) -> tuple[str, list[dict[str, Any]]]:
    """The tool's content and artifact, path names and sources read from the snapshot
    searched; an item read from a file carries its ``source`` (and a section its ``line``)
    in the artifact, as the retriever's documents and ``query --json`` do. A note that the
    index holds none of the kinds asked names the kinds it holds that ``visible`` may see,
    where the CLI's points at `stats`, which a model cannot run."""
    artifact = []
    for r in response.results:
        node = snapshot.nodes.get(r.id)
        artifact.append({**r.to_dict(), **(read_from(node) if node is not None and node.source else {})})
    warnings = [kinds_named(w, visible, snapshot.nodes.values()) for w in response.warnings]
    view = CallerView(snapshot, visible.principals)
    return format_results(replace(response, warnings=warnings), snapshot=snapshot, view=view), artifact


__all__ = [
    "BAD_INPUT_ERRORS",
    "KindName",
    "SearchSkillsInput",
    "SkillRetriever",
    "arun_search",
    "as_retriever",
    "asearch_with_snapshot",
    "documents_of",
    "format_results",
    "make_search_skills_tool",
    "run_search",
    "schema_violation_message",
    "search_with_snapshot",
    "to_document",
]
