"""How the LangChain faces run a search: the ``Retriever`` behind an index, the search
with a caller's LangChain ``config`` (so the phases nest under its trace), the snapshot an
answer was read from, one result as a ``Document``, and which arguments a caller may add
to the search's (`without_own_arguments`, `tool_settings`). ``adapters.langchain`` builds
the retriever and the agent tool on these."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.documents import Document
from langchain_core.runnables import RunnableConfig

from skill_retriever.components.view import CallerView
from skill_retriever.config import SETTING_NAMES, Route, close_name
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.item_dates import dates_of
from skill_retriever.item_location import read_from
from skill_retriever.render import Shown, reason
from skill_retriever.retriever import Retriever, SearchResponse, SearchResult
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

log = logging.getLogger("skill_retriever")

__all__ = [
    "arun_search",
    "as_retriever",
    "asearch_with_snapshot",
    "caller_visibility",
    "documents_of",
    "run_search",
    "search_with_snapshot",
    "to_document",
    "tool_settings",
    "without_own_arguments",
]


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


def search_with_snapshot(
    retriever: Retriever, query: str, **kwargs: Any
) -> tuple[SearchResponse, IndexSnapshot]:
    """:func:`run_search` on a snapshot pinned first, returned with the answer: what is
    built from the answer (full texts, sources, path names) is then of the same version
    as its scores and snippets, however many writes land meanwhile."""
    snapshot = retriever.index.snapshot()
    return run_search(retriever, query, snapshot=snapshot, **kwargs), snapshot


async def asearch_with_snapshot(
    retriever: Retriever, query: str, **kwargs: Any
) -> tuple[SearchResponse, IndexSnapshot]:
    """Async :func:`search_with_snapshot`."""
    snapshot = retriever.index.snapshot()
    return await arun_search(retriever, query, snapshot=snapshot, **kwargs), snapshot


#: What an adapter passes every search itself, so a caller may not pass it too: given at
#: construction or per call, it collided with the adapter's own keyword, and every call
#: failed with "got multiple values for keyword argument", a TypeError from deep inside.
_SET_PER_CALL = {
    "query": "the query is each call's own first argument",
    "run_config": "callbacks and tags come with each call's own config: invoke(..., config={...})",
    "config": "callbacks and tags come with each call's own config: invoke(..., config={...})",
    "snapshot": "each call searches the snapshot of the index current when it starts",
}

#: ``make_search_skills_tool``'s own arguments: given at construction, each is the tool's
#: default, which the model's argument replaces in a call (as the schema shows it).
TOOL_ARGUMENTS = ("k", "kinds", "token_budget", "budget_fill")
#: What the tool passes every search unchanged, besides the RetrievalConfig settings.
SEARCH_ARGUMENTS = ("filters", "principals", "channels")


def without_own_arguments(kwargs: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``kwargs`` with ``budget`` (``Retriever.search``'s name) read as ``token_budget``,
    the name the LangChain faces use, and none of what the adapter sets per call.

    Raises:
        ConfigError: An argument the adapter sets itself (`_SET_PER_CALL`), or ``budget``
            and ``token_budget`` both.
    """
    out = dict(kwargs)
    if refused := sorted(set(out) & set(_SET_PER_CALL)):
        raise ConfigError(f"{where} takes no {refused[0]}=: {_SET_PER_CALL[refused[0]]}")
    if "budget" in out:
        if "token_budget" in out:
            raise ConfigError(f"{where} got budget= and token_budget=, which are one setting; give token_budget= only")
        out["token_budget"] = out.pop("budget")
    return out


