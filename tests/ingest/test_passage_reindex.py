"""Re-indexing a passage corpus mirrors it, entities included, and keeps one name a folder.

Entities record no file: they are derived from every passage of the folder that names
them. Before, re-indexing a changed ``corpus.json`` by its path kept every entity the new
read no longer produced (an orphan with no edge, still returned as an answer), because
they looked like another file's items. Now an entity of the source that nothing staying
links to leaves with the passages that named it, and is listed in ``run.removed``; items
written through the API, another source's, and everything of a file the read could not
read stay. A folder indexed again under another ``--source-name`` is refused: passage
and tool ids are the items' own, so the items would silently move to the new name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from passage_corpus import corpus, removed

from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

MYTHS = [
    {"idx": 0, "title": "Lilu", "text": "Lilu is a demon in Mesopotamian myth. Gallu and Lilu are often named together."},
    {"idx": 1, "title": "Gallu", "text": "Gallu is an underworld demon who drags victims down. Utukku serve beside Gallu."},
    {"idx": 2, "title": "Utukku", "text": "Utukku are spirits of Mesopotamian myth, some kind and some cruel."},
    {"idx": 3, "title": "Kur", "text": "Kur is the underworld in Sumerian myth, guarded by a dragon."},
]


@pytest.fixture
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)


def run(index: Index, path: Path, **kw: Any) -> Any:
    return index_sources(index, [path], ner=False, calibrate=False, **kw)


def edited(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Gallu's passage taken out, Kur's text changed (no longer naming a dragon), one added."""
    kept = [dict(r) for r in records if r["idx"] != 1]
    kept[-1]["text"] = "Kur is the Sumerian underworld, a quantum marmalade vault."
    return kept + [{"idx": 9, "title": "Frobnicator Qux", "text": "The Frobnicator Qux is a fictional device."}]


@pytest.mark.parametrize("by", ["file", "folder"])
def test_a_changed_corpus_leaves_no_entity_it_no_longer_yields(index: Index, tmp_path: Path, by: str) -> None:
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    run(index, path if by == "file" else path.parent)
    assert "entity:gallu" in index.nodes
    corpus(path, edited(MYTHS))
    again = run(index, path if by == "file" else path.parent)
    now = ingest_passages(path, nlp=False)
    assert set(index.nodes) == {n.id for n in now.nodes}  # the index mirrors the corpus
    assert {"passage:1", "entity:gallu"} <= set(removed(again))
    snap = index.snapshot()
    linked = {e.source for e in snap.edges.values()} | {e.target for e in snap.edges.values()}
    assert all(node_id in linked for node_id, n in snap.nodes.items() if n.kind == "entity")


def test_what_the_api_wrote_and_another_source_hold_stay(index: Index, tmp_path: Path) -> None:
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    run(index, path)
    other = corpus(tmp_path / "elsewhere" / "corpus.json", [
        {"idx": 50, "title": "Tiamat", "text": "Tiamat is a primordial sea goddess."},
    ])
    run(index, other)
    index.upsert([Node(id="entity:kept by hand", kind="entity", name="Kept by hand", text="Kept by hand")])
    corpus(path, MYTHS[:1])
    again = run(index, path)
    assert {"entity:kept by hand", "entity:tiamat", "passage:50"} <= set(index.nodes)
    assert not {"entity:kept by hand", "entity:tiamat"} & set(removed(again))
    assert "entity:gallu" not in index.nodes and "passage:1" not in index.nodes


def test_a_corpus_that_could_not_be_read_whole_keeps_its_entities(index: Index, tmp_path: Path) -> None:
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    run(index, path)
    corpus(path, [MYTHS[0], {"title": "Gallu", "text": "no idx"}])  # which passage it was is unknown
    again = run(index, path)
    assert again.sources[0].problems and not again.removed
    assert {"passage:1", "entity:gallu", "entity:utukku", "passage:3"} <= set(index.nodes)


