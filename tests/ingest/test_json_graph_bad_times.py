"""A JSON graph node whose time cannot be read: the problem names the key as the file writes it,
and the node is indexed without that time.

Found walking an incident export: ``{"created": "2026-12-01", "updated": "last tuesday"}``
was refused as ``node 'inc:2': timestamp 'last tuesday' is not ISO-8601``, naming neither
``updated`` nor, for a time under an export's name, ``created_at``; and ``"created": 1e300``
was said to "look like milliseconds: divide by 1000", which gives no time either.

Later walk: one bad time cost the whole incident (its text, its edges, its other time), so
a search for it found nothing, where a document's frontmatter loses only the date. Now
the node is kept with its other times, the next name of that time is read (as a
document's frontmatter reads the next key), and the bad value stays in ``attrs`` under the
export's name (a value under our own name, ``created``, goes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.ingest.result import Unread
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "idx", embedder=HashingEmbedder(64), create=True)
    yield opened
    opened.close()


def _problems(index: Index, tmp_path: Path, node: dict[str, Any]) -> list[str]:
    graph = {"nodes": [{"id": "inc:1", "kind": "incident", "name": "checkout 500s", "text": "Checkout failed."},
                       {"id": "inc:2", "kind": "incident", "name": "payments slow", "text": "Payments timed out.", **node}]}
    path = write_file(tmp_path / "ops", "incidents.json", json.dumps(graph))
    run = index_sources(index, path)
    assert set(index.snapshot().nodes) == {"inc:1", "inc:2"}  # the node too, without that time
    return [p.message for p in run.sources[0].problems]


@pytest.mark.parametrize(("node", "key", "value"), [
    ({"created": "2026-12-01", "updated": "last tuesday"}, "updated", "'last tuesday'"),
    ({"created": "2026-02-30", "updated": "2026-12-01"}, "created", "'2026-02-30'"),
    ({"created_at": "03.12.2026 10:00"}, "created_at", "'03.12.2026 10:00'"),
    ({"updatedAt": "soon"}, "updatedAt", "'soon'"),
])
def test_a_bad_time_is_named_by_its_key_as_written(
    index: Index, tmp_path: Path, node: dict[str, Any], key: str, value: str
) -> None:
    [message] = _problems(index, tmp_path, node)
    assert f"'{key}': timestamp {value} is not ISO-8601" in message
    assert "inc:2" in message


def test_a_number_too_large_even_for_milliseconds_is_not_called_milliseconds(index: Index, tmp_path: Path) -> None:
    [message] = _problems(index, tmp_path, {"created": 1e300})
    assert "'created': timestamp 1e+300 is not a valid time in epoch seconds" in message
    assert "milliseconds" not in message


@pytest.mark.parametrize("key", ["startedAt", "started_at", "start_time", "resolvedAt", "end_time"])
def test_a_bad_start_or_end_is_named_by_its_key_as_written(index: Index, tmp_path: Path, key: str) -> None:
    [message] = _problems(index, tmp_path, {key: "yesterday"})
    assert f"'{key}': timestamp 'yesterday' is not ISO-8601" in message


@pytest.mark.parametrize(("value", "hint"), [
    ("1764583200", "epoch seconds written as text: write the number unquoted"),
    ("1764583200.25", "epoch seconds written as text: write the number unquoted"),
    ("1764583200000", "epoch milliseconds written as text: divide by 1000 and write the number unquoted"),
])
def test_epoch_time_written_as_text_says_how_to_write_it(index: Index, tmp_path: Path, value: str, hint: str) -> None:
    """An export converted from CSV quotes its epoch times: "is not ISO-8601" said nothing of
    the epoch seconds the README says are read."""
    [message] = _problems(index, tmp_path, {"startedAt": value})
    assert f"'startedAt': timestamp {value!r} is not ISO-8601" in message
    assert message.endswith(f"{hint}; the node is indexed without it")


def test_the_node_is_kept_with_its_other_times_and_text(index: Index, tmp_path: Path) -> None:
    graph = {"nodes": [
        {"id": "svc:pay", "kind": "service", "name": "payments", "text": "Payments service."},
        {"id": "inc:2", "kind": "incident", "name": "payments slow", "text": "Payments timed out.",
         "created_at": "03/11/2026", "resolved_at": "2026-11-03T15:00:00Z", "severity": "high"},
        {"id": "inc:3", "kind": "incident", "name": "payments down", "text": "Payments was down.",
         "created": "soon", "created_at": "2026-11-02T10:00:00Z", "updated_at": "later", "resolvedAt": "2026-11-02T11:00:00Z"}],
        "edges": [{"source": "inc:2", "target": "svc:pay", "kind": "AFFECTS"}]}
    path = write_file(tmp_path / "ops", "incidents.json", json.dumps(graph))
    run = index_sources(index, path)
    snap = index.snapshot()
    two, three = snap.nodes["inc:2"], snap.nodes["inc:3"]
    assert (two.created, two.updated) == (None, datetime(2026, 11, 3, 15, tzinfo=UTC))
    assert two.attrs["created_at"] == "03/11/2026" and two.attrs["severity"] == "high"
    assert "resolved_at" not in two.attrs
    assert len(snap.edges) == 1  # its relation too
    # a bad time under one name: the next name of that time is read
    assert (three.created, three.updated) == (datetime(2026, 11, 2, 10, tzinfo=UTC), datetime(2026, 11, 2, 11, tzinfo=UTC))
    assert "created" not in three.attrs and three.attrs["updated_at"] == "later"
    problems = run.sources[0].problems
    iso = "is not ISO-8601 (e.g. 2026-11-01T12:00:00Z); the node is indexed without it"
    assert [p.message for p in problems] == [
        f"nodes[1] (id 'inc:2'): 'created_at': timestamp '03/11/2026' {iso}",
        f"nodes[2] (id 'inc:3'): 'created': timestamp 'soon' {iso}",
        f"nodes[2] (id 'inc:3'): 'updated_at': timestamp 'later' {iso}",
    ]
    assert all(p.keeps is Unread.NOTHING for p in problems)  # the node was read: nothing of an earlier run is kept


def test_the_temporal_channel_reads_the_time_it_kept(index: Index, tmp_path: Path) -> None:
    """An incident whose start could not be read is found by its end inside a window, and one
    left with no time is in no window's list (never first as "newest"), nor an error."""
    graph = {"nodes": [
        {"id": "inc:2", "kind": "incident", "name": "payments slow", "text": "Payments timed out.",
         "created_at": "03/11/2026", "resolved_at": "2026-11-03T15:00:00Z"},
        {"id": "inc:3", "kind": "incident", "name": "payments down", "text": "Payments was down.", "created_at": "soon"}]}
    index_sources(index, write_file(tmp_path / "ops", "incidents.json", json.dumps(graph)))
    answer = Retriever(index, reranker=None, cache_size=0).search("payments incidents since 2026-11-01", k=5)
    channels = {r.id: r.channels for r in answer.results}
    assert channels["inc:2"].get("temporal") == 1
    assert "temporal" not in channels.get("inc:3", {})
