"""A time window's items in the text channels.

A question with a time phrase ("checkout incidents yesterday") wants the items inside the
window that match its words. The keyword and semantic channels rank the whole index, and
fusion reads only each list's first ``fusion_depth`` entries: with 300 checkout incidents
before the window, the two inside it reached neither channel's first 50, so the window's
items were ordered by the time channel alone, the newer payments incidents first
(tests/test_window_text_channels.py). So, when the query names a window, each text channel also
searches inside it (the same search, the window as a since/until filter: `window_filters`)
and the hits it finds there join its list by score (`with_window_hits`); fusion then reads
a text channel's entries that lie in the window past the depth too (`in_window_past`), the
window being what the query asked for. Without a window nothing changes, and where the
window's best matches were in the first ``fusion_depth`` already, nothing moves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import timedelta
from typing import TypeVar

from skill_retriever.algorithms.temporal import TimeWindow
from skill_retriever.filters import Filters
from skill_retriever.state import QueryPlan

__all__ = ["in_window_past", "window_filters", "with_window_hits"]

#: The channels that rank by the query's text, whose lists the window's hits join.
TEXT_CHANNELS = ("keyword", "semantic")

H = TypeVar("H")
T = TypeVar("T")


def window_filters(plan: QueryPlan, filters: Filters) -> Filters | None:
    """``filters`` narrowed to the query's time window (the temporal channel's: created or
    updated inside it), or None when the query names none or the two leave no time at all.
    The window's end is exclusive and ``until`` inclusive, so ``until`` stops a microsecond
    before it."""
    spec = plan.get("time_window")
    if spec is None:
        return None
    window = TimeWindow.from_spec(spec)
    ends = [t for t in (filters.until, window.end and window.end - timedelta(microseconds=1)) if t is not None]
    starts = [t for t in (filters.since, window.start) if t is not None]
    since, until = (max(starts) if starts else None), (min(ends) if ends else None)
    if since is not None and until is not None and since > until:
        return None
    return dataclasses.replace(filters, since=since, until=until)


def with_window_hits(hits: Sequence[H], inside: Sequence[H], ident: Callable[[H], str],
                     score: Callable[[H], float]) -> list[H]:
    """``hits`` with those of ``inside`` (the same search inside the window) it lacks, by
    score (equal scores: by id, as the channels order their ties)."""
    held = {ident(h) for h in hits}
    extra = [h for h in inside if ident(h) not in held]
    if not extra:
        return list(hits)
    return sorted([*hits, *extra], key=lambda h: (-round(score(h), 6), ident(h)))


def in_window_past(head: Mapping[str, list[T]], whole: Mapping[str, Sequence[T]], depth: int,
                   window: Collection[str], ident: Callable[[T], str]) -> dict[str, list[T]]:
    """``head`` (each list cut to ``depth``) with each text channel's entries past the depth
    whose item the window's list holds, in their order: they came from the search inside
    the window (`with_window_hits`), and past the depth fusion would drop them."""
    out = dict(head)
    for channel in TEXT_CHANNELS:
        if channel in whole:
            out[channel] = [*head[channel], *(h for h in whole[channel][depth:] if ident(h) in window)]
    return out
