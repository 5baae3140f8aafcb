"""The check the time-phrase tables make of a row (`tests/algorithms/test_time_leftovers.py`,
`test_time_parts_and_pairs.py`, `test_ago.py`, `test_temporal.py`): `parse_time_window` reads the query the same
with dated items (``days=True``) and without."""

from __future__ import annotations

from datetime import datetime

from skill_retriever.algorithms.temporal import TimeWindow, parse_time_window


def read_both_ways(
    query: str, now: datetime, start: datetime | None, end: datetime, phrase: str
) -> TimeWindow:
    """Assert that ``query`` at ``now`` reads as ``start`` to ``end``, written ``phrase``,
    without ``days`` and with it; the reading with ``days``."""
    for days in (False, True):
        window = parse_time_window(query, now, days=days)
        assert window is not None
        assert (window.start, window.end, window.phrase) == (start, end, phrase)
    return window
