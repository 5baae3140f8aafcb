"""A relation whose sentence ("<source> <verb> <target>: <description>") the index already
holds a vector of takes that vector instead of being embedded again: a renamed folder's
relations are new ids (their ends' ids changed) with the same sentences."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _skill(node_id: str, text: str) -> Node:
    return Node(id=node_id, kind=NodeKind.SKILL, name=node_id.rsplit("/", 1)[-1], description="d", text=text)


def _stored_sentence_vectors(index_dir: Path) -> dict[str, bytes]:
    """Edge id -> its vector as ``items.sqlite`` holds it."""
    with sqlite3.connect(index_dir / "items.sqlite") as db:
        return {str(i): bytes(v) for i, v in db.execute("SELECT id, vector FROM edges WHERE vector IS NOT NULL")}


def _folder(root: str) -> list[Node]:
    return [_skill(f"{root}/pdf", "read and fill PDF forms"), _skill(f"{root}/ocr", "read scanned pages")]


def test_a_renamed_folders_relations_are_not_embedded_again(tmp_path: Path) -> None:
    embedder = HashingEmbedder()
    with Index.open(tmp_path / "index", embedder=embedder, create=True) as index:
        index.upsert(_folder("repo/a"), [Edge("repo/a/pdf", "repo/a/ocr", EdgeKind.DEPENDS_ON)])
        first = embedder.texts_embedded
        assert first == 3  # two texts and one sentence
        report = index.upsert(_folder("repo/b"), [Edge("repo/b/pdf", "repo/b/ocr", EdgeKind.DEPENDS_ON)])
        assert embedder.texts_embedded == first
        assert (report.embedded, report.embedded_edges) == (0, 0)
        stored = _stored_sentence_vectors(tmp_path / "index")
        assert stored["repo/b/pdf|DEPENDS_ON|repo/b/ocr"] == stored["repo/a/pdf|DEPENDS_ON|repo/a/ocr"]
        # Another sentence (a description added) is embedded, as before.
        report = index.upsert((), [Edge("repo/b/pdf", "repo/b/ocr", EdgeKind.DEPENDS_ON, description="scans")])
        assert (report.embedded, report.embedded_edges) == (1, 1)


def test_identical_sentences_in_one_write_are_embedded_once(tmp_path: Path) -> None:
    embedder = HashingEmbedder()
    with Index.open(tmp_path / "index", embedder=embedder, create=True) as index:
        index.upsert([*_folder("repo/a"), *_folder("repo/b")], [])
        first = embedder.texts_embedded
        report = index.upsert((), [Edge("repo/a/pdf", "repo/a/ocr", EdgeKind.DEPENDS_ON),
                                   Edge("repo/b/pdf", "repo/b/ocr", EdgeKind.DEPENDS_ON)])
        assert embedder.texts_embedded - first == 1
        assert (report.embedded, report.embedded_edges) == (1, 1)
    stored = _stored_sentence_vectors(tmp_path / "index")
    assert stored["repo/a/pdf|DEPENDS_ON|repo/a/ocr"] == stored["repo/b/pdf|DEPENDS_ON|repo/b/ocr"]
