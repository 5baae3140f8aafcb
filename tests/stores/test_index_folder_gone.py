"""An index folder deleted while a handle is open, then written through that handle (found
by a walkthrough of the Python API). A handle that had only read was told its folder
"cannot be written; make it writable", which no change of rights mends; a handle that had
already written went on writing into the deleted database and reported success, a write
lost when the process ended. Both now say the folder is gone, and store nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skill_retriever.exceptions import IndexNotFoundError
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def node(name: str) -> Node:
    return Node(id=f"skill:{name}", kind="skill", name=name, text=f"{name} writes structured logs")


def test_a_reader_whose_folder_is_gone_is_told_so_not_to_make_it_writable(tmp_path: Path) -> None:
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True) as index:
        index.add(node("alpha"))
    reader = Index.open(tmp_path / "idx", embedder=HashingEmbedder())
    assert len(reader) == 1
    shutil.rmtree(tmp_path / "idx")
    with pytest.raises(IndexNotFoundError, match=r"the index folder .*idx is gone \(deleted or moved") as caught:
        reader.add(node("beta"))
    assert "writable" not in str(caught.value)
    assert not (tmp_path / "idx").exists()  # the refused write made nothing there
    reader.close()


def test_a_writer_whose_folder_is_gone_stores_nothing_and_says_so(tmp_path: Path) -> None:
    writer = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    writer.add(node("alpha"))
    shutil.rmtree(tmp_path / "idx")
    with pytest.raises(IndexNotFoundError, match=r"items.sqlite was deleted since the index was opened"):
        writer.add(node("beta"))
    with pytest.raises(IndexNotFoundError, match="was deleted since the index was opened"):
        writer.delete("skill:alpha")
    writer.close()
    # the path is free for a new index, which holds none of the lost handle's items
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True) as fresh:
        assert len(fresh) == 0
