"""Times as e-mail, HTTP, RSS and database exports write them are read, not refused.

Found walking an incident export: ``"createdAt": "Tue, 03 Nov 2026 14:05:00 +0000"`` (RFC
2822, as e-mail, HTTP and RSS write a time) and ``"created_at": "2026-11-03 14:05:00 UTC"``
(as database dumps write one) were "not ISO-8601", and the incident was dropped. A form
that does not say which number is the day (``03/11/2026``) is still refused, in the same
words; an RFC 2822 time naming a zone the standard library does not know (``CET``) is
refused rather than read as UTC, hours off.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.model import Node, parse_timestamp


def _at(value: str) -> datetime | None:
    return Node(id="inc:1", kind="incident", name="n", text="t", created=value).created


@pytest.mark.parametrize(("text", "offset"), [
    ("Tue, 03 Nov 2026 14:05:00 +0000", 0),
    ("Tue, 03 Nov 2026 14:05:00 GMT", 0),
    ("03 Nov 2026 14:05:00 +0000", 0),
    ("Tue, 3 Nov 2026 14:05 +0000", 0),
    ("Tue, 03 Nov 2026 19:35:00 +0530", 330),
    ("Tue, 03 Nov 2026 19:35:00 +05:30", 330),
    ("Tue, 03 Nov 2026 09:05:00 EST", -300),
    ("Tue, 03 Nov 2026 06:05:00 -0800 (PST)", -480),  # as a mail header writes it
    ("Tue, 03 Nov 2026 14:05:00 -0000", 0),  # RFC 2822's "zone not known": UTC, as a naive time
    ("2026-11-03 14:05:00 UTC", 0),
    ("2026-11-03 14:05:00 GMT", 0),
    ("2026-11-03T14:05:00 utc", 0),
    ("2026-11-03 14:05:00Z", 0),
    ("2026-11-03 14:05:00 Z", 0),
])
def test_rfc_2822_and_zone_words_are_read(text: str, offset: int) -> None:
    created = _at(text)
    assert created == datetime(2026, 11, 3, 14, 5, tzinfo=UTC)
    assert created is not None and created.utcoffset() == timedelta(minutes=offset)


@pytest.mark.parametrize(("text", "why"), [
    ("Tue, 03 Nov 2026 14:05:00 CET", "zone 'CET' is not one it names; write it as an offset such as +0100"),
    ("Tue, 03 Nov 2026 14:05:00 GMT+1", "zone 'GMT+1'"),
    ("Mon, 03 Nov 2026 14:05:00 +0000", "2026-11-03 is a Tue, not a Mon"),
    ("Tue, 31 Feb 2026 14:05:00 +0000", "day is out of range for month"),
])
def test_an_rfc_2822_time_that_is_no_time_says_why(text: str, why: str) -> None:
    with pytest.raises(InvalidItemError, match="not a valid RFC 2822 time") as caught:
        parse_timestamp(text, "node 'inc:1': 'created'")
    assert why in str(caught.value) and str(caught.value).startswith(f"node 'inc:1': 'created': timestamp {text!r}")


@pytest.mark.parametrize("text", ["03/11/2026", "2026-11-03 UTC", "03 Nov 2026", "2026-11-03T14:05:00+01:00 UTC",
                                  "14:05:00 UTC"])
def test_ambiguous_or_partial_forms_stay_refused_as_before(text: str) -> None:
    with pytest.raises(InvalidItemError) as caught:
        parse_timestamp(text, "x")
    assert str(caught.value) == f"x: timestamp {text!r} is not ISO-8601 (e.g. 2026-11-01T12:00:00Z)"


def test_an_offset_keeps_its_zone_in_an_rfc_2822_time() -> None:
    assert _at("Tue, 03 Nov 2026 19:35:00 +0530") == datetime(2026, 11, 3, 19, 35, tzinfo=timezone(timedelta(minutes=330)))


def test_a_postmortem_dated_in_rfc_2822_is_dated(tmp_path: Path) -> None:
    """A document's frontmatter is read alike; a zone no one names is a warning naming it."""
    write_file(tmp_path / "pm", "checkout.md",
               "---\ntitle: Checkout outage\ndate: Tue, 03 Nov 2026 14:05:00 +0000\n---\nCheckout was down.\n")
    write_file(tmp_path / "pm", "search.md",
               "---\ntitle: Search outage\ndate: Tue, 03 Nov 2026 14:05:00 CET\n---\nSearch was down.\n")
    result = ingest_documents(tmp_path / "pm")
    dated = {n.name: n.created for n in result.nodes}
    assert dated == {"Checkout outage": datetime(2026, 11, 3, 14, 5, tzinfo=UTC), "Search outage": None}
    [problem] = [p.message for p in result.problems]
    assert "'date': timestamp 'Tue, 03 Nov 2026 14:05:00 CET' is not a valid RFC 2822 time: zone 'CET'" in problem
