"""An item whose text the index already holds a vector of takes that vector instead of
being embedded again: a renamed folder's items are new ids with the same texts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _skill(node_id: str, text: str) -> Node:
    return Node(id=node_id, kind=NodeKind.SKILL, name=node_id.rsplit("/", 1)[-1], description="d", text=text)


def test_a_new_id_with_a_held_text_is_not_embedded_again(tmp_path: Path) -> None:
    embedder = HashingEmbedder()
    with Index.open(tmp_path / "index", embedder=embedder, create=True) as index:
        index.upsert([_skill("repo/a/pdf", "read and fill PDF forms"), _skill("repo/a/xlsx", "edit spreadsheets")], [])
        first = embedder.texts_embedded
        # The folder renamed: same names and texts under new ids, and one new text.
        report = index.upsert([_skill("repo/b/pdf", "read and fill PDF forms"), _skill("repo/b/xlsx", "edit spreadsheets"),
                               _skill("repo/b/docx", "write Word documents")], [])
        assert embedder.texts_embedded - first == 1  # only the new text
        assert report.embedded == 1
        snap = index.snapshot()
        np.testing.assert_array_equal(snap.node_vector("repo/b/pdf"), snap.node_vector("repo/a/pdf"))
        # A changed text under a held id is embedded, as before.
        index.upsert([_skill("repo/b/pdf", "read, fill and sign PDF forms")], [])
        assert embedder.texts_embedded - first == 2


def test_identical_texts_in_one_write_are_embedded_once(tmp_path: Path) -> None:
    # Two files with the same text (a skill copied into two plugins) in one batch: the
    # model would give the same vector twice.
    embedder = HashingEmbedder()
    with Index.open(tmp_path / "index", embedder=embedder, create=True) as index:
        report = index.upsert([_skill("repo/a/pdf", "read and fill PDF forms"), _skill("repo/b/pdf", "read and fill PDF forms"),
                               _skill("repo/a/xlsx", "edit spreadsheets")], [])
        assert embedder.texts_embedded == 2
        assert report.embedded == 2
        snap = index.snapshot()
        np.testing.assert_array_equal(snap.node_vector("repo/a/pdf"), snap.node_vector("repo/b/pdf"))
        # One copy edited (embedded), then put back: its text is held by the other copy.
        index.upsert([_skill("repo/b/pdf", "read, fill and sign PDF forms")], [])
        assert embedder.texts_embedded == 3
        report = index.upsert([_skill("repo/b/pdf", "read and fill PDF forms")], [])
        assert (embedder.texts_embedded, report.embedded, report.nodes_updated) == (3, 0, 1)
        np.testing.assert_array_equal(index.snapshot().node_vector("repo/b/pdf"), snap.node_vector("repo/a/pdf"))


def _damage(path: Path, table: str, item_id: str) -> None:
    """The stored vector of ``item_id`` made unusable (two bytes: no float32s), as a torn write leaves it."""
    db = sqlite3.connect(path / "items.sqlite")
    try:
        db.execute(f"UPDATE {table} SET vector = ? WHERE id = ?", (b"\x00\x00", item_id))
        db.commit()
    finally:
        db.close()


def test_repair_takes_a_damaged_vectors_text_from_another_item(tmp_path: Path) -> None:
    """`repair` (the writer's open) embedded each damaged vector again, though another item
    held a vector of the same text: a copy of a skill in a second plugin, a renamed folder's
    items beside the old ones. It takes that vector, as a write does; two damaged copies of
    one text with no good one embed it once."""
    path = tmp_path / "index"
    same = "read and fill PDF forms"
    skills = [_skill("repo/a/pdf", same), _skill("repo/b/pdf", same), _skill("repo/c/pdf", same),
              _skill("repo/a/xlsx", "edit spreadsheets"), _skill("repo/b/xlsx", "edit spreadsheets"),
              _skill("repo/a/docx", "write Word documents")]
    edges = [Edge("repo/a/pdf", "repo/a/xlsx", EdgeKind.DEPENDS_ON), Edge("repo/b/pdf", "repo/a/xlsx", EdgeKind.DEPENDS_ON)]
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(skills, edges)
        held = {n.id: index.snapshot().node_vector(n.id) for n in skills}
    for node_id in ("repo/b/pdf", "repo/a/xlsx", "repo/b/xlsx"):  # both copies of "edit spreadsheets"
        _damage(path, "nodes", node_id)
    _damage(path, "edges", edges[1].id)  # "pdf depends on xlsx": the other edge's sentence too
    embedder = HashingEmbedder()
    with Index.open(path, embedder=embedder, writable=True) as index:
        assert index.repaired["nodes"] == 3 and index.repaired["edges"] == 1
        assert (embedder.calls, embedder.texts_embedded) == (1, 1)  # "edit spreadsheets", once
        snap = index.snapshot()
        for node_id in ("repo/b/pdf", "repo/a/xlsx", "repo/b/xlsx"):
            np.testing.assert_array_equal(snap.node_vector(node_id), held[node_id])
        assert edges[1].id in snap.vector_ids()[1]
