"""Each result's ``reason`` (`SearchResult.reason`), for the answers `Retriever` gives:
the line ``skill-retriever query`` prints under a result, made by the function that prints
it (`render.reason`), which the CLI's ``--json``, the LangChain documents and the agent tool
also call, so none of them says another reason than the Python result.

A reason is made when it is first read, not by every search: matching the query's words
against an item reads its whole text, a cost that grows with long documents, and most
callers of `Retriever.search` (the benchmark, a ranking) never read it. The answer
cache keeps its copies without the maker, which reads the snapshot searched: a cached
answer would otherwise hold every snapshot it was read from after the index moved on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.components.view import CallerView
from skill_retriever.context import RetrievalContext
from skill_retriever.filters import Filters
from skill_retriever.responses import SearchResponse, SearchResult, make_reason_with

__all__ = ["explained"]


class _ReasonOf:
    """Makes the reason of a result of one search: its query, read by the caller's view."""

    def __init__(self, query: str, view: CallerView) -> None:
        self._query = query
        self._view = view

    def __call__(self, result: SearchResult) -> str:
        from skill_retriever.render import Shown, reason

        if not self._view.sees(result.id):  # nothing to say of an item the caller may not see
            return ""
        return reason(self._query, Shown(result, ()), self._view)


def explained(response: SearchResponse, payload: Mapping[str, Any], context: RetrievalContext) -> SearchResponse:
    """``response`` with a reason for each result, made on first read from the query and the
    filters of ``payload`` (the search's input) over the snapshot ``context`` searched."""
    snapshot = context.snapshot if context.snapshot is not None else context.index.snapshot()
    maker = _ReasonOf(payload["query"], CallerView(snapshot, Filters.from_spec(payload.get("filters")).principals))
    for result in response.results:
        make_reason_with(result, maker)
    return response
