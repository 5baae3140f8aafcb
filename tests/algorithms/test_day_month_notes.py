"""A day written before its month ("5 Nov", "between 1 and 5 Nov") is named as a time the
search does not read, not passed over in silence.

Found walking an incident index: "incidents between 1 and 5 Nov" and "incidents between 1
Nov and 5 Nov 2026" set no window and said nothing, where "incidents between Nov 1 and Nov
5" said "'Nov 1' looks like a time but names no window this search reads": the asker could
not tell the dates had been ignored. (Reading such days as a window is left out: in tool
requests they are arguments, "book a room from 3 Nov to 5 Nov", which the text channels
must keep; on an index whose items carry dates they are read, ``days=True``:
test_month_days.py.)
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, unread_time_phrase

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("query", "phrase"), [
    ("incidents between 1 and 5 Nov", "between 1 and 5 Nov"),
    ("incidents between 1st and 5th of November", "between 1st and 5th of November"),
    ("incidents between 1 Nov and 5 Nov 2026", "between 1 Nov and 5 Nov 2026"),
    ("what broke on 3 Nov", "3 Nov"),
    ("the 12th of March outage", "12th of March"),
])  # fmt: skip
def test_a_day_before_its_month_is_named(query: str, phrase: str) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) == phrase


@pytest.mark.parametrize("query", ["add 3 marketing campaigns", "between 1 and 5 pods", "what 5 may break",
                                   "scale to 2 decks"])
def test_numbers_before_other_words_are_no_time(query: str) -> None:
    assert unread_time_phrase(query) is None