def tool_settings(overrides: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``make_search_skills_tool``'s ``**overrides`` as the tool's defaults (`TOOL_ARGUMENTS`)
    and what every search gets (RetrievalConfig settings, `SEARCH_ARGUMENTS`), checked
    by name when the tool is built, not at every call the model makes.

    Raises:
        ConfigError: An unknown name (listing what the tool takes), one the tool sets per
            call, or ``filters`` that are not a mapping or name kinds (``kinds=`` does).
    """
    where = "make_search_skills_tool"
    settings = without_own_arguments(overrides, where)
    defaults = {name: settings.pop(name) for name in TOOL_ARGUMENTS if name in settings}
    known = SETTING_NAMES | set(SEARCH_ARGUMENTS)
    if unknown := sorted(set(settings) - known):
        raise ConfigError(
            f"{where} got unknown setting(s) {unknown}{close_name(unknown[0], [*known, *TOOL_ARGUMENTS])}; it takes the tool's default "
            f"{', '.join(TOOL_ARGUMENTS)}, {', '.join(SEARCH_ARGUMENTS[:2])}, or a RetrievalConfig "
            "setting (e.g. rerank=False, route='ppr', rrf_k=30)"
        )
    filters = settings.get("filters")
    if filters is not None and not isinstance(filters, Mapping):
        raise ConfigError(f"{where}: filters must be a mapping (tags, principals, since, until), got {filters!r:.60}")
    if filters is not None and "kinds" in filters:  # the model's kinds would replace them
        raise ConfigError(f"{where}: give the tool's default kinds as kinds=, not in filters")
    return defaults, settings


def caller_visibility(retriever: Retriever, settings: Mapping[str, Any]) -> Filters:
    """Which items the tool's searches may see: the principals ``retriever.search`` gets
    from ``settings`` (`tool_settings`), resolved by the retriever's own rule (a
    ``principals`` setting, else the ``filters``' own, else the retriever's), so what the
    tool says of the index beside its answer (`filters.kinds_named`) is what the search
    itself could see."""
    # The retriever's own (private) rule, called rather than copied: a copy that drifted
    # would name the kinds of items the search itself may not see.
    spec = retriever._filter_spec(settings.get("filters"), None, settings.get("principals"))
    return Filters(principals=spec.get("principals"))


def to_document(
    result: SearchResult, snapshot: IndexSnapshot, response: SearchResponse, *, reason: str | None = None
) -> Document:
    """One result as a ``Document``: full text as content, evidence as metadata.

    ``snapshot`` must be the one the search read (:func:`search_with_snapshot`): a later
    one may hold another version of the item, or none. ``reason``, when given, is the line
    ``skill-retriever query`` prints under the result (`render.reason`), kept as ``reason``.
    """
    node = snapshot.nodes.get(result.id)
    text = node.embedding_text() if node is not None else result.snippet
    metadata: dict[str, Any] = {
        "id": result.id,
        "kind": result.kind,
        "name": result.name,
        **(read_from(node) if node is not None else {"source": ""}),
        # when it happened (ISO 8601, only the dates it has), as `query --json` and MCP give them
        **(dates_of(node) if node is not None else {}),
        "snippet": result.snippet,
        "score": result.score,  # the order: a reranker's score, or the fusion's
        "fusion_score": result.fusion_score,
        "rerank_score": result.rerank_score,
        "token_count": result.token_count,
        "channels": dict(result.channels),
        "path": list(result.path),
        "path_reliability": result.path_reliability,
        **({"reason": reason} if reason is not None else {}),
        "route": response.route,
        "reranker": response.reranker,
        # The answer's, repeated on each document as route is: what the token budget
        # dropped, a phase that failed, "nothing fits" (a list of documents has no
        # metadata of its own; documents_of also logs them).
        "warnings": list(response.warnings),
        "nothing_fits": response.nothing_fits,
        "confidence": response.confidence,  # what the agent tool's line counting the items gives, 0 to 1
    }
    if result.flags:
        metadata["flags"] = list(result.flags)
    return Document(id=result.id, page_content=text, metadata=metadata)


def documents_of(
    response: SearchResponse, snapshot: IndexSnapshot, *, query: str | None = None, view: CallerView | None = None
) -> list[Document]:
    """The answer as ``Document``\\ s, its warnings logged on the ``skill_retriever``
    logger at WARNING: a retriever returns only documents, so fewer of them than ``k``
    (the token budget dropped the rest) or none at all must be said somewhere a caller
    sees without asking; each document also carries them (:func:`to_document`). Given the
    ``query`` and the caller's ``view`` of ``snapshot``, each also carries the CLI's
    ``reason`` (what found it first, the graph path as "also reached via"), which names only
    what that caller may see."""
    for warning in response.warnings:
        log.warning("[skill_retriever][langchain] %s", warning)
    if query is None or view is None:
        return [to_document(r, snapshot, response) for r in response.results]
    return [
        to_document(r, snapshot, response, reason=reason(query, Shown(r, ()), view) if view.sees(r.id) else None)
        for r in response.results
    ]
