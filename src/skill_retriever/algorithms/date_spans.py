"""What a date expression of a query's time phrase names, as a UTC span: a named day or
part of one ("yesterday", "this morning", "last night", "over the weekend"), a day of a
month (`month_days`), a calendar week, month or year ("this week", "last month"), a
calendar month ("March", "nov 2026", "2026-11"), a year ("2025", read with days) or an ISO
date or instant. `temporal.parse_time_window` finds the phrase; this module reads its dates."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from skill_retriever.algorithms.ago import ago_span
from skill_retriever.algorithms.month_days import day_of_month_span
from skill_retriever.algorithms.time_words import MONTHS, PART_OF_DAY, WEEKDAYS
from skill_retriever.exceptions import QueryError

__all__ = ["as_utc", "day_or_instant", "later", "midnight"]


def as_utc(dt: datetime) -> datetime:
    """``dt`` in UTC; a naive value is read as UTC."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def midnight(dt: datetime) -> datetime:
    """The start of ``dt``'s day."""
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


#: The last instant a window can end at: the end of a day or month in year 9999 is past
#: what `datetime` holds, and the window then runs to the end of time instead.
_END_OF_TIME = datetime.max.replace(tzinfo=UTC)


def later(dt: datetime, delta: timedelta) -> datetime:
    """``dt + delta``, or `_END_OF_TIME` when that is past year 9999."""
    try:
        return dt + delta
    except OverflowError:
        return _END_OF_TIME


def _month_start(year: int, month: int) -> datetime:
    if not 1 <= month <= 12:
        raise QueryError(f"month {month:02d} in the query does not exist; use YYYY-MM")
    if not 1 <= year <= 9999:
        raise QueryError(f"year {year} in the query is outside the years 1 to 9999")
    return datetime(year, month, 1, tzinfo=UTC)


def _next_month(start: datetime) -> datetime:
    if start.month < 12:
        return start.replace(month=start.month + 1)
    return start.replace(year=start.year + 1, month=1) if start.year < 9999 else _END_OF_TIME


def _month_span(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The calendar month ``YYYY-MM`` or a month name ("March", "nov 2026") names."""
    if m := re.fullmatch(r"(\d{4})-(\d{2})", text):
        start = _month_start(int(m.group(1)), int(m.group(2)))
        return start, _next_month(start)
    name, _, year = text.lower().partition(" ")
    month = next((i for i, full in enumerate(MONTHS, 1) if full.startswith(name[:3])), 0)
    if not month:
        return None
    if year.strip():
        start = _month_start(int(year), month)
    else:  # the most recent such month that has begun
        start = _month_start(now.year if month <= now.month else now.year - 1, month)
    return start, _next_month(start)


def _named_span(word: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The span a named day, part of a day or weekend covers ("yesterday", "this morning",
    "last night", "over the weekend"), or None when ``word`` (lower case) names none."""
    today, hour = midnight(now), timedelta(hours=1)
    word = re.sub(r"^(?:(?:over|during) )?(?:the )?", "", word)
    back = {"today": 0, "yesterday": 1, "day before yesterday": 2}.get(word)
    if back is None and (day := word.removeprefix("last ")) in WEEKDAYS:
        back = (now.weekday() - WEEKDAYS.index(day) - 1) % 7 + 1  # the most recent before today
    if back is not None:
        start = today - timedelta(days=back)
        return start, start + timedelta(days=1)
    if word in ("last night", "overnight"):
        return today - 6 * hour, today + 6 * hour
    which, _, part = word.partition(" ")
    if part in PART_OF_DAY:
        base = today - timedelta(days=1 if which == "yesterday" else 0)
        return base + PART_OF_DAY[part][0] * hour, base + PART_OF_DAY[part][1] * hour
    if word.endswith("weekend"):
        monday = today - timedelta(days=today.weekday())
        # "last weekend" is the latest complete one; "this/the weekend" may be under way.
        current = which in ("this", "weekend") and today.weekday() >= 5
        start = monday + timedelta(days=5) if current else monday - timedelta(days=2)
        return start, start + timedelta(days=2)
    return None


def _calendar_span(word: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The whole calendar week (from Monday), month or year "this/the week", "last month" and
    the like name, or None when ``word`` (lower case) names none."""
    which, _, unit = word.partition(" ")
    if which not in ("this", "the", "last", "previous") or unit not in ("week", "month", "year"):
        return None
    back = 1 if which in ("last", "previous") else 0
    if unit == "week":
        start = midnight(now) - timedelta(days=now.weekday() + 7 * back)
        return start, start + timedelta(days=7)
    if unit == "month":
        index = now.year * 12 + now.month - 1 - back
        start = _month_start(index // 12, index % 12 + 1)
        return start, _next_month(start)
    start = _month_start(now.year - back, 1)
    return start, start.replace(year=start.year + 1) if start.year < 9999 else _END_OF_TIME


def day_or_instant(text: str, now: datetime) -> tuple[datetime, datetime]:
    """The start and end of what a date expression names (a day, a week, a month, a year, or
    one instant)."""
    word = " ".join(text.lower().split())
    if span := _named_span(word, now) or ago_span(word, now) or _calendar_span(word, now):
        return span
    if span := day_of_month_span(text, now):  # before the month: "Nov 3" is no month
        return span
    if span := _month_span(word, now):
        return span
    if re.fullmatch(r"(?:19|20)\d{2}", text):  # a year, read with days ("since 2025")
        start = _month_start(int(text), 1)
        return start, start.replace(year=start.year + 1)
    try:
        dt = as_utc(datetime.fromisoformat(text[:-1] + "Z" if text.endswith("z") else text))  # Python refuses z
    except ValueError as exc:
        raise QueryError(f"{text!r} in the query is not a valid date; use YYYY-MM-DD") from exc
    except OverflowError as exc:  # 9999-12-31T23:00-05:00: past year 9999 in UTC
        raise QueryError(f"{text!r} in the query is outside the years 1 to 9999 in UTC") from exc
    return (dt, later(dt, timedelta(days=1))) if len(text) == 10 else (dt, dt)
