"""The words of time phrases: units, numbers, months, weekdays and the date expressions
`temporal.parse_time_window` reads, and the phrases that look like a time but that it does
not read (:func:`unread_time_phrase`). Its own module so that both share one vocabulary."""

from __future__ import annotations

import re
from datetime import timedelta

from skill_retriever.algorithms.day_counts import counts_things

__all__ = ["unread_time_phrase"]

UNITS: dict[str, timedelta] = {
    "minute": timedelta(minutes=1), "min": timedelta(minutes=1),
    "hour": timedelta(hours=1), "hr": timedelta(hours=1), "h": timedelta(hours=1),
    "day": timedelta(days=1), "d": timedelta(days=1),
    "week": timedelta(weeks=1), "wk": timedelta(weeks=1), "w": timedelta(weeks=1),
    "fortnight": timedelta(weeks=2),
    "month": timedelta(days=30), "mo": timedelta(days=30),
    "year": timedelta(days=365), "yr": timedelta(days=365), "y": timedelta(days=365),
}  # fmt: skip
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12,
                 "a few": 3, "few": 3, "a couple of": 2, "couple of": 2,
                 "a couple": 2, "couple": 2, "several": 5}  # fmt: skip
# "couple" and "several" as "a few" is 3 of the 2 to 5 it may mean (`VAGUE_COUNTS`): "in the last
# couple hours", "the last several days" were only noted as times not read.
WORD_NUM = "|".join(sorted((w.replace(" ", r"\s+") for w in NUMBER_WORDS), key=len, reverse=True))
# A vague count before "ago": the units it may mean, fewest and most (`ago`: "a few days ago" is
# from the start of 5 days ago to the end of 2 days ago). Not in NUMBER_WORDS: "last N" keeps 3 and 2.
VAGUE_COUNTS = {"a few": (2, 5), "few": (2, 5), "a couple of": (1, 3), "couple of": (1, 3),
                "a couple": (1, 3), "couple": (1, 3), "several": (3, 7)}  # fmt: skip
AGO_NUM = "|".join(
    sorted((w.replace(" ", r"\s+") for w in {**NUMBER_WORDS, **VAGUE_COUNTS}), key=len, reverse=True)
)
WORD_UNIT = r"minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|years?|yrs?"
DIGIT_UNIT = WORD_UNIT + r"|mo|h|d|w|y"
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# "May" only capitalised; the others in any case, full or as three letters ("Sept" too).
MONTH_NAME = (
    r"(?:(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|(?-i:May|MAY))"  # -i: inside an (?i:) too
)
# A month, with its year or followed by no number: "Nov 3" is a day (noted, not read), which
# read as "Nov" made "since Nov 3" start on the 1st and "after January 1, 2017" this year.
MONTH = rf"{MONTH_NAME}(?:\s+\d{{4}}|(?!\s+\d))"
# A day written before its month ("5 Nov", "12th of March"), and days of one month
# ("between 1 and 5 Nov"): not read as a window (in a tool request they are arguments,
# "book a room from 3 Nov to 5 Nov"), but named, where they were passed over in silence.
_DAY_MONTH = rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?i:of\s+)?{MONTH_NAME}\b"
_DAYS_OF_MONTH = rf"(?i:between|from)\s+(?:{_DAY_MONTH}|\d{{1,2}}(?:st|nd|rd|th)?)\s+(?i:and|to)\s+{_DAY_MONTH}(?:,?\s+\d{{4}})?"
WEEKDAY_NAME = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
WEEKDAY = rf"(?i:(?:last\s+)?{WEEKDAY_NAME})"
# A weekday alone after a verb in the past tense, "what broke Monday", or two, "Monday or Tuesday"
# (groups day, other; `weekdays`): here, as `unread_time_phrase` notes it where it is not read.
PAST_WEEKDAY_RE = re.compile(
    rf"(?i:\b(?:\w+ed|broke|ran|went|fell|came|began|did|was|were|got|made|took|sent|built|lost|wrote|saw|froze|rose)"
    rf"\s+)(?P<day>(?i:{WEEKDAY_NAME}))(?![\w-]|\.\w)(?:\s+(?i:or)\s+(?P<other>(?i:{WEEKDAY_NAME}))(?![\w-]|\.\w))?"
    # not a name's ("Monday Night Football") nor a range's first day ("Monday to Friday")
    rf"(?!\s+[A-Z]|\s*(?:-|(?i:to|through|thru|till|until|and|or)\s)\s*(?i:{WEEKDAY_NAME}))"
)
ISO_DAY = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[Zz]|[+-]\d{2}:?\d{2})?)?"  # z: RFC 3339 allows it
ISO_MONTH = r"\d{4}-\d{2}(?![\d-])"
# Named spans: before "yesterday" in an alternation, so "yesterday morning" is read whole.
SPAN = (
    r"(?i:(?:the\s+)?day\s+before\s+yesterday|(?:this|yesterday)\s+(?:morning|afternoon|evening)"
    r"|last\s+night|(?:last|past|previous|this)\s+weekend"
    # "failed overnight" as "last night"; not "an overnight build", "overnight shipping"
    r"|overnight(?=\s*(?:[.,;:!?)]|$)|\s+(?:and|or|but|in|on|at|across|while)\b))"
)
# A time counted back from now, "2 days ago", "a week ago": the span of that unit (`ago`).
# With no count, one unit ("day ago"): "days ago", "many hours ago" name no number of them.
ONE_UNIT = r"minute|min|hour|hr|day|week|wk|fortnight|month|year|yr"
# "half an hour ago"; "2 weeks back" with a count ("get the day back" names no time).
_COUNTED = rf"\d+(?:\.\d+)?\s*(?:{DIGIT_UNIT})|(?:{AGO_NUM})\s+(?:{WORD_UNIT})"
AGO = rf"(?i:(?:{_COUNTED}|half\s+an?\s+(?:hour|day)|{ONE_UNIT})\s+ago|(?:{_COUNTED})\s+back)"
PART_OF_DAY = {"morning": (0, 12), "afternoon": (12, 18), "evening": (18, 24)}
# A calendar week, month or year as a bound ("since this week", "between yesterday and the start
# of this week", "until the end of the month"): "the month" only after "the start/end of".
CALENDAR = r"(?i:(?:this|last|previous)\s+(?:week|month|year)|(?<=of\s)the\s+(?:week|month|year))(?![\w-])"
DATE = rf"{AGO}|{ISO_DAY}|{ISO_MONTH}|{SPAN}|{CALENDAR}|(?i:the\s+weekend|today|yesterday)|{WEEKDAY}|{MONTH}"

