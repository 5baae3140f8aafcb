"""``repr(SearchResponse)`` in one line: how many results and their ids, the route, the
reranker, the confidence and how many warnings. The dataclass repr wrote every field,
each result's snippet and every phase's figures among them (about 4,000 characters at
``k=5``), so a notebook cell or a log line showing an answer was a wall of text; the
fields, ``str()`` and ``to_dict()`` hold the rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class _Answer(Protocol):
    """What the repr reads of a `responses.SearchResponse` (which imports this module)."""

    @property
    def ids(self) -> list[str]: ...
    @property
    def confidence(self) -> float | None: ...
    @property
    def nothing_fits(self) -> bool: ...
    @property
    def results(self) -> Sequence[object]: ...
    @property
    def route(self) -> str: ...
    @property
    def reranker(self) -> str: ...
    @property
    def warnings(self) -> Sequence[str]: ...
    @property
    def snapshot_version(self) -> int: ...

#: Ids written out; past them, how many more.
SHOWN_IDS = 5


def response_repr(response: _Answer) -> str:
    ids = [repr(i) for i in response.ids[:SHOWN_IDS]]
    if (more := len(response.results) - SHOWN_IDS) > 0:
        ids.append(f"... {more} more")
    confidence = None if response.confidence is None else round(response.confidence, 3)
    return (
        f"SearchResponse(results={len(response.results)}, ids=[{', '.join(ids)}], route={response.route!r}, "
        f"reranker={response.reranker!r}, confidence={confidence}, nothing_fits={response.nothing_fits}, "
        f"warnings={len(response.warnings)}, snapshot_version={response.snapshot_version})"
    )
