"""A JSON graph node whose time cannot be read: the problem names the key as the file writes it.

Found walking an incident export: ``{"created": "2026-12-01", "updated": "last tuesday"}``
was refused as ``node 'inc:2': timestamp 'last tuesday' is not ISO-8601``, naming neither
``updated`` nor, for a time under an export's name, ``created_at``; and ``"created": 1e300``
was said to "look like milliseconds: divide by 1000", which gives no time either.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from files import write_file

from skill_retriever.indexing import index_sources
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
    assert set(index.snapshot().nodes) == {"inc:1"}  # the rest of the file is indexed
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
    assert f"'startedAt': timestamp {value!r} is not ISO-8601" in message and message.endswith(hint)