# Words that look like a time but that `parse_time_window` does not read ("since the
# outage", "in Q3"). A time word counts only after a word that makes it a time ("last
# quarter", "at noon"): alone ("weekend cabin", "night mode", "spring boot") it is an
# ordinary word. A time ahead of now ("in the next 24h", "tomorrow") is one too: items
# carry past times, so no window is read from it, and the caller is told so. "until now" or "until the
# present" with no start is no such phrase, as "till now" and "up to now" are not: it asks for all up to now,
# what no window gives, so a note that a time was ignored would be wrong (metatool: "the main points that
# have been discussed up until now").
_AHEAD = (
    r"(?:(?:in|within|over|for|during)\s+the\s+)?(?:next|coming|following|upcoming)"
    rf"\s+(?:\d+(?:\.\d+)?\s*(?:{DIGIT_UNIT})|(?:(?:{WORD_NUM})\s+)?(?:{WORD_UNIT}))|tomorrow"
)
TIMELIKE_RE = re.compile(
    r"\b(?i:(?:since|until(?!\s+(?:now|(?:the\s+)?present)(?![\w-])))\s+\S+(?:\s+\S+)?"
    rf"|(?:(?:\d+|{WORD_NUM})\s+)?\S+\s+ago|q[1-4]|fy\s?\d{{2,4}}"
    r"|(?:last|past|previous)\s+(?:few|several|couple|\d+)(?:\s+\S+)?"
    r"|(?:last|past|previous|this|next|current)\s+(?:quarter|sprint|semester|night|morning"
    rf"|afternoon|evening|weekend|summer|winter|autumn|holidays?|{WEEKDAY_NAME})"
    rf"|{_AHEAD}|tonight|(?:on|at)\s+the\s+weekend|the\s+other\s+day|h[12]\s+(?:19|20)\d{{2}}|(?:19|20)\d{{2}}\s+h[12]"
    rf"|(?:first|second|third|fourth|last|final)\s+(?:week|half|days?)\s+of\s+(?:{MONTH_NAME}|the\s+(?:month|year|quarter)|(?:19|20)\d{{2}})"
    rf"|on\s+{WEEKDAY_NAME}s?(?:\s+or\s+(?:on\s+)?{WEEKDAY_NAME}s?)?|(?:in|during)\s+(?:19|20)\d{{2}}(?![\w-])"
    r"|(?:at|around|before|after)\s+(?:lunch(?:time)?|noon|midday|midnight|night|dawn|dusk"
    r"|\d{1,2}(?::\d{2})?\s*[ap]m|\d{1,2}:\d{2})"
    r"|(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}(?:st|nd|rd|th)?"
    rf"|{_DAYS_OF_MONTH}|{_DAY_MONTH}"
    r"|\d{4}-\d{2}(?:-\d{2})?)\b"
)
_NUMBER_MONTH_RE = re.compile(rf"\d{{1,2}}\s+{MONTH_NAME}\b")


def unread_time_phrase(query: str) -> str | None:
    """A phrase that looks like a time but that `temporal.parse_time_window` does not
    read, a time ahead of now among them ("in the next 24h").

    Call it when `temporal.parse_time_window` found no window: the query text is then left
    whole, and the caller may say that the phrase set no window.

    Args:
        query: The query text.

    Returns:
        The first such phrase as written ("since the outage", "ages ago"), or None.
    """
    pos, found = 0, None
    while m := TIMELIKE_RE.search(query, pos):
        # "top 5 May releases", "the last 3 Nov incidents": a count, no time (`day_counts`)
        count = _NUMBER_MONTH_RE.search(m.group())
        if count is None or not counts_things(query, m.start() + count.start(), m.start() + count.end()):
            found = (m.start(), m.group())
            break
        pos = m.start() + 1
    # "what broke Monday" without days, as "what broke on Monday": it was read as nothing, unsaid
    if (day := PAST_WEEKDAY_RE.search(query)) and (found is None or day.start("day") < found[0]):
        return query[day.start("day") : day.end()]
    return found and found[1]
