"""A window inside one day over items dated by their day alone: the whole day.

An hour or a part of a day ("at 2pm on Nov 3", "from 9am to 5pm yesterday", "3 hours ago",
"this afternoon") is read to the minute, as items' times are kept to the second. An item
dated by its day alone ("created": "2026-11-03", as many exports write it) is at 00:00:00,
in the midnight hour only, so such a window missed it without a word. When the items the
caller may see that are dated inside the window's day all carry 00:00:00 (no time of day
to tell them apart), the window is that whole day, and a warning says so. Where any of them
carries a time of day, the window stays as written.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skill_retriever.algorithms.date_spans import midnight
from skill_retriever.algorithms.temporal import TimeWindow
from skill_retriever.filters import Filters
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["widen_to_dated_day"]

_DAY = timedelta(days=1)


def widen_to_dated_day(
    window: TimeWindow, snapshot: IndexSnapshot, filters: Filters
) -> tuple[TimeWindow, str] | None:
    """The whole day and a warning, for a window inside one day whose visible items dated
    that day carry no time of day (module docstring); None when the window stays."""
    if window.start is None or window.end is None:
        return None
    day = midnight(window.start)
    if window.end > day + _DAY or (window.start, window.end) == (day, day + _DAY):
        return None  # across days, or the day itself
    if not snapshot.memo("day-only", (day, filters.principals), lambda: _day_only(snapshot, filters, day), 8):
        return None
    whole = TimeWindow(day, day + _DAY, window.phrase)
    return whole, (
        f"{window.phrase!r}: the items dated {day:%Y-%m-%d} carry the day only, no time of day, so the whole "
        f"day was read ({whole.span_words()}), not {window.span_words()}"
    )


def _day_only(snapshot: IndexSnapshot, filters: Filters, day: datetime) -> bool:
    """Whether some item the caller may see is dated inside ``day`` and every such date is 00:00:00."""
    seen = snapshot.allowed(filters.visibility())
    times = [
        t.astimezone(UTC)
        for n in snapshot.nodes.values()
        if seen is None or seen(n.id)
        for t in (n.created, n.updated)
        if t is not None and day <= t.astimezone(UTC) < day + _DAY
    ]
    return bool(times) and all(t == day for t in times)
