"""A time window whose start is after its end is a caller's slip: refused in one line
that says to swap them, not answered with "no item passes the filters"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters


def test_a_reversed_window_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"filters.since \(2026-01-01.*is after filters.until \(2020-01-01.*swap them"):
        Filters.from_spec({"since": "2026-01-01", "until": "2020-01-01"})
    same_day = Filters.from_spec({"since": "2026-01-01", "until": "2026-01-01"})
    # a date alone as until takes its whole day in: one day is a window
    assert same_day.until == datetime(2026, 1, 1, 23, 59, 59, 999999, tzinfo=UTC)
    instant = Filters.from_spec({"since": "2026-01-01T12:00:00Z", "until": "2026-01-01T12:00:00Z"})
    assert instant.since == instant.until  # one instant is a window
