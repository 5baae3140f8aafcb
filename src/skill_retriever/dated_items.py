"""How many of an index's items carry a date, for ``stats``. ``since`` / ``until`` and a
time in the query read only dated items, and a folder of runbooks is often partly dated
(frontmatter on the postmortems, none on the runbooks): without this line an SRE learnt it
only from an answer that left a file out. ``stats`` prints it; ``stats --json`` has it as
``dated``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from skill_retriever.model import Node, NodeKind
from skill_retriever.undated_advice import DOCUMENT_DATES

if TYPE_CHECKING:
    from skill_retriever.filters import Filters
    from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["carries_dates", "dated_summary", "dated_words"]


def carries_dates(snapshot: IndexSnapshot, filters: Filters | None = None) -> bool:
    """Whether any item of the index that ``filters`` let the caller see (access only;
    everything when None) carries a created or updated time: an index the
    temporal channel has something to rank in (incidents, dated documents), where a day in
    the query ("since Nov 3") is a window; in one where none does (a tool set, skills, QA
    passages) a date is words of the query ("book a table on 2026-12-03"), kept for the
    text search (`querytext.search_text_of`). Judged over every item, dated private items
    told a public caller they were there: its day phrases read as windows, and an answer
    said that no item carries a date."""
    seen = None if filters is None else snapshot.allowed(filters.visibility())
    key = "all" if filters is None else ("seen", filters.principals)
    return snapshot.memo("dated", key, lambda: any(
        n.last_changed is not None for n in snapshot.nodes.values() if seen is None or seen(n.id)), 8)


def dated_summary(nodes: Iterable[Node]) -> dict[str, Any]:
    """``{"items", "of", "first", "last", "undated_documents"}``: how many items carry a
    created or updated time, of how many, the earliest and latest of those times (ISO
    8601, UTC; None when no item is dated), and how many documents carry none."""
    every = list(nodes)
    times = [t.astimezone(UTC) for n in every for t in (n.created, n.updated) if t is not None]
    undated = [n for n in every if n.last_changed is None]
    first, last = (min(times), max(times)) if times else (None, None)
    return {"items": len(every) - len(undated), "of": len(every), "first": _iso(first), "last": _iso(last),
            "undated_documents": sum(1 for n in undated if n.kind is NodeKind.DOCUMENT)}


def _iso(t: datetime | None) -> str | None:
    return t.isoformat() if t is not None else None


def dated_words(summary: dict[str, Any]) -> str:
    """The ``dated:`` line of ``stats`` from `dated_summary`."""
    items, total = summary["items"], summary["of"]
    if not total:
        return "no items"
    advice = f" ({DOCUMENT_DATES})" if summary["undated_documents"] else ""
    if not items:
        return f"none of {total} items carries a date: since/until and a time in the query find none{advice}"
    span = f"{summary['first'][:10]} to {summary['last'][:10]} UTC"
    return f"{items} of {total} items, {span}; since/until and a time in the query find only these{advice}"