def test_a_record_json_cannot_hold_keeps_only_its_own_passage(index: Index, tmp_path: Path) -> None:
    """A NaN text is that one record's problem: its passage keeps its earlier version and
    what it names; the rest of the corpus is read, so a passage taken out goes."""
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    run(index, path)
    before = index.snapshot().nodes["passage:1"].text
    corpus(path, [MYTHS[0], {"idx": 1, "title": "Gallu", "text": float("nan")}])
    again = run(index, path)
    (problem,) = again.sources[0].problems
    assert "record 1 (idx 1)" in problem.message and "passage skipped" in problem.message
    assert index.snapshot().nodes["passage:1"].text == before
    assert {"passage:0", "passage:1", "entity:gallu"} <= set(index.nodes)
    assert {"passage:2", "passage:3"} <= set(removed(again)) and "passage:3" not in index.nodes


@pytest.mark.parametrize("by", ["file", "folder"])
def test_a_folder_indexed_again_under_another_name_is_refused(index: Index, tmp_path: Path, by: str) -> None:
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    run(index, path)
    before = index.snapshot().nodes
    with pytest.raises(IngestError) as caught:
        run(index, path if by == "file" else path.parent, source_name="other")
    message = str(caught.value)
    assert "'s40'" in message and "'other'" in message and "remove-source s40" in message
    assert index.snapshot().nodes == before  # nothing moved to 'other'
    assert {n.attrs["source_name"] for n in index.snapshot().nodes.values()} == {"s40"}


def test_the_cli_refuses_the_second_name_and_remove_source_still_finds_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = tmp_path / "ix"
    Index.open(ix, embedder=HashingEmbedder(), create=True).close()
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    assert main(["index", str(path.parent), "--index-dir", str(ix), "--no-ner"]) == 0
    assert main(["index", str(path.parent), "--index-dir", str(ix), "--no-ner", "--source-name", "other"]) != 0
    assert "remove-source s40" in capsys.readouterr().err
    assert main(["index", str(path), "--index-dir", str(ix), "--no-ner", "--source-name", "other"]) != 0
    assert main(["remove-source", "s40", "--index-dir", str(ix)]) == 0
    assert main(["index", str(path), "--index-dir", str(ix), "--no-ner", "--source-name", "other"]) == 0


def test_tools_are_refused_under_a_second_name_too(index: Index, tmp_path: Path) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "tools.jsonl").write_text(
        json.dumps({"id": "t1", "name": "grep", "description": "Search text in files."}) + "\n", encoding="utf-8"
    )
    run(index, folder)
    with pytest.raises(IngestError, match="'tools'"):
        run(index, folder, source_name="other")


def test_one_unreadable_record_keeps_its_passage_and_the_rest_is_mirrored(index: Index, tmp_path: Path) -> None:
    """A record whose idx can be read but not the rest keeps that passage's earlier
    version and its facts; the rest of the corpus is authoritative (it kept everything)."""
    path = corpus(tmp_path / "s40" / "corpus.json", MYTHS)
    run(index, path)
    facts_of_gallu = {i for i, n in index.nodes.items() if n.attrs.get("passage") == "passage:1"}
    assert facts_of_gallu
    corpus(path, [MYTHS[0], {**MYTHS[1], "title": ["Gallu"]}, MYTHS[2]])  # Kur taken out, Gallu's title broken
    again = run(index, path)
    (problem,) = again.sources[0].problems
    assert "record 1 (idx 1): title must be a string" in problem.message
    assert "passage:3" in removed(again) and "passage:3" not in index.nodes
    assert {"passage:1", *facts_of_gallu} <= set(index.nodes)  # the earlier Gallu stays, with its facts
    assert index.get("passage:1").name == "Gallu"


def test_a_repeated_idx_is_noted(tmp_path: Path) -> None:
    path = corpus(tmp_path / "c" / "corpus.json", [MYTHS[0], {**MYTHS[1], "idx": 0}])
    result = ingest_passages(path, nlp=False)
    assert {n.id for n in result.nodes if n.kind.value == "passage"} == {"passage:0", "passage:0#2"}
    (note,) = result.problems
    assert "idx 0 repeats an earlier record's; kept as passage:0#2" in note.message
