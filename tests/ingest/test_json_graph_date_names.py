"""A JSON graph node's times under the names incident exports give them are its times.

Found in a walkthrough: ``"created_at": "2026-12-05T01:00:00Z"`` went into ``attrs``, so
the incident was undated: out of every ``--since`` window and every time phrase ("in the
last 24h"), without a word.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.stores.index import Index


def test_created_at_and_updated_at_are_the_nodes_times(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nodes = [
        {"id": "inc:1", "kind": "incident", "name": "alpha down", "text": "Alpha was down.",
         "created_at": "2026-12-05T01:00:00Z", "updated_at": "2026-12-05T02:00:00Z", "severity": 2},
        {"id": "inc:2", "kind": "incident", "name": "beta down", "text": "Beta was down.",
         "createdAt": "2026-11-01T00:00:00Z"},
        # a node giving both names keeps its own `created`; the other stays an attribute
        {"id": "inc:3", "kind": "incident", "name": "gamma down", "text": "Gamma was down.",
         "created": "2026-10-01T00:00:00Z", "created_at": "2026-12-01T00:00:00Z"},
    ]
    (tmp_path / "ops.json").write_text(json.dumps({"nodes": nodes, "edges": []}), encoding="utf-8")
    ix = tmp_path / "ix"
    assert run(capsys, "index", tmp_path / "ops.json", "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    index = Index.open(ix)
    try:
        one, two, three = (index.get(f"inc:{i}") for i in (1, 2, 3))
        assert (one.created, one.updated) == (datetime(2026, 12, 5, 1, tzinfo=UTC), datetime(2026, 12, 5, 2, tzinfo=UTC))
        assert "created_at" not in one.attrs and one.attrs["severity"] == 2
        assert two.created == datetime(2026, 11, 1, tzinfo=UTC)
        assert three.created == datetime(2026, 10, 1, tzinfo=UTC) and three.attrs["created_at"] == "2026-12-01T00:00:00Z"
    finally:
        index.close()
    code, out, _ = run(capsys, "query", "down", "--since", "2026-12-05", "--index-dir", ix, "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)["results"]] == ["inc:1"]


def test_incident_start_and_end_keys_date_the_node(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PagerDuty, Opsgenie, incident.io and FireHydrant exports date an incident by when it
    started and was resolved: those went into ``attrs``, so "incidents yesterday" missed it."""
    nodes = [
        {"id": "inc:1", "kind": "incident", "name": "alpha down", "text": "Alpha was down.",
         "startedAt": "2026-12-05T01:00:00Z", "resolvedAt": "2026-12-05T02:00:00Z"},
        {"id": "inc:2", "kind": "incident", "name": "beta down", "text": "Beta was down.",
         "started_at": "2026-12-05T03:00:00Z", "resolved_at": "2026-12-05T04:00:00Z"},
        {"id": "inc:3", "kind": "incident", "name": "gamma down", "text": "Gamma was down.",
         "start_time": "2026-12-05T05:00:00Z", "end_time": "2026-12-05T06:00:00Z"},
        # the record's own created_at comes first; its start stays an attribute
        {"id": "inc:4", "kind": "incident", "name": "delta down", "text": "Delta was down.",
         "created_at": "2026-11-01T00:00:00Z", "started_at": "2026-10-31T23:00:00Z"},
    ]
    (tmp_path / "ops.json").write_text(json.dumps({"nodes": nodes}), encoding="utf-8")
    ix = tmp_path / "ix"
    assert run(capsys, "index", tmp_path / "ops.json", "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    with Index.open(ix) as index:
        times = {i: (index.get(f"inc:{i}").created, index.get(f"inc:{i}").updated) for i in (1, 2, 3)}
        four = index.get("inc:4")
    assert times == {i: (datetime(2026, 12, 5, 2 * i - 1, tzinfo=UTC), datetime(2026, 12, 5, 2 * i, tzinfo=UTC))
                     for i in (1, 2, 3)}
    assert four.created == datetime(2026, 11, 1, tzinfo=UTC) and four.attrs["started_at"] == "2026-10-31T23:00:00Z"
    code, out, _ = run(capsys, "query", "down", "--since", "2026-12-05", "--index-dir", ix, "--json")
    assert code == 0 and sorted(r["id"] for r in json.loads(out)["results"]) == ["inc:1", "inc:2", "inc:3"]
