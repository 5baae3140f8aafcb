"""Times at the edge of what `datetime` holds neither break a query nor an index.

Found in a walkthrough: one node with ``"created": "9999-12-31T23:59:59-05:00"`` (valid
ISO-8601, a common "for ever" sentinel; year 10000 in UTC) was indexed without a problem,
and then every query on that index logged a traceback and skipped the temporal channel
(``OverflowError: date value out of range``); a query naming ``since 9999-12-31`` failed
whole (``plan_query failed: OverflowError``), from Python as a bare error.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.algorithms.temporal import parse_time_window
from skill_retriever.exceptions import QueryError
from skill_retriever.model import Node

NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)


def test_a_time_past_year_9999_in_utc_is_the_last_instant() -> None:
    node = Node(id="inc:1", kind="incident", name="n", text="t", created="9999-12-31T23:59:59-05:00")
    assert node.created == datetime.max.replace(tzinfo=UTC)
    early = Node(id="inc:2", kind="incident", name="n", text="t", created="0001-01-01T00:00:00+05:00")
    assert early.created == datetime.min.replace(tzinfo=UTC)
    assert node.created > early.created  # comparable, as every channel and filter needs


@pytest.mark.parametrize("query", ["since 9999-12-31", "in 9999-12", "in December 9999", "between 9999-12-30 and 9999-12-31"])
def test_windows_that_end_past_year_9999_run_to_the_end_of_time(query: str) -> None:
    window = parse_time_window(f"incidents {query}", NOW)
    assert window is not None and window.start is not None and window.start.year == 9999


@pytest.mark.parametrize(
    ("query", "said"),
    [("since 9999-12-31T23:00:00-05:00", "outside the years 1 to 9999 in UTC"), ("in 0000-01", "year 0 in the query")],
)
def test_a_date_no_calendar_holds_is_one_clear_error(query: str, said: str) -> None:
    with pytest.raises(QueryError, match=said):
        parse_time_window(f"incidents {query}", NOW)


def test_an_index_holding_one_answers_every_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nodes = [
        {"id": "inc:1", "kind": "incident", "name": "alpha down", "text": "Alpha was down.",
         "created": "9999-12-31T23:59:59-05:00"},
        {"id": "inc:2", "kind": "incident", "name": "beta down", "text": "Beta was down.",
         "created": "2026-12-04T10:00:00Z"},
    ]
    (tmp_path / "g.json").write_text(json.dumps({"nodes": nodes, "edges": []}), encoding="utf-8")
    ix = str(tmp_path / "ix")
    code, out, _ = run(capsys, "index", tmp_path / "g.json", "--index-dir", ix, "--embedder", "hashing-64")
    assert code == 0 and "0 problems" in out
    for argv in (["what was down recently"], ["incidents since 9999-12-31"], ["down", "--since", "9999-01-01"]):
        code, out, err = run(capsys, "query", *argv, "--index-dir", ix, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert not any("failed" in w for w in data["warnings"]), data["warnings"]
        assert "Traceback" not in err
    assert [r["id"] for r in data["results"]] == ["inc:1"]
