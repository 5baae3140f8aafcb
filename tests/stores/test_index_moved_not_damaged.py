"""An index folder moved, deleted or replaced while a handle has it open is not damage
(found by a walkthrough of the Python API). The README's table of errors says such a
folder is an ``IndexNotFoundError`` and that only a damaged index is an
``IndexCorruptError``, "so a caller that catches that one to repair or rebuild acts only
on damage"; the next search of a `Retriever` over it raised ``IndexCorruptError``, which
sent such a caller to repair or rebuild an index that was whole, where it now is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skill_retriever.exceptions import IndexCorruptError, IndexNotFoundError, IndexOpenError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _build(path: Path) -> None:
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.add(Node(id="skill:alpha", kind="skill", name="alpha", text="alpha writes structured logs"))


@pytest.mark.parametrize("what", ["moved", "deleted", "replaced"])
def test_a_search_over_a_folder_moved_deleted_or_replaced_is_not_told_it_is_damaged(tmp_path: Path, what: str) -> None:
    path = tmp_path / "idx"
    _build(path)
    index = Index.open(path, embedder=HashingEmbedder())
    retriever = Retriever(index, reranker=None)
    assert retriever.search("structured logs", k=1).results
    if what == "moved":
        path.rename(tmp_path / "elsewhere")
    else:
        shutil.rmtree(path)
        if what == "replaced":
            _build(path)
    with pytest.raises(IndexNotFoundError, match="since the index was opened; open the index again") as caught:
        retriever.search("structured logs again", k=1)
    assert not isinstance(caught.value, IndexCorruptError)
    assert isinstance(caught.value, IndexOpenError)  # still caught by the catch-all
    index.close()
