"""An export's "not set" time (0, null, "") is no time of the item, and hides none of its others.

Found walking an incident export: ``"resolvedAt": 0`` (how exports write an incident still
open) dated the incident 1970-01-01, and ``"updated_at": null`` beside ``"resolved_at":
"2026-12-05T10:00:00Z"`` left it with no updated time at all (the first name given was
taken, null or not), so "incidents yesterday" missed it. A 0 is said once per file, in a
note; null and "" are read as not set without a word.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.toolret import ingest_toolret

DEC_5 = datetime(2026, 12, 5, 10, tzinfo=UTC)


def _read(tmp_path: Path, *nodes: dict[str, Any]) -> IngestResult:
    items = [{"kind": "incident", "name": f"incident {i}", "text": f"Incident {i} text.", **n} for i, n in enumerate(nodes)]
    path = tmp_path / "incidents.json"
    path.write_text(json.dumps({"nodes": items}), encoding="utf-8")
    return ingest_json_graph(path)


def _times(result: IngestResult) -> dict[str, tuple[datetime | None, datetime | None]]:
    return {n.id: (n.created, n.updated) for n in result.nodes}


def test_zero_null_and_empty_are_no_time(tmp_path: Path) -> None:
    result = _read(
        tmp_path,
        {"id": "inc:1", "createdAt": "2026-12-05T10:00:00Z", "resolvedAt": 0},
        {"id": "inc:2", "created_at": "2026-12-05T10:00:00Z", "resolved_at": None},
        {"id": "inc:3", "started_at": "2026-12-05T10:00:00Z", "resolvedAt": ""},
        {"id": "inc:4", "created": 0, "updated": 0.0},
    )
    assert _times(result) == {"inc:1": (DEC_5, None), "inc:2": (DEC_5, None), "inc:3": (DEC_5, None), "inc:4": (None, None)}


def test_an_unset_name_does_not_hide_a_later_one(tmp_path: Path) -> None:
    result = _read(
        tmp_path,
        {"id": "inc:1", "created_at": "2026-12-04T10:00:00Z", "updated_at": None, "resolved_at": "2026-12-05T10:00:00Z"},
        {"id": "inc:2", "created": "", "createdAt": 0, "startedAt": "2026-12-05T10:00:00Z"},
        {"id": "inc:3", "updated": None, "resolvedAt": "2026-12-05T10:00:00Z"},
    )
    assert _times(result) == {"inc:1": (datetime(2026, 12, 4, 10, tzinfo=UTC), DEC_5), "inc:2": (DEC_5, None),
                              "inc:3": (None, DEC_5)}


def test_zero_times_are_one_note_per_file_and_null_none(tmp_path: Path) -> None:
    result = _read(
        tmp_path,
        {"id": "inc:1", "createdAt": "2026-12-05T10:00:00Z", "resolvedAt": 0},
        {"id": "inc:2", "createdAt": "2026-12-05T10:00:00Z", "resolvedAt": 0},
        {"id": "inc:3", "createdAt": "2026-12-05T10:00:00Z", "resolvedAt": None, "updated_at": ""},
    )
    [note] = result.problems
    assert note.read_whole  # a note, nothing of the file left out
    assert note.message == (
        "2 node(s) give 0 as a time (nodes[0] (id 'inc:1') 'resolvedAt', nodes[1] (id 'inc:2') 'resolvedAt'): "
        "read as not set, as exports write it, not as 1970-01-01; their other times are kept"
    )


def test_a_document_and_a_tool_read_zero_as_no_time(tmp_path: Path) -> None:
    (tmp_path / "pm").mkdir()
    (tmp_path / "pm" / "outage.md").write_text(
        "---\ntitle: Outage\ndate: 0\nupdated: 0\nresolved_at: 2026-12-05T10:00:00Z\n---\nIt was down.\n", encoding="utf-8")
    [doc] = ingest_documents(tmp_path / "pm").nodes
    assert (doc.created, doc.updated) == (None, DEC_5)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "tools.jsonl").write_text(
        json.dumps({"id": "t1", "name": "t1", "description": "A tool.", "created": 0}) + "\n", encoding="utf-8")
    [tool] = [n for n in ingest_toolret(tmp_path / "tools").nodes if n.id == "t1"]
    assert tool.created is None
