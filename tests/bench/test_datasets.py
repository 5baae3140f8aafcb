"""Dataset loading: a missing data folder is a skip note, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.bench import datasets as D


def test_missing_data_folder_skips_with_a_message(tmp_path: Path) -> None:
    for loader in (D.multihop_sets, D.skills_sets, D.toolret_sets):
        sets, skipped = loader(None)
        assert sets == [] and skipped and "skipped" in skipped[0]
        sets, skipped = loader(tmp_path / "nowhere")
        assert sets == [] and "skipped" in skipped[0]


def test_seeded_sample_is_deterministic_and_ordered() -> None:
    items = list(range(100))
    a = D.seeded_sample(items, 10)
    assert a == D.seeded_sample(items, 10) and a == sorted(a) and len(set(a)) == 10
    assert D.seeded_sample(items, 500) == items


def test_toolret_set_from_a_small_folder(tmp_path: Path) -> None:
    folder = tmp_path / "toolret" / "mini"
    folder.mkdir(parents=True)
    (folder / "tools.jsonl").write_text("\n".join(json.dumps(t) for t in [
        {"id": "a", "name": "a", "description": "search flights"},
        {"id": "b", "name": "b", "description": "book a hotel"},
    ]), encoding="utf-8")
    (folder / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in [
        {"id": str(i), "query": f"q{i}", "relevant": ["a"]} for i in range(5)
    ]), encoding="utf-8")
    (folder / "edges.jsonl").write_text(json.dumps({"source": "a", "target": "b", "type": "tool_graph"}), encoding="utf-8")
    sets, skipped = D.toolret_sets(tmp_path, max_queries=3)
    assert not skipped and len(sets) == 1
    ds = sets[0]
    assert len(ds.queries) == 3 and any("seeded sample of 3" in n for n in ds.notes)
    result = ds.ingest(tmp_path)
    assert [e.kind.value for e in result.edges] == ["FEEDS"]
