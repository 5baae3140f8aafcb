"""An item whose text the index already holds a vector of takes that vector instead of
being embedded again: a renamed folder's items are new ids with the same texts."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from skill_retriever.model import Node, NodeKind
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
