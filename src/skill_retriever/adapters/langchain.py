"""LangChain faces of the retrieval graph: a retriever, an agent tool, a bigtool retriever.

* :class:`SkillRetriever` is a ``BaseRetriever``: ``invoke``/``ainvoke`` return
  ``Document``\\ s whose text is the item's full text (what ``token_count`` counts) and
  whose metadata carries the id, kind, name, scores, channels and path.
* :func:`make_search_skills_tool` builds ``search_skills``, a tool with typed arguments
  (query, kinds, k, token_budget) whose answer is a compact ranked list a model can read.
* ``skill_retriever.adapters.bigtool`` has the functions ``langgraph_bigtool.create_agent``
  calls, and indexes a bigtool tool registry as TOOL nodes.

Each runs the compiled retrieval graph with the caller's callbacks, so a LangSmith trace
shows the retriever or tool run with every retrieval phase nested under it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from skill_retriever.config import RetrievalConfig, Route
from skill_retriever.model import NodeKind
from skill_retriever.retriever import Retriever, SearchResponse, SearchResult
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

_DEFAULT: Any = object()


def as_retriever(index_or_retriever: Index | Retriever, **kwargs: Any) -> Retriever:
    """A :class:`Retriever` facade over an index (or the facade itself, unchanged)."""
    if isinstance(index_or_retriever, Retriever):
        return index_or_retriever
    if isinstance(index_or_retriever, Index):
        return Retriever(index_or_retriever, **kwargs)
    raise TypeError(f"expected an Index or a Retriever, got {type(index_or_retriever).__name__}")


def run_search(
    retriever: Retriever,
    query: str,
    *,
    k: int | None = None,
    token_budget: int | None = None,
    route: Route | None = None,
    filters: Mapping[str, Any] | None = None,
    kinds: Iterable[str] | None = None,
    config: RunnableConfig | None = None,
    **overrides: Any,
) -> SearchResponse:
    """``Retriever.search`` with a LangChain ``config`` (callbacks, tags, metadata), so the
    phases nest under the caller's trace. Adds nothing else: the Retriever's rules (its
    principals, the answer cache) hold here too."""
    return retriever.search(
        query, k=k, budget=token_budget, route=route, filters=filters, kinds=kinds, run_config=config, **overrides
    )


async def arun_search(
    retriever: Retriever,
    query: str,
    *,
    k: int | None = None,
    token_budget: int | None = None,
    route: Route | None = None,
    filters: Mapping[str, Any] | None = None,
    kinds: Iterable[str] | None = None,
    config: RunnableConfig | None = None,
    **overrides: Any,
) -> SearchResponse:
    """Async :func:`run_search`."""
    return await retriever.asearch(
        query, k=k, budget=token_budget, route=route, filters=filters, kinds=kinds, run_config=config, **overrides
    )


def to_document(result: SearchResult, snapshot: IndexSnapshot, response: SearchResponse) -> Document:
    """One result as a ``Document``: full text as content, evidence as metadata."""
    node = snapshot.nodes.get(result.id)
    text = node.embedding_text() if node is not None else result.snippet
    metadata: dict[str, Any] = {
        "id": result.id,
        "kind": result.kind,
        "name": result.name,
        "source": node.source if node is not None else "",
        "snippet": result.snippet,
        "fusion_score": result.fusion_score,
        "rerank_score": result.rerank_score,
        "token_count": result.token_count,
        "channels": dict(result.channels),
        "path": list(result.path),
        "path_reliability": result.path_reliability,
        "route": response.route,
        "reranker": response.reranker,
    }
    if result.flags:
        metadata["flags"] = list(result.flags)
    return Document(id=result.id, page_content=text, metadata=metadata)


class SkillRetriever(BaseRetriever):
    """LangChain retriever over a skill-retriever :class:`Index`.

    Example:
        ``SkillRetriever(index=Index.open(".skill-retriever"), k=5).invoke("add tracing")``

    Per call, ``invoke(query, k=..., token_budget=..., route=..., kinds=[...],
    filters={...}, **RetrievalConfig overrides)`` overrides the fields below.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: Index
    """The index to search."""
    k: int = Field(default=4, gt=0)
    """How many documents to return (at most)."""
    token_budget: int | None = Field(default=None, ge=0)
    """Drop the lowest-ranked documents until their token counts fit; None = no budget."""
    route: Route | None = None
    """Force a route (smart, ppr, quick); None = chosen by the query's complexity."""
    kinds: list[NodeKind] | None = None
    """Only these item kinds (skill, agent, command, hook, mcp_server, tool, ...)."""
    filters: dict[str, Any] = Field(default_factory=dict)
    """Further filters: tags, principals, since, until (see ``skill_retriever.filters``)."""
    config: RetrievalConfig | None = None
    """Default settings of the retrieval; None = ``RetrievalConfig()``."""
    reranker: Any = _DEFAULT
    """A ``Reranker``, None for no reranking, or left out for the default."""

    _engine: Retriever | None = PrivateAttr(default=None)

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

    def _call_args(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        args: dict[str, Any] = {
            "k": kwargs.pop("k", self.k),
            "token_budget": kwargs.pop("token_budget", self.token_budget),
            "route": kwargs.pop("route", self.route),
            "kinds": kwargs.pop("kinds", self.kinds),
            "filters": {**self.filters, **(kwargs.pop("filters", None) or {})},
        }
        return {**args, **kwargs}

    def _to_documents(self, response: SearchResponse) -> list[Document]:
        snap = self.index.snapshot()
        return [to_document(r, snap, response) for r in response.results]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        response = run_search(
            self.engine,
            query,
            config={"callbacks": run_manager.get_child()},
            **self._call_args(kwargs),
        )
        return self._to_documents(response)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        response = await arun_search(
            self.engine,
            query,
            config={"callbacks": run_manager.get_child()},
            **self._call_args(kwargs),
        )
        return self._to_documents(response)


# -- the agent tool ---------------------------------------------------------------------


class SearchSkillsInput(BaseModel):
    """Arguments of ``search_skills``."""

    query: str = Field(
        description="What you need to do or know, in plain words (one task or question)."
    )
    kinds: list[NodeKind] | None = Field(
        default=None,
        description="Only these kinds of item, e.g. ['skill', 'agent']; omit for all kinds.",
    )
    k: int = Field(default=5, ge=1, le=50, description="How many items to return.")
    token_budget: int | None = Field(
        default=None, ge=1, description="Most tokens the returned items' full texts may add up to."
    )


def format_results(
    response: SearchResponse, *, snapshot: IndexSnapshot | None = None, snippet_chars: int = 160
) -> str:
    """A compact ranked list a model can read: one item per two or three lines."""
    if not response.results:
        return "No matching items. Try other words, fewer words, or fewer kinds."
    total = sum(r.token_count for r in response.results)
    lines = [f"{len(response.results)} items (route {response.route}; {total} tokens in all):"]
    for rank, r in enumerate(response.results, 1):
        via = ", ".join(f"{c} #{n}" for c, n in sorted(r.channels.items(), key=lambda p: p[1]))
        rerank = f" rerank {r.rerank_score:.2f}" if r.rerank_score is not None else ""
        lines.append(
            f"{rank}. [{r.kind}] {r.name} (id: {r.id}) score {r.fusion_score:.4f}{rerank}, "
            f"{r.token_count} tokens, via {via}"
        )
        if r.path:
            nodes = snapshot.nodes if snapshot is not None else {}
            names = " -> ".join(nodes[i].name if i in nodes else i for i in r.path)
            lines.append(f"   because: {names}")
        snippet = (
            r.snippet
            if len(r.snippet) <= snippet_chars
            else r.snippet[: snippet_chars - 1].rstrip() + "…"
        )
        lines.append(f"   {snippet}")
    for w in response.warnings:
        lines.append(f"note: {w}")
    return "\n".join(lines)


TOOL_DESCRIPTION = (
    "Search the catalogue of skills, agents, commands, hooks, MCP servers and documents for "
    "the items that help with a task. Returns a ranked list: kind, name, id, scores, why it "
    "matched, and a short summary. Use the ids to load or install an item."
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

    Args:
        index_or_retriever: what to search.
        name: the tool's name as the model sees it.
        description: the tool's description as the model sees it.
        **overrides: RetrievalConfig settings for every call (e.g. ``rerank=False``).
    """
    retriever = as_retriever(index_or_retriever)

    def _answer(response: SearchResponse) -> tuple[str, list[dict[str, Any]]]:
        artifact = [
            {
                **r.__dict__,
                "channels": dict(r.channels),
                "path": list(r.path),
                "flags": list(r.flags),
            }
            for r in response.results
        ]
        return format_results(response, snapshot=retriever.index.snapshot()), artifact

    def search_skills(
        query: str, kinds: list[NodeKind] | None = None, k: int = 5, token_budget: int | None = None
    ) -> tuple[str, list[dict[str, Any]]]:
        return _answer(
            run_search(retriever, query, k=k, token_budget=token_budget, kinds=kinds, **overrides)
        )

    async def asearch_skills(
        query: str, kinds: list[NodeKind] | None = None, k: int = 5, token_budget: int | None = None
    ) -> tuple[str, list[dict[str, Any]]]:
        response = await arun_search(
            retriever, query, k=k, token_budget=token_budget, kinds=kinds, **overrides
        )
        return _answer(response)

    return StructuredTool.from_function(
        func=search_skills,
        coroutine=asearch_skills,
        name=name,
        description=description,
        args_schema=SearchSkillsInput,
        response_format="content_and_artifact",
    )


__all__ = [
    "SearchSkillsInput",
    "SkillRetriever",
    "arun_search",
    "as_retriever",
    "format_results",
    "make_search_skills_tool",
    "run_search",
    "to_document",
]
