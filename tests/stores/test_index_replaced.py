"""A reader whose index directory was deleted and built again under the same path must
not go on serving the old, deleted database (an item made private since would still be
shown): its next snapshot says the index was replaced, and a fresh open reads the new one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skill_retriever.exceptions import IndexNotFoundError
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _build(path: Path, access: tuple[str, ...]) -> None:
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    index.upsert([Node("db/migrate", NodeKind.SKILL, "migrate", "run migrations", access=access)], [])
    index.close()


def _visible(index: Index) -> bool:
    return index.snapshot().nodes["db/migrate"].access == ()


def test_a_reader_of_a_rebuilt_index_is_told_instead_of_serving_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "idx"
    _build(path, ())
    reader = Index.open(path, embedder=HashingEmbedder())
    assert _visible(reader)
    shutil.rmtree(path)
    _build(path, ("red",))  # the item is private now
    with pytest.raises(IndexNotFoundError, match="was deleted and another index built in its place since the index was opened"):
        reader.snapshot()
    reader.close()
    again = Index.open(path, embedder=HashingEmbedder())
    assert not _visible(again)
    again.close()


def test_a_reader_catches_up_with_writes_in_place(tmp_path: Path) -> None:
    path = tmp_path / "idx"
    _build(path, ())
    reader = Index.open(path, embedder=HashingEmbedder())
    writer = Index.open(path, embedder=HashingEmbedder(), writable=True)
    writer.upsert([Node("db/migrate", NodeKind.SKILL, "migrate", "run migrations", access=("red",))], [])
    writer.close()
    assert not _visible(reader)  # the same file, changed: read on
    reader.close()
